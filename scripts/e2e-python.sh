#!/usr/bin/env bash
# End-to-end from Python's grpcio: clients/python/tests (pytest) against a real server, with stubs
# generated from proto/ at test time by grpcio-tools (into pytest's temp dir; nothing committed).
# Installs clients/python/requirements.txt into .venv/, starts the server on a free loopback port
# (killed on exit), runs the tests.
#
#   bash scripts/e2e-python.sh [path/to/sudoku-grpc] [pytest args...]
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
shift || true
ensure_venv "$ROOT/clients/python/requirements.txt"

log "versions: $("$VENV/bin/python" -c 'import sys, grpc, google.protobuf as pb
print(f"python {sys.version.split()[0]}, grpcio {grpc.__version__}, protobuf {pb.__version__}")')"

start_server "$BIN" python
log "pytest clients/python against $GRPC_ADDR"
cd "$ROOT"
SUDOKU_TEST_ADDR="$GRPC_ADDR" SUDOKU_BIN="$BIN" timeout 600 "$VENV/bin/python" -m pytest \
    -p no:cacheprovider -q -rs clients/python/tests "$@"
