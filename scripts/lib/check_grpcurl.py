"""Checks grpcurl's JSON output for scripts/e2e-grpcurl.sh (standard library only).

    python3 check_grpcurl.py solve PUZZLE < grpcurl-output.json
    python3 check_grpcurl.py batch REQUESTS.jsonl < grpcurl-output.json
    python3 check_grpcurl.py grade PUZZLE < grpcurl-output.json   # a graded path replays to a solution
    python3 check_grpcurl.py sized REQUEST.json < grpcurl-output.json  # any size, alphabet, notation
    python3 check_grpcurl.py metrics URL     # after the calls above: their counts on /metrics

grpcurl prints each message as pretty JSON, one after another, omitting fields at their default value
(index 0, an empty error) and writing 64-bit integers as strings.
"""

import json
import re
import sys
import urllib.request


def messages(text):
    decoder, pos, out = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return out
        obj, pos = decoder.raw_decode(text, pos)
        out.append(obj)


def cells(puzzle):
    keep = [ch for ch in puzzle if ch not in " \t\r\n|-+,\"[]"]
    return [0 if ch in ".0" else int(ch) for ch in keep]


def check_solution(puzzle, solution):
    """A solution is 81 digits, every row, column and box a permutation of 1-9, givens kept."""
    assert len(solution) == 81 and solution.isdigit(), f"not 81 digits: {solution!r}"
    grid = [int(ch) for ch in solution]
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)] for br in range(3) for bc in range(3)]
    for unit in units:
        assert sorted(grid[i] for i in unit) == list(range(1, 10)), f"unit {unit} broken in {solution}"
    for i, given in enumerate(cells(puzzle)):
        assert given in (0, grid[i]), f"given {given} at cell {i} changed in {solution}"


STANDARD = "123456789ABCDEFGHIJKLMNOP"


def read_any(request):
    """The cells (0 for blank), box rows and columns of a request's puzzle, read as the issue says."""
    text = request["puzzle"]
    tokens = [t for t in re.split(r"[\s|+,\"\[\]-]+", text) if t]
    numbers = all(t == "." or (t.isdigit() and len(t) <= 2) for t in tokens) and any(
        t.isdigit() and len(t) == 2 for t in tokens
    )
    rows, cols = request.get("box_rows", 0), request.get("box_cols", 0)
    count = len(tokens) if numbers else sum(len(t) for t in tokens)
    side = int(round(count ** 0.5))
    assert side * side == count, f"{count} cells"
    if not rows:
        rows = max(r for r in range(2, side + 1) if r * r <= side and side % r == 0)
        cols = side // rows
    symbols = (request.get("symbols") or STANDARD[:side]).upper()
    if numbers:
        grid = [0 if t == "." else int(t) for t in tokens]
    else:
        chars = "".join(tokens).upper()
        grid = [0 if ch == "." or (ch == "0" and "0" not in symbols) else symbols.index(ch) + 1 for ch in chars]
    return grid, rows, cols, symbols


def check_sized(request, resp):
    """Unique, the shape as read, and a solution in the request's alphabet that keeps every given."""
    grid, rows, cols, symbols = read_any(request)
    side = rows * cols
    assert resp.get("verdict") == "VERDICT_UNIQUE", resp
    assert (resp.get("boxRows"), resp.get("boxCols")) == (rows, cols), f"shape {resp} != {rows}x{cols}"
    solution = resp["solution"]
    assert len(solution) == side * side, f"{len(solution)} symbols for a {side}x{side}"
    values = [symbols.index(ch.upper()) + 1 for ch in solution]
    units = [[r * side + c for c in range(side)] for r in range(side)]
    units += [[r * side + c for r in range(side)] for c in range(side)]
    units += [
        [(br * rows + r) * side + bc * cols + c for r in range(rows) for c in range(cols)]
        for br in range(side // rows)
        for bc in range(side // cols)
    ]
    for unit in units:
        assert sorted(values[i] for i in unit) == list(range(1, side + 1)), f"unit {unit} broken"
    for i, given in enumerate(grid):
        assert given in (0, values[i]), f"given {given} at cell {i} changed"
    return f"{side}x{side} ({rows}x{cols} boxes)"


def main():
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == "metrics":
        check_metrics(arg)
        return
    out = messages(sys.stdin.read())
    if mode == "sized":
        (resp,) = out
        shape = check_sized(json.load(open(arg)), resp)
        print(f"Solve {shape}: VERDICT_UNIQUE, shape echoed, valid solution {resp['solution']}")
    elif mode == "solve":
        (resp,) = out
        assert resp.get("verdict") == "VERDICT_UNIQUE", resp
        check_solution(arg, resp["solution"])
        print(f"Solve: VERDICT_UNIQUE, valid solution {resp['solution']}")
    elif mode == "batch":
        requests = [json.loads(line) for line in open(arg) if line.strip()]
        assert len(out) == len(requests), f"{len(requests)} requests but {len(out)} responses"
        verdicts = {}
        for i, (req, resp) in enumerate(zip(requests, out)):
            assert int(resp.get("index", "0")) == i, f"response {i} has index {resp.get('index')}"
            assert resp.get("id", "") == req.get("id", ""), f"response {i}: id {resp.get('id')!r} != {req.get('id')!r}"
            verdict = resp.get("verdict")
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            if req.get("id", "").startswith("bad-"):  # the script marks the items it broke on purpose
                assert verdict == "VERDICT_INVALID" and resp.get("error"), f"response {i}: {resp}"
            else:
                assert verdict == "VERDICT_UNIQUE", f"response {i}: {resp}"
                check_solution(req["puzzle"], resp["solution"])
        summary = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        print(f"SolveBatch: {len(out)} responses in order, ids echoed, solutions valid ({summary})")
    elif mode == "grade":
        (resp,) = out
        assert resp.get("verdict") == "VERDICT_UNIQUE", resp
        assert resp.get("difficulty") == "DIFFICULTY_BEGINNER", resp.get("difficulty")
        assert resp.get("clues") == 30, resp.get("clues")
        board = list(arg)
        for step in resp["steps"]:
            assert step.get("explanation"), step
            for p in step.get("placements", []):
                board[p.get("row", 0) * 9 + p.get("col", 0)] = p["symbol"]
        check_solution(arg, "".join(board))
        print(f"Grade: {resp['difficulty']} {resp['rating']}, {len(resp['steps'])} explained steps replay to the solution")
    else:
        raise SystemExit(f"unknown mode {mode}")


def check_metrics(url):
    """The Prometheus text counts what this script did: Solves that were OK and InvalidArgument,
    SolveBatch calls, and puzzles by verdict."""
    with urllib.request.urlopen(url, timeout=10) as resp:
        assert resp.status == 200, resp.status
        text = resp.read().decode()
    samples = {}
    for line in text.splitlines():
        m = re.fullmatch(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?", line)
        if m and not line.startswith("#"):
            labels = frozenset(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
            samples[(m.group(1), labels)] = float(m.group(3))

    def total(name, **want):
        return sum(v for (n, labels), v in samples.items() if n == name and set(want.items()) <= labels)

    assert total("sudoku_rpc_requests_total", method="Solve", code="Ok") >= 1, "no OK Solve counted"
    assert total("sudoku_rpc_requests_total", method="Solve", code="InvalidArgument") >= 2, "no invalid Solve counted"
    assert total("sudoku_rpc_requests_total", method="SolveBatch", code="Ok") >= 2, "no SolveBatch counted"
    assert total("sudoku_puzzles_total") >= 1000, "the batch's puzzles were not counted by verdict"
    print(f"/metrics: {len(samples)} samples; requests by method and code counted")


if __name__ == "__main__":
    main()
