#!/usr/bin/env bash
# Compares our grader's Sudoku Explainer ratings with serate's (SE's command-line rater).
#
#   scripts/compare-serate.sh FILE
#
# FILE has one rated puzzle a line: the 81-character puzzle, then serate's ER/EP/ED as `x/y/z`, then
# anything (serate's name for the hardest technique); `#` lines are comments. tests/data/
# serate_sample.txt is such a file; serate's own output with `--format='%g %r/%p/%d %R'` is another.
#
# Grades every puzzle with `sudoku-grpc grade` (the release build; SUDOKU_GRPC=path to use another
# binary) and prints, by SE's rating band, how often ours agrees: up to 4.4 equal (within 0.05);
# 4.5-9.0 equal and within 0.3; above 9.0 within 0.5. The same for EP and ED, then the ER
# disagreements grouped by our hardest technique with SE's ratings beside it.
#
# With SERATE set to a serate command (built outside this repository from SukakuExplainer's sources,
# e.g. SERATE="java -cp /tmp/serate/classes diuf.sudoku.test.serate"), also the speed side by side:
# for each band of SE's ER, serate rates the band's puzzles (SE 1.2.1's techniques, one thread, its
# own --totalTime clock, so the JVM's start is left out but its warm-up is not) and ours grades them
# ROUNDS times in one process (default 20; process start included), one thread each; it prints
# each side's mean time a puzzle and serate's over ours.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 SERATE_OUTPUT_OR_SAMPLE_FILE" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SUDOKU_GRPC:-}
if [ -z "$bin" ]; then
    (cd "$root" && cargo build --release --quiet --bin sudoku-grpc)
    bin="$root/target/release/sudoku-grpc"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$1" | awk 'NF >= 2 { print $1 > "'"$tmp"'/puzzles"; print $2 > "'"$tmp"'/se" }'
start=$(date +%s.%N)
"$bin" grade "$tmp/puzzles" > "$tmp/ours" || true
end=$(date +%s.%N)
echo "graded $(wc -l < "$tmp/puzzles") puzzles in $(echo "$end - $start" | bc) s"

python3 - "$tmp/puzzles" "$tmp/se" "$tmp/ours" <<'EOF'
import sys
from collections import defaultdict

puzzles = open(sys.argv[1]).read().split()
se = [tuple(float(x) for x in line.strip().split("/")) for line in open(sys.argv[2])]
ours = []
for line in open(sys.argv[3]):
    if line[:1].isspace():
        continue  # a path line under a grade line
    words = line.split()
    if "ER/EP/ED" in words:
        i = words.index("ER/EP/ED")
        ratings = tuple(float(x.rstrip("+")) for x in words[i + 1].split("/"))
        ours.append((ratings, words[i - 1]))
    else:
        ours.append(((None, None, None), line.strip()))
assert len(ours) == len(se) == len(puzzles), (len(ours), len(se), len(puzzles))

BANDS = [("<=4.4", 0.0, 4.45), ("4.5-9.0", 4.45, 9.05), (">9.0", 9.05, 99.0)]

def band(x):
    for name, lo, hi in BANDS:
        if lo <= x < hi:
            return name

def table(label, k):
    rows = defaultdict(lambda: [0, 0, 0, 0])
    for (s, (o, _)) in zip(se, ours):
        row = rows[band(s[k])]
        row[0] += 1
        if o[k] is None:
            continue
        d = abs(o[k] - s[k])
        row[1] += d < 0.05
        row[2] += d <= 0.3 + 1e-9
        row[3] += d <= 0.5 + 1e-9
    print(f"{label:3} {'SE band':8} {'n':>4} {'equal':>12} {'within 0.3':>12} {'within 0.5':>12}")
    for name, _, _ in BANDS:
        n, eq, w3, w5 = rows[name]
        if n == 0:
            continue
        pct = lambda x: f"{x:4d} {100 * x / n:5.1f}%"
        print(f"{label:3} {name:8} {n:4d} {pct(eq):>12} {pct(w3):>12} {pct(w5):>12}")

for label, k in (("ER", 0), ("EP", 1), ("ED", 2)):
    table(label, k)
    print()

groups = defaultdict(lambda: defaultdict(int))
for (s, (o, tech)) in zip(se, ours):
    if o[0] is None or abs(o[0] - s[0]) >= 0.05:
        key = f"{tech} {o[0]}" if o[0] is not None else tech
        groups[key][s[0]] += 1
print("ER disagreements by our hardest technique (ours -> SE's ratings: count)")
for key, ses in sorted(groups.items(), key=lambda kv: -sum(kv[1].values())):
    total = sum(ses.values())
    beside = ", ".join(f"{r:.1f}: {c}" for r, c in sorted(ses.items()))
    print(f"{total:4d}  {key:28} SE {beside}")
EOF

[ -n "${SERATE:-}" ] || exit 0
rounds=${ROUNDS:-20}
# The puzzles by SE's band, one file each, and an index of them: number, name, count.
python3 - "$tmp" <<'EOF'
import sys
tmp = sys.argv[1]
puzzles = open(f"{tmp}/puzzles").read().split()
se = [float(line.split("/")[0]) for line in open(f"{tmp}/se")]
bands = [("1.0-2.5", 0, 2.55), ("2.6-4.4", 2.55, 4.45), ("4.5-6.9", 4.45, 6.95),
         ("7.0-9.0", 6.95, 9.05), ("9.1+", 9.05, 99)]
with open(f"{tmp}/bands", "w") as index:
    for i, (name, lo, hi) in enumerate(bands):
        chosen = [p for p, r in zip(puzzles, se) if lo <= r < hi]
        if chosen:
            open(f"{tmp}/band{i}", "w").write("\n".join(chosen) + "\n")
            print(i, name, len(chosen), file=index)
EOF
echo
echo "speed beside serate, one thread each: mean time a puzzle"
printf '%-8s %5s %12s %12s %12s\n' "SE band" n serate ours "serate/ours"
while read -r i name n; do
    # serate's total as S.CCs, MmSSs or HhMMm.
    total=$($SERATE --techs=1111000011010111011011011011000010100010111111 --threads=1 --totalTime \
        --format='%r' --input="$tmp/band$i" 2>/dev/null | awk '/^totalTime:/ { print $2 }')
    for _ in $(seq "$rounds"); do cat "$tmp/band$i"; done > "$tmp/repeated"
    start=$(date +%s.%N)
    "$bin" grade "$tmp/repeated" > /dev/null || true
    end=$(date +%s.%N)
    python3 - "$name" "$n" "$rounds" "$total" "$(echo "$end - $start" | bc)" <<'EOF'
import re, sys
name, n, rounds, total, ours = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
h, m, s = (float(x or 0) for x in re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?", total).groups())
theirs = (h * 3600 + m * 60 + s) / n
ours /= n * rounds
print(f"{name:<8} {n:5d} {theirs * 1e3:10.2f}ms {ours * 1e3:10.3f}ms {theirs / ours:11.0f}x")
EOF
done < "$tmp/bands"
