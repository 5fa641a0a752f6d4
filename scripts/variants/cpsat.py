#!/usr/bin/env python3
"""A CP-SAT model of the variant rules, read from f-puzzles, as an outside reference and a speed anchor.

Reads a file of f-puzzles puzzles (one JSON, LZ-String base64 or link per line), models each with
OR-Tools' CP-SAT as docs/fpuzzles.md defines the keys, counts its solutions up to two, and prints one
line per puzzle: the verdict (UNIQUE, MULTIPLE, UNSOLVABLE) and the first solution found, then the
time per puzzle on stderr. Written apart from the Rust reader and solver, so that the two can be held
to each other (scripts/variants/compare.sh) and timed side by side.

    python3 scripts/variants/cpsat.py FILE [--workers N] [--each]

Needs `ortools` and `lzstring` (pip), and fpz.py beside it (the shared f-puzzles reading). A puzzle it
cannot read prints `ERROR` (the reason on stderr) so that the lines stay aligned, and the exit code is
1. The time per puzzle covers building the model and solving it, not Python's start-up nor a first
untimed solve of the first puzzle.
"""

import argparse
import sys
import time

from ortools.sat.python import cp_model

import fpz


class Model:
    def __init__(self, puzzle):
        self.p = puzzle
        self.n = n = puzzle.n
        self.m = cp_model.CpModel()
        self.x = [[self.m.NewIntVar(1, n, f"r{r}c{c}") for c in range(n)] for r in range(n)]
        self.build()

    def v(self, rc):
        return self.x[rc[0]][rc[1]]

    def distinct(self, cells):
        self.m.AddAllDifferent([self.v(c) for c in cells])

    def relation(self, a, b, kind, value):
        """A literal true exactly when cells a and b are in the relation."""
        lit = self.m.NewBoolVar("")
        pairs = [(i, j) for i in range(1, self.n + 1) for j in range(1, self.n + 1)
                 if fpz.holds(kind, value, i, j)]
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
        for (r, c), value in p.givens.items():
            m.Add(self.x[r][c] == value)
        for i in range(n):
            self.distinct([(i, c) for c in range(n)])
            self.distinct([(r, i) for r in range(n)])
        for g in p.region_groups():
            self.distinct(g)
        if p.p.get("diagonal+"):
            self.distinct([(r, n - 1 - r) for r in range(n)])
        if p.p.get("diagonal-"):
            self.distinct([(r, r) for r in range(n)])
        if p.p.get("disjointgroups"):
            for g in p.disjoint_groups():
                self.distinct(g)
        steps = []
        if p.p.get("antiknight"):
            steps += [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
        if p.p.get("antiking"):
            steps += [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
        for r in range(n):
            for c in range(n):
                for dr, dc in steps:
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        m.Add(self.x[r][c] != self.x[r + dr][c + dc])
        for i, e in enumerate(p.get("extraregion"), 1):
            self.distinct(p.cells(e["cells"], "extraregion", i))
        for i, e in enumerate(p.get("killercage"), 1):
            cells = p.cells(e["cells"], "killercage", i)
            self.distinct(cells)
            if not fpz.blank(e.get("value")):
                m.Add(sum(self.v(c) for c in cells) == fpz.number(e["value"], f"killercage {i}"))
        for cells, total in p.little_killers():
            m.Add(sum(self.v(x) for x in cells) == total)
        for line, total in p.sandwiches():
            self.sandwich(p.line_cells(line), total)
        for i, e in enumerate(p.get("thermometer"), 1):
            for line in e["lines"]:
                cells = p.cells(line, "thermometer", i)
                for a, b in zip(cells, cells[1:]):
                    m.Add(self.v(a) < self.v(b))
        for circle, shaft in p.arrows():
            number = 0
            for c in circle:
                number = number * 10 + self.v(c)
            m.Add(sum(self.v(c) for c in shaft) == number)
        for kind, a, b, value in p.dots():
            m.Add(self.relation(a, b, kind, value) == 1)
        for i, e in enumerate(p.get("even"), 1):
            m.AddModuloEquality(0, self.v(p.cell(e["cell"], "even", i)), 2)
        for i, e in enumerate(p.get("odd"), 1):
            m.AddModuloEquality(1, self.v(p.cell(e["cell"], "odd", i)), 2)
        marked = {"kropki": p.marked("kropki"), "xv": p.marked("xv")}
        for family, kind, value in p.negatives():
            for a, b in p.adjacent_pairs():
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
    model = Model(fpz.Puzzle(fpz.decode(text)))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = workers
    counter = Counter(model.x)
    status = solver.Solve(model.m, counter)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise RuntimeError(f"CP-SAT status {solver.StatusName(status)}")
    verdict = {0: "UNSOLVABLE", 1: "UNIQUE"}.get(counter.count, "MULTIPLE")
    return verdict, counter.first or ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--each", action="store_true", help="each puzzle's time on stderr too")
    args = parser.parse_args()
    lines = fpz.read_lines(args.file)
    times, failed = [], 0
    try:  # one untimed solve first, as iss_bench.mjs does for its JIT
        solve(lines[0], args.workers) if lines else None
    except Exception:  # reported below
        pass
    for k, line in enumerate(lines, 1):
        start = time.perf_counter()
        try:
            verdict, solution = solve(line, args.workers)
        except (fpz.PuzzleError, ValueError, KeyError, TypeError, RuntimeError) as e:
            print(f"{args.file}: puzzle {k}: {e}", file=sys.stderr)
            print("ERROR")
            failed += 1
            continue
        times.append(time.perf_counter() - start)
        print(verdict, solution)
        if args.each:
            print(f"puzzle {k}: {times[-1] * 1e3:.3f} ms {verdict}", file=sys.stderr)
    times.sort()
    mean = sum(times) / max(len(times), 1)
    p50 = times[len(times) // 2] if times else 0.0
    print(f"cp-sat: {len(times)} puzzles, {mean * 1e3:.3f} ms each (mean), p50 {p50 * 1e3:.3f} ms",
          file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
