#!/usr/bin/env bash
# Validates every Kubernetes manifest in deploy/ offline, strictly (unknown fields are errors), against
# the schemas that the PyPI package kubernetes-validate ships: the oldest Kubernetes these manifests
# support (1.27, where native gRPC probes went GA) and the newest the package knows. Then checks the
# promises the files make to each other (selectors, ports, the shutdown arithmetic, the image's uid).
#
#   bash scripts/validate-k8s.sh
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
ensure_venv "$ROOT/scripts/requirements-tools.txt"

cd "$ROOT"
# kustomization.yaml is a kustomize file, not an API object: checked by the consistency step instead.
# deploy/envoy/ is Envoy's configuration, not a manifest: scripts/e2e-replicas.sh validates it.
mapfile -t manifests < <(find deploy -maxdepth 1 -name '*.yaml' ! -name kustomization.yaml | sort)
((${#manifests[@]} > 0)) || die "no manifests in deploy/"

# Run with no network at all where we may (root, as in CI), proving the validation is offline.
offline=()
if unshare -n true 2>/dev/null; then offline=(unshare -n); fi

for version in 1.27 ""; do
    args=(--strict)
    [[ -n "$version" ]] && args+=(-k "$version")
    log "kubernetes-validate ${args[*]} (${offline[*]:-network allowed})"
    timeout 120 "${offline[@]}" "$VENV/bin/kubernetes-validate" "${args[@]}" "${manifests[@]}"
done

log "cross-file consistency"
timeout 60 "$VENV/bin/python" - "${manifests[@]}" <<'PY'
import re
import sys

import yaml

docs = {}
for path in sys.argv[1:]:
    for doc in yaml.safe_load_all(open(path)):
        if doc:
            docs[(doc["kind"], doc["metadata"]["name"])] = (path, doc)

errors = []
def check(cond, msg):
    if not cond:
        errors.append(msg)

kust = yaml.safe_load(open("deploy/kustomization.yaml"))
listed = set(kust["resources"])
files = {p.split("/", 1)[1] for p in sys.argv[1:]}
check(listed == files, f"kustomization.yaml resources {sorted(listed)} != manifests {sorted(files)}")

_, dep = docs[("Deployment", "sudoku-grpc")]
pod = dep["spec"]["template"]
labels = pod["metadata"]["labels"]
check(dep["spec"]["selector"]["matchLabels"].items() <= labels.items(), "Deployment selector misses pod labels")
(container,) = pod["spec"]["containers"]
ports = {p["name"]: p["containerPort"] for p in container["ports"]}
env = {e["name"]: e["value"] for e in container["env"]}
check(env["SUDOKU_ADDR"].endswith(f":{ports['grpc']}"), "SUDOKU_ADDR port != grpc containerPort")
check(env["SUDOKU_METRICS_ADDR"].endswith(f":{ports['metrics']}"), "SUDOKU_METRICS_ADDR port != metrics port")
for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
    check(container[probe]["grpc"]["port"] == ports["grpc"], f"{probe} is not a gRPC probe on the grpc port")

# terminationGracePeriodSeconds must cover preStop + the server's own drain + a margin.
grace = re.fullmatch(r"(\d+)s", env["SUDOKU_SHUTDOWN_GRACE"])
check(grace is not None, "SUDOKU_SHUTDOWN_GRACE is not a whole number of seconds like 20s")
pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
pre_stop_s = int(pre_stop[1]) if pre_stop[0] == "sleep" else 0
if grace:
    need = pre_stop_s + int(grace.group(1)) + 1
    tgps = pod["spec"]["terminationGracePeriodSeconds"]
    check(tgps >= need, f"terminationGracePeriodSeconds {tgps} < preStop {pre_stop_s}s + grace {grace.group(1)}s + margin")

# The pod runs as the Dockerfile's user, non-root, on a read-only root.
dockerfile = open("Dockerfile").read()
user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.M)
sc = pod["spec"]["securityContext"]
check(user and sc["runAsUser"] == int(user.group(1)) and sc["runAsGroup"] == int(user.group(2)),
      "runAsUser/runAsGroup differ from the Dockerfile's USER")
check(sc.get("runAsNonRoot") is True, "pod is not runAsNonRoot")
check(container["securityContext"].get("readOnlyRootFilesystem") is True, "root filesystem is writable")
check(all(k in container["resources"].get(s, {}) for s in ("requests", "limits") for k in ("cpu", "memory")),
      "cpu/memory requests and limits must all be set")
for port in ports.values():
    check(re.search(rf"^EXPOSE .*\b{port}\b", dockerfile, re.M), f"Dockerfile does not EXPOSE {port}")

services = [d for (kind, _), (_, d) in docs.items() if kind == "Service"]
check(any(s["spec"].get("clusterIP") == "None" for s in services), "no headless Service")
check(any(s["spec"].get("clusterIP") != "None" for s in services), "no regular ClusterIP Service")
for svc in services:
    name = svc["metadata"]["name"]
    check(svc["spec"]["selector"].items() <= labels.items(), f"Service {name} selects no pod")
    for p in svc["spec"]["ports"]:
        check(p["targetPort"] in ports, f"Service {name} targets unknown port {p['targetPort']}")

for kind in ("HorizontalPodAutoscaler", "PodDisruptionBudget"):
    check(any(k == kind for k, _ in docs), f"no {kind}")
_, hpa = docs[("HorizontalPodAutoscaler", "sudoku-grpc")]
check(hpa["spec"]["scaleTargetRef"]["name"] == dep["metadata"]["name"], "HPA targets another Deployment")
check(hpa["spec"]["minReplicas"] >= 2, "HPA minReplicas < 2 leaves the PDB nothing to keep")
_, pdb = docs[("PodDisruptionBudget", "sudoku-grpc")]
check(pdb["spec"]["selector"]["matchLabels"].items() <= labels.items(), "PDB selects no pod")

if errors:
    print("\n".join(f"FAIL: {e}" for e in errors), file=sys.stderr)
    sys.exit(1)
print(f"{len(docs)} manifests consistent")
PY
log "deploy/: valid"
