#!/usr/bin/env bash
# Soak: mixed traffic (good and bad puzzles, deadlines, cancellations, many streams) against a fresh
# server on loopback for a bounded time; then SIGTERM, which must end it cleanly. Fails if any request
# went unanswered or any answer was wrong (see scripts/soak.py).
#
#   bash scripts/soak.sh [path/to/sudoku-grpc] [SECONDS]     # default 180 s
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
SECONDS_TO_RUN="${2:-180}"
ensure_venv "$ROOT/clients/python/requirements.txt"

start_server "$BIN" soak
cd "$ROOT"
puzzles=(tests/data/17_clue_sample.txt tests/data/forum_hardest_1905_11plus_sample.txt)
timeout $((SECONDS_TO_RUN + 300)) "$VENV/bin/python" scripts/soak.py \
    --addr "$GRPC_ADDR" --pid "$SERVER_PID" --seconds "$SECONDS_TO_RUN" --puzzles "${puzzles[@]}"
stop_server || die "the server did not stop cleanly after the soak (see target/e2e/soak-server.log)"
log "server stopped cleanly"
