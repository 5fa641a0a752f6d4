#!/usr/bin/env bash
# Where a SolveBatch puzzle's cycles go in the server: starts `sudoku-grpc serve` on loopback,
# samples it with `perf record` while `sudoku-grpc load batch` streams FILE through it, and prints
# the server's samples grouped by what they do (the solver, reading and writing puzzles, prost,
# HTTP/2, the service's own code, tokio, the allocator, clock reads, the kernel).
#
#   bash scripts/profile-server.sh FILE [ROUNDS]
#
# Needs `perf` and a release build (`cargo build --release`; symbols are enough, no debug info).
set -euo pipefail
file=$1
rounds=${2:-40}
bin=${OURS:-target/release/sudoku-grpc}
addr=127.0.0.1:${PORT:-50977}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" serve --addr "$addr" --metrics-addr off > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    "$bin" health --addr "$addr" --timeout 1s > /dev/null 2>&1 && break
    sleep 0.1
done

perf record -q -F 4999 -p "$server" -o "$work/perf.data" > /dev/null 2>&1 &
recorder=$!
sleep 0.5
"$bin" load --server "http://$addr" batch --rounds "$rounds" "$file" | grep -E '^\|'
kill -INT "$recorder"
wait "$recorder" || true

perf report -i "$work/perf.data" --stdio --no-children --sort dso,sym 2> /dev/null |
    grep -v '^#' | grep '%' | python3 -c '
import re, sys
groups = [
    ("the solver", r"sudoku_core::solver"),
    ("reading and checking the puzzle", r"sudoku_core::(text::.*read|grid::Grid::check_givens|text::Format)|from_utf8"),
    ("writing the solution", r"write_into"),
    ("prost: decoding and encoding", r"prost"),
    ("HTTP/2 (h2, hyper) and tonic framing", r"\bh2::|hyper::|tonic::|http_body|bytes::"),
    ("the service: pool, batch order, layer, metrics", r"sudoku_grpc::|prometheus|__rust_begin_short_backtrace|std::sync"),
    ("tokio and async plumbing", r"tokio|async_stream|futures|mio::"),
    ("the allocator and copies", r"malloc|free|calloc|realloc|unlink_chunk|_int_|RawVec|memmove|memcpy|memset|memcmp"),
    ("clock reads", r"clock_gettime|Timespec|vdso"),
    ("the kernel: scheduling, syscalls, TCP", r"\[k\]"),
]
share = {name: 0.0 for name, _ in groups}
share["other"] = 0.0
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+)%\s+(.*)", line)
    if not m:
        continue
    name = next((n for n, rx in groups if re.search(rx, m.group(2))), "other")
    share[name] += float(m.group(1))
print()
print("| where the server spends its cycles | share |")
print("|---|---:|")
for name, value in share.items():
    print(f"| {name} | {value:.1f}% |")
'
