#!/usr/bin/env python3
"""A CP-SAT model of the variant rules, read from f-puzzles, as an outside reference and a speed anchor.

Reads a file of f-puzzles puzzles (one JSON, LZ-String base64 or link per line), models each with
OR-Tools' CP-SAT as docs/fpuzzles.md defines the keys, counts its solutions up to two, and prints one
line per puzzle: the verdict (UNIQUE, MULTIPLE, UNSOLVABLE) and the first solution found, then the
time per puzzle on stderr. Written apart from the Rust reader and solver, so that the two can be held
to each other (scripts/variants/compare.sh) and timed side by side.

    python3 scripts/variants/cpsat.py FILE [--workers N]

Needs `ortools` and `lzstring` (pip).
"""

import argparse
import json
import re
import sys
import time
import urllib.parse

import lzstring
from ortools.sat.python import cp_model

CELL = re.compile(r"^[Rr](\d+)[Cc](\d+)$")


def decode(text):
    """The puzzle's JSON object from any of the three forms."""
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)
    if "load=" in text:
        text = re.split(r"[&#]", text.split("load=", 1)[1])[0]
        text = urllib.parse.unquote(text)
    return json.loads(lzstring.LZString().decompressFromBase64(text))


def cell(name):
    """(row, col) from 0, of an `RnCn` name (possibly just outside the grid)."""
    m = CELL.match(name)
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def default_regions(n):
    rows = max(r for r in range(1, n + 1) if n % r == 0 and r * r <= n)
    cols = n // rows
    return [[(r // rows) * (n // cols) + c // cols for c in range(n)] for r in range(n)]


class Model:
    def __init__(self, puzzle):
        self.p = puzzle
        self.n = n = int(puzzle["size"])
        self.m = cp_model.CpModel()
        self.x = [[self.m.NewIntVar(1, n, f"r{r}c{c}") for c in range(n)] for r in range(n)]
        self.build()

    def v(self, rc):
        return self.x[rc[0]][rc[1]]

    def distinct(self, cells):
        self.m.AddAllDifferent([self.v(c) for c in cells])

    def adjacent_pairs(self):
        n = self.n
        for r in range(n):
            for c in range(n):
                if c + 1 < n:
                    yield (r, c), (r, c + 1)
                if r + 1 < n:
                    yield (r, c), (r + 1, c)

    def relation(self, a, b, kind, value):
        """A literal true exactly when cells a and b are in the relation."""
        lit = self.m.NewBoolVar("")
        pairs = []
        for i in range(1, self.n + 1):
            for j in range(1, self.n + 1):
                holds = {
                    "difference": abs(i - j) == value,
                    "ratio": i * value == j or j * value == i,
                    "sum": i + j == value,
                }[kind]
                if holds:
                    pairs.append((i, j))
        if not pairs:
            self.m.Add(lit == 0)
            return lit
        self.m.AddAllowedAssignments([self.v(a), self.v(b)], pairs).OnlyEnforceIf(lit)
        allowed = set(pairs)
        others = [(i, j) for i in range(1, self.n + 1) for j in range(1, self.n + 1) if (i, j) not in allowed]
        self.m.AddAllowedAssignments([self.v(a), self.v(b)], others).OnlyEnforceIf(lit.Not())
        return lit

    def build(self):
        p, n, m = self.p, self.n, self.m
        grid = p["grid"]
        regions = default_regions(n)
        for r in range(n):
            for c in range(n):
                g = grid[r][c]
                if g.get("given") and g.get("value"):
                    m.Add(self.x[r][c] == int(g["value"]))
                if g.get("region") is not None:
                    regions[r][c] = int(g["region"])
        for i in range(n):
            self.distinct([(i, c) for c in range(n)])
            self.distinct([(r, i) for r in range(n)])
            self.distinct([(r, c) for r in range(n) for c in range(n) if regions[r][c] == i])
        if p.get("diagonal+"):
            self.distinct([(r, n - 1 - r) for r in range(n)])
        if p.get("diagonal-"):
            self.distinct([(r, r) for r in range(n)])
        if p.get("disjointgroups"):
            seen = {}
            groups = [[] for _ in range(n)]
            for r in range(n):
                for c in range(n):
                    k = seen.get(regions[r][c], 0)
                    groups[k].append((r, c))
                    seen[regions[r][c]] = k + 1
            for g in groups:
                self.distinct(g)
        steps = []
        if p.get("antiknight"):
            steps += [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
        if p.get("antiking"):
            steps += [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
        for r in range(n):
            for c in range(n):
                for dr, dc in steps:
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        m.Add(self.x[r][c] != self.x[r + dr][c + dc])
        for e in p.get("extraregion") or []:
            self.distinct([cell(c) for c in e["cells"]])
        for e in p.get("killercage") or []:
            cells = [cell(c) for c in e["cells"]]
            self.distinct(cells)
            if str(e.get("value", "")).strip():
                m.Add(sum(self.v(c) for c in cells) == int(e["value"]))
        for e in p.get("littlekillersum") or []:
            if not str(e.get("value", "")).strip():
                continue
            r, c = cell(e["cell"])
            dr = 1 if "D" in e["direction"] else -1
            dc = 1 if "R" in e["direction"] else -1
            cells = []
            r, c = r + dr, c + dc
            while 0 <= r < n and 0 <= c < n:
                cells.append((r, c))
                r, c = r + dr, c + dc
            m.Add(sum(self.v(x) for x in cells) == int(e["value"]))
        for e in p.get("sandwichsum") or []:
            if not str(e.get("value", "")).strip():
                continue
            r, c = cell(e["cell"])
            line = [(r, k) for k in range(n)] if 0 <= r < n else [(k, c) for k in range(n)]
            self.sandwich(line, int(e["value"]))
        for e in p.get("thermometer") or []:
            for line in e["lines"]:
                cells = [cell(c) for c in line]
                for a, b in zip(cells, cells[1:]):
                    m.Add(self.v(a) < self.v(b))
        for e in p.get("arrow") or []:
            circle = [cell(c) for c in e["cells"]]
            number = 0
            for c in circle:
                number = number * 10 + self.v(c)
            for line in e["lines"]:
                shaft = [cell(c) for c in line if cell(c) not in circle]
                m.Add(sum(self.v(c) for c in shaft) == number)
        marked = {"kropki": set(), "xv": set()}
        for kind, default in (("difference", 1), ("ratio", 2)):
            for e in p.get(kind) or []:
                a, b = (cell(c) for c in e["cells"])
                value = int(e["value"]) if str(e.get("value", "")).strip() else default
                m.Add(self.relation(a, b, kind, value) == 1)
                marked["kropki"].add(frozenset((a, b)))
        for e in p.get("xv") or []:
            a, b = (cell(c) for c in e["cells"])
            m.Add(self.relation(a, b, "sum", 10 if e["value"].upper() == "X" else 5) == 1)
            marked["xv"].add(frozenset((a, b)))
        for e in p.get("even") or []:
            m.AddModuloEquality(0, self.v(cell(e["cell"])), 2)
        for e in p.get("odd") or []:
            m.AddModuloEquality(1, self.v(cell(e["cell"])), 2)
        negatives = []
        if p.get("nonconsecutive"):
            negatives.append(("kropki", "difference", 1))
        negative = p.get("negative") or []
        if "ratio" in negative:
            ratios = {int(e["value"]) if str(e.get("value", "")).strip() else 2 for e in p.get("ratio") or []}
            negatives += [("kropki", "ratio", r) for r in (ratios or {2})]
        if "xv" in negative:
            negatives += [("xv", "sum", 5), ("xv", "sum", 10)]
        for family, kind, value in negatives:
            for a, b in self.adjacent_pairs():
                if frozenset((a, b)) not in marked[family]:
                    m.Add(self.relation(a, b, kind, value) == 0)

    def sandwich(self, line, total):
        """The digits strictly between the 1 and the largest digit of `line` sum to `total`."""
        n, m = self.n, self.m
        ends = []
        for i in range(n):
            for j in range(i + 1, n):
                lit = m.NewBoolVar("")
                one_big = m.NewBoolVar("")
                big_one = m.NewBoolVar("")
                m.Add(self.v(line[i]) == 1).OnlyEnforceIf(one_big)
                m.Add(self.v(line[j]) == n).OnlyEnforceIf(one_big)
                m.Add(self.v(line[i]) == n).OnlyEnforceIf(big_one)
                m.Add(self.v(line[j]) == 1).OnlyEnforceIf(big_one)
                m.AddBoolOr([one_big, big_one]).OnlyEnforceIf(lit)
                m.AddBoolAnd([one_big.Not(), big_one.Not()]).OnlyEnforceIf(lit.Not())
                m.Add(sum(self.v(line[k]) for k in range(i + 1, j)) == total).OnlyEnforceIf(lit)
                ends.append(lit)
        m.AddExactlyOne(ends)


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, x):
        super().__init__()
        self.x, self.count, self.first = x, 0, None

    def on_solution_callback(self):
        self.count += 1
        if self.first is None:
            self.first = "".join(
                "123456789ABCDEFG"[self.Value(v) - 1] for row in self.x for v in row)
        if self.count >= 2:
            self.StopSearch()


def solve(text, workers):
    model = Model(decode(text))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = workers
    counter = Counter(model.x)
    solver.Solve(model.m, counter)
    verdict = {0: "UNSOLVABLE", 1: "UNIQUE"}.get(counter.count, "MULTIPLE")
    return verdict, counter.first or ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    lines = [l for l in open(args.file, encoding="utf-8") if l.strip() and not l.startswith("#")]
    start = time.perf_counter()
    for line in lines:
        verdict, solution = solve(line, args.workers)
        print(verdict, solution)
    elapsed = time.perf_counter() - start
    print(f"cp-sat: {len(lines)} puzzles, {elapsed / max(len(lines), 1) * 1e3:.2f} ms each", file=sys.stderr)


if __name__ == "__main__":
    main()
