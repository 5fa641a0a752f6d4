#!/usr/bin/env bash
# The puzzle sets of the tdoku comparison (README, Performance) that are not in ../shared/data, made
# deterministically into DIR (default target/sets) from the shared 17-clue file:
#
#   easy.txt                 generated, easy (solved by propagation alone or nearly)
#   minimal.txt              generated, minimal (no given can go)
#   17_clue_minus_one.txt    17-clue puzzles less one clue: several solutions, many guesses
#   few_guesses.txt          solved grids with the top 3-5 rows emptied and 2-5 more cells cleared:
#                            several solutions (the emptied band's rows can be swapped), few guesses
#   no_solution.txt          17-clue puzzles with one given added that is not the solution's digit
#                            there: on even lines one that clashes with a given of its row, on odd
#                            lines one that clashes with none (unsolvable because the puzzle is unique)
#
#   bash scripts/comparison-sets.sh [DIR] [17_CLUE_FILE]
set -euo pipefail
dir=${1:-target/sets}
clues=${2:-../shared/data/17_clue.txt}
bin=${OURS:-target/release/sudoku-grpc}
mkdir -p "$dir"

"$bin" generate --difficulty easy --count 10000 --seed 1 > "$dir/easy.txt"
"$bin" generate --minimal --count 2000 --seed 1 > "$dir/minimal.txt"
bash "$(dirname "$0")/several-solutions.sh" "$clues" > "$dir/17_clue_minus_one.txt"

# One solution line per 17-clue puzzle, beside its puzzle.
grep -v '^#' "$clues" | grep . | cut -c1-81 > "$dir/17_clue_puzzles.tmp"
"$bin" solve "$dir/17_clue_puzzles.tmp" 2> /dev/null > "$dir/17_clue_solutions.tmp"

{
    echo "# expect: several solutions"
    awk '{
        n = NR - 1
        rows = 3 + n % 3
        line = substr("..........................................................................", 1, rows * 9) substr($1, rows * 9 + 1)
        left = 81 - rows * 9
        for (k = 0; k < 2 + n % 4; k++) {
            p = rows * 9 + (n * 7 + k * 13) % left + 1
            line = substr(line, 1, p - 1) "." substr(line, p + 1)
        }
        print line
    }' "$dir/17_clue_solutions.tmp"
} > "$dir/few_guesses.txt"

{
    # tdoku's run_benchmark refuses a puzzle without a solution unless a comment line says this.
    echo "# ALLOWZERO"
    paste -d ' ' "$dir/17_clue_puzzles.tmp" "$dir/17_clue_solutions.tmp" | awk '{
        n = NR - 1
        p = $1; s = $2
        for (i = 0; i < 81; i++) g[i] = substr(p, i + 1, 1)
        # From a cell that moves with the line, the first empty cell with a digit that fits.
        for (j = 0; j < 81; j++) {
            i = (n * 11 + j) % 81
            if (g[i] ~ /[1-9]/) continue
            r = int(i / 9); c = i % 9; b = int(r / 3) * 3 + int(c / 3)
            delete row; delete peer
            for (k = 0; k < 81; k++) {
                if (g[k] !~ /[1-9]/) continue
                rk = int(k / 9); ck = k % 9; bk = int(rk / 3) * 3 + int(ck / 3)
                if (rk == r) row[g[k]] = 1
                if (rk == r || ck == c || bk == b) peer[g[k]] = 1
            }
            v = ""
            for (d = 1; d <= 9; d++) {
                if (d == substr(s, i + 1, 1)) continue
                if (n % 2 == 0 && (d in row)) { v = d; break }
                if (n % 2 == 1 && !(d in peer)) { v = d; break }
            }
            if (v != "") break
        }
        print substr(p, 1, i) v substr(p, i + 2)
    }'
} > "$dir/no_solution.txt"
rm "$dir/17_clue_puzzles.tmp" "$dir/17_clue_solutions.tmp"
wc -l "$dir"/*.txt
