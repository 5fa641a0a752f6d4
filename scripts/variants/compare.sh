#!/usr/bin/env bash
# The variant benchmark beside its two outside anchors: ours (`sudoku-grpc bench --variants`), sigh's
# Interactive Sudoku Solver (ISS, through iss.py and iss_bench.mjs) and CP-SAT (cpsat.py), on every
# `*.fpuzzles.txt` file of SET_DIR (one rule family a file, as `sudoku-grpc bench
# --make-variant-sets DIR` writes them), all in uniqueness mode (up to two solutions).
#
#   scripts/variants/compare.sh SET_DIR
#
# Checks that ISS and CP-SAT agree on every verdict and, where the puzzle is unique, on the solution
# (where it is not, that each one's solution satisfies the other's model), that our verdict counts are
# theirs, prints every disagreement, then one markdown table of mean times per puzzle. Exit code 1 on
# any disagreement or error.
#
# Environment (defaults in brackets):
#   ISS_DIR  a checkout of the Interactive Sudoku Solver [/tmp/iss]
#   PYTHON   a Python with ortools and lzstring [/tmp/ortools-venv/bin/python]
#   NODE     Node 20 or later [node]
#   OURS     our binary [target/release/sudoku-grpc of this repository]; if it is missing or its
#            `bench --variants` fails, the table says so and the anchors are still compared
#   KEEP     a folder to keep the outputs in [a temporary one, removed at the end]
set -u -o pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 SET_DIR   (a folder of *.fpuzzles.txt files)" >&2
  exit 2
fi
SET_DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ISS_DIR=${ISS_DIR:-/tmp/iss}
PYTHON=${PYTHON:-/tmp/ortools-venv/bin/python}
NODE=${NODE:-node}
OURS=${OURS:-$ROOT/target/release/sudoku-grpc}
export ISS_DIR NODE

if [ ! -f "$ISS_DIR/js/solver/sudoku_builder.js" ]; then
  echo "ISS_DIR=$ISS_DIR is not an Interactive Sudoku Solver checkout (see scripts/variants/README.md)" >&2
  exit 2
fi
if ! "$PYTHON" -c 'import ortools, lzstring' 2>/dev/null; then
  echo "PYTHON=$PYTHON has not ortools and lzstring (see scripts/variants/README.md)" >&2
  exit 2
fi
if [ -n "${KEEP:-}" ]; then
  OUT=$KEEP
  mkdir -p "$OUT"
else
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
fi

shopt -s nullglob
files=("$SET_DIR"/*.fpuzzles.txt)
if [ ${#files[@]} -eq 0 ]; then
  echo "no *.fpuzzles.txt in $SET_DIR" >&2
  exit 2
fi

for f in "${files[@]}"; do
  fam=$(basename "$f" .fpuzzles.txt)
  echo "== $fam" >&2
  "$PYTHON" "$HERE/cpsat.py" "$f" >"$OUT/$fam.cpsat" 2>"$OUT/$fam.cpsat.err"
  "$PYTHON" "$HERE/iss.py" "$f" >"$OUT/$fam.iss" 2>"$OUT/$fam.iss.err"
  "$NODE" "$HERE/iss_bench.mjs" "$ISS_DIR" "$OUT/$fam.iss" >"$OUT/$fam.issout" 2>"$OUT/$fam.issout.err"
  if [ -x "$OURS" ]; then
    "$OURS" bench --variants "$f" >"$OUT/$fam.ours" 2>"$OUT/$fam.ours.err" \
      || echo "ours failed: $(tail -n 3 "$OUT/$fam.ours.err" | tr '\n' ' ')" >"$OUT/$fam.ours.failed"
  else
    echo "no binary at $OURS (cargo build --release)" >"$OUT/$fam.ours.failed"
  fi
done

"$PYTHON" "$HERE/agree.py" "$OUT" "${files[@]}"
