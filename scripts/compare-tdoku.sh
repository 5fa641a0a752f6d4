#!/usr/bin/env bash
# Same-run comparison with tdoku's own benchmark, both pinned to one CPU and alternated round by
# round, so both see the same minutes of a machine that drifts. MODE=uniqueness (the default: both
# look for a second solution) or MODE=first (both stop at the first, tdoku's -f).
#
#   TDOKU=/path/to/tdoku/build/run_benchmark bash scripts/compare-tdoku.sh FILE...
#
# TDOKU is a run_benchmark you built yourself from tdoku's sources, outside this repository (several
# may be given, space separated, e.g. a g++ and a clang build). OURS (default
# target/release/sudoku-grpc), ROUNDS (3), CPU (1) and SECONDS_EACH (5) may be set too. Prints one
# line per file and round: puzzles a second for each side and our time over each tdoku's.
set -euo pipefail
: "${TDOKU:?set TDOKU to the run_benchmark binary of tdoku (or several, space separated)}"
OURS=${OURS:-target/release/sudoku-grpc}
ROUNDS=${ROUNDS:-3}
CPU=${CPU:-1}
SECONDS_EACH=${SECONDS_EACH:-5}
case "${MODE:=uniqueness}" in
    uniqueness) tdoku_mode=(); row=uniqueness ;;
    first) tdoku_mode=(-f); row=first ;;
    *) echo "MODE is uniqueness or first, not $MODE" >&2; exit 2 ;;
esac
# Raised priority where allowed (root), else the default one.
NICE=(nice -n -19)
"${NICE[@]}" true 2>/dev/null || NICE=()
pinned() { "${NICE[@]}" taskset -c "$CPU" "$@"; }

for file in "$@"; do
    for round in $(seq "$ROUNDS"); do
        line="$(basename "$file") $MODE round $round:"
        rates=()
        for tdoku in $TDOKU; do
            # The last line of run_benchmark's table: | name | puzzles/sec | ...
            rate=$(pinned "$tdoku" -s tdoku -r0 "${tdoku_mode[@]}" -t "$SECONDS_EACH" -w 1 "$file" | tail -1 |
                awk -F'|' '{gsub(/ /, "", $3); print $3}')
            rates+=("$rate")
            line="$line tdoku($(basename "$tdoku")) $rate/s"
        done
        ours=$(pinned "$OURS" bench --baseline-sample 0 --min-time "${SECONDS_EACH}s" "$file" |
            awk -v row="$row" '$1 == row {print ($1 == "first" ? $4 : $3); exit}')
        line="$line | ours $ours/s"
        for rate in "${rates[@]}"; do
            line="$line, $(awk -v t="$rate" -v o="$ours" 'BEGIN {printf "%.2fx", t / o}')"
        done
        echo "$line"
    done
done
