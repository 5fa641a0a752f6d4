#!/usr/bin/env bash
# Puzzles with several solutions, for the tests and the bench: each 17-clue puzzle of the input with one
# clue removed (the k-th given, k = the puzzle's index modulo 17, so every position is used evenly).
# No 16-clue Sudoku has a unique solution (McGuire, Tugemann and Civario, 2012), and removing a clue
# keeps the puzzle's solutions, so every output line has two or more. The first line is the mark that
# tells `sudoku-grpc bench` to expect a `Multiple` verdict on every puzzle.
#
#   bash scripts/several-solutions.sh ../shared/data/17_clue.txt > /tmp/17_clue_minus_one.txt
#   # tests/data/17_clue_minus_one_sample.txt, below its two comment lines: every 48th, first 1,000
#   bash scripts/several-solutions.sh ../shared/data/17_clue.txt | awk 'NR > 1 && NR % 48 == 2' | head -1000
set -euo pipefail
echo "# expect: several solutions"
awk '
    /^#/ || NF == 0 { next }
    {
        line = $1
        k = n++ % 17
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (c ~ /[1-9]/ && k-- == 0) {
                line = substr(line, 1, i - 1) "." substr(line, i + 1)
                break
            }
        }
        print line
    }
' "${1:--}"
