#!/usr/bin/env bash
# The operations and polyglot-client checks, in order, stopping at the first failure:
#   1. hadolint on the Dockerfile          (scripts/lint-dockerfile.sh)
#   2. Kubernetes manifests, offline       (scripts/validate-k8s.sh)
#   3. buf lint on proto/                  (scripts/buf-lint.sh)
#   4. grpcurl end to end                  (scripts/e2e-grpcurl.sh)
#   5. Python grpcio end to end            (scripts/e2e-python.sh)
#   6. Node grpc-js end to end             (scripts/e2e-node.sh)
#   7. Go grpc-go end to end               (scripts/e2e-go.sh)
#   8. C++ gRPC end to end                 (scripts/e2e-cpp.sh)
#   9. Java grpc-java end to end           (scripts/e2e-java.sh)
#  10. three replicas behind Envoy         (scripts/e2e-replicas.sh)
# Each step is time-bounded; each end-to-end step starts its own server on a free loopback port and
# kills it on exit, and prints the client library versions it tested. Tools install themselves
# (.venv/, scripts/buf/node_modules, clients/node/node_modules; Debian packages for Go, C++ and Java,
# through apt-get when run as root); a toolchain that cannot be had fails its step.
#
#   bash scripts/ci-clients.sh [path/to/sudoku-grpc]     # default: target/{release,debug}/sudoku-grpc
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
log "server binary: $BIN"

# name:time limit in seconds:script:whether it takes the server binary
steps=(
    "hadolint:300:lint-dockerfile.sh:"
    "kubernetes:300:validate-k8s.sh:"
    "buf:300:buf-lint.sh:"
    "grpcurl:600:e2e-grpcurl.sh:bin"
    "python:900:e2e-python.sh:bin"
    "node:600:e2e-node.sh:bin"
    "go:600:e2e-go.sh:bin"
    "cpp:600:e2e-cpp.sh:bin"
    "java:600:e2e-java.sh:bin"
    "replicas:900:e2e-replicas.sh:bin"
)
passed=0
for step in "${steps[@]}"; do
    IFS=: read -r name limit script takes_bin <<<"$step"
    args=()
    [[ -n "$takes_bin" ]] && args=("$BIN")
    log "[$name] scripts/$script ${args[*]} (limit ${limit}s)"
    started=$SECONDS
    if ! timeout --kill-after=10 "$limit" bash "$ROOT/scripts/$script" "${args[@]}"; then
        printf 'FAIL: [%s] failed after %ds\n' "$name" $((SECONDS - started)) >&2
        printf 'ci-clients: %d passed, 1 failed\n' "$passed"
        exit 1
    fi
    log "[$name] ok in $((SECONDS - started))s"
    passed=$((passed + 1))
done
printf 'ci-clients: %d passed, 0 failed\n' "$passed"
