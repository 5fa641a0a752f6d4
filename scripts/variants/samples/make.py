#!/usr/bin/env python3
"""Write the sample puzzles of scripts/variants/samples/: one file per rule kind, f-puzzles JSON.

Each puzzle is built from docs/fpuzzles.md alone: a solution grid is found for the switches (CP-SAT
with a random first row), the clues are read off that grid (cages of distinct digits, the sums of
little killer diagonals and sandwiches, increasing paths for thermometers, shafts summing to the
circle, the relation of each marked pair...), then givens are dug out of the full grid while the
puzzle stays unique. Each file has that UNIQUE puzzle, the same with one given fewer when that makes
it MULTIPLE, and the unique one with a wrong given added (another value in an empty cell), which is
UNSOLVABLE since the one grid of the clues has not that value there. They are
written once and committed; `compare.sh scripts/variants/samples` holds ISS and CP-SAT (and ours) to
each other on them.

    /path/to/ortools-venv/bin/python scripts/variants/samples/make.py [--seed N]
"""

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import cpsat  # noqa: E402
import fpz  # noqa: E402

R = random.Random(1)


def name(rc):
    return f"R{rc[0] + 1}C{rc[1] + 1}"


def count(puzzle):
    verdict, sol = cpsat.solve(json.dumps(puzzle), 1)
    return verdict, sol


def empty(n, regions=None):
    grid = [[{} for _ in range(n)] for _ in range(n)]
    if regions:
        for r in range(n):
            for c in range(n):
                grid[r][c]["region"] = regions[r][c]
    return {"size": n, "grid": grid}


def with_givens(puzzle, sol, cells):
    p = json.loads(json.dumps(puzzle))
    n = p["size"]
    for r, c in cells:
        p["grid"][r][c]["value"] = sol[r][c]
        p["grid"][r][c]["given"] = True
    return p


def find_solution(puzzle):
    """A solution grid of the switches, from a random first row."""
    n = puzzle["size"]
    for _ in range(200):
        row = list(range(1, n + 1))
        R.shuffle(row)
        p = json.loads(json.dumps(puzzle))
        for c in range(2):
            p["grid"][0][c]["value"] = row[c]
            p["grid"][0][c]["given"] = True
        verdict, sol = count(p)
        if verdict != "UNSOLVABLE":
            return [[int(sol[r * n + c], 17) for c in range(n)] for r in range(n)]
    raise SystemExit("no solution for the switches")


def dig(puzzle, sol):
    """The puzzle with givens dug from the full grid while it stays unique, and one given fewer."""
    n = puzzle["size"]
    cells = [(r, c) for r in range(n) for c in range(n)]
    R.shuffle(cells)
    keep = list(cells)
    for rc in cells:
        trial = [x for x in keep if x != rc]
        if count(with_givens(puzzle, sol, trial))[0] == "UNIQUE":
            keep = trial
    if len(keep) == len(cells):
        raise SystemExit("the clues do not hold on the grid: no given can go")
    unique = with_givens(puzzle, sol, keep)
    out = [unique]
    for rc in keep:
        fewer = with_givens(puzzle, sol, [x for x in keep if x != rc])
        if count(fewer)[0] == "MULTIPLE":
            out.append(fewer)
            break
    r, c = next(x for x in cells if x not in keep)
    wrong = with_givens(puzzle, sol, keep)
    wrong["grid"][r][c].update(value=sol[r][c] % n + 1, given=True)
    out.append(wrong)
    return out


def neighbours(n, rc, diagonal=False):
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for dr, dc in steps:
        r, c = rc[0] + dr, rc[1] + dc
        if 0 <= r < n and 0 <= c < n:
            yield (r, c)


def cages(sol, k, sizes=(2, 3, 4)):
    n, used, out = len(sol), set(), []
    while len(out) < k:
        start = (R.randrange(n), R.randrange(n))
        if start in used:
            continue
        cells, size = [start], R.choice(sizes)
        while len(cells) < size:
            options = [x for c in cells for x in neighbours(n, c) if x not in used and x not in cells
                       and sol[x[0]][x[1]] not in [sol[a][b] for a, b in cells]]
            if not options:
                break
            cells.append(R.choice(options))
        used.update(cells)
        out.append(cells)
    return out


def thermos(sol, k):
    n, out = len(sol), []
    while len(out) < k:
        line = [(R.randrange(n), R.randrange(n))]
        while len(line) < 5:
            options = [x for x in neighbours(n, line[-1], True)
                       if x not in line and sol[x[0]][x[1]] > sol[line[-1][0]][line[-1][1]]]
            if not options:
                break
            line.append(R.choice(options))
        if len(line) >= 3:
            out.append(line)
    return out


def shaft(sol, circle, target, avoid):
    """A path from the circle's last cell whose values sum to target (depth-first, random order)."""
    n = len(sol)

    def walk(path, left):
        if left == 0:
            return path
        options = [x for x in neighbours(n, path[-1] if path else circle[-1], True)
                   if x not in path and x not in circle and x not in avoid and sol[x[0]][x[1]] <= left]
        R.shuffle(options)
        for x in options:
            got = walk(path + [x], left - sol[x[0]][x[1]])
            if got:
                return got
        return None

    return walk([], target)


def arrows(sol, k, pill=False):
    n, out, used = len(sol), [], set()
    tries = 0
    while len(out) < k and tries < 2000:
        tries += 1
        r, c = R.randrange(n), R.randrange(n - 1)
        circle = [(r, c), (r, c + 1)] if pill else [(r, c)]
        value = 0
        for a, b in circle:
            value = value * 10 + sol[a][b]
        if value < 3 or value > 25 or any(x in used for x in circle):
            continue
        s = shaft(sol, circle, value, used)
        if s:
            used.update(circle + s)
            out.append({"cells": [name(x) for x in circle], "lines": [[name(x) for x in circle[-1:] + s]]})
    return out


def arrows_extra(sol):
    """A pill listed right to left (the number it spells is read in that order), an arrow with two
    lines, and one-cell killer cages (one with a sum, one without)."""
    n, out, used = len(sol), [], set()
    while len(out) < 2:
        r, c = R.randrange(n), R.randrange(n - 1)
        circle = [(r, c + 1), (r, c)]
        value = sol[r][c + 1] * 10 + sol[r][c]
        if value > 25 or any(x in used for x in circle):
            continue
        s = shaft(sol, circle, value, used)
        if s:
            used.update(circle + s)
            out.append({"cells": [name(x) for x in circle], "lines": [[name(x) for x in circle[-1:] + s]]})
    while len(out) < 4:
        rc = (R.randrange(n), R.randrange(n))
        if rc in used or sol[rc[0]][rc[1]] < 4:
            continue
        first = shaft(sol, [rc], sol[rc[0]][rc[1]], used)
        second = first and shaft(sol, [rc], sol[rc[0]][rc[1]], used | set(first))
        if first and second:
            used.update([rc] + first + second)
            out.append({"cells": [name(rc)], "lines": [[name(x) for x in [rc] + first],
                                                        [name(x) for x in [rc] + second]]})
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in used]
    a, b = R.sample(free, 2)
    return {"arrow": out, "killercage": [{"cells": [name(a)], "value": str(sol[a[0]][a[1]])},
                                         {"cells": [name(b)]}]}


def pairs(sol):
    n = len(sol)
    for r in range(n):
        for c in range(n):
            for rc in ((r, c + 1), (r + 1, c)):
                if rc[0] < n and rc[1] < n:
                    yield (r, c), rc, sol[r][c], sol[rc[0]][rc[1]]


def little_killers(sol, k):
    n, out = len(sol), []
    clues = []
    for i in range(n + 2):
        for j in range(n + 2):
            if 0 < i < n + 1 and 0 < j < n + 1:
                continue
            for d, (dr, dc) in fpz.DIRECTIONS.items():
                cells, r, c = [], i - 1 + dr, j - 1 + dc
                while 0 <= r < n and 0 <= c < n:
                    cells.append((r, c))
                    r, c = r + dr, c + dc
                if cells:
                    clues.append((f"R{i}C{j}", d, cells))
    R.shuffle(clues)
    short = [x for x in clues if len(x[2]) == 1][:1]
    for cell, d, cells in short + clues[:k]:
        out.append({"cell": cell, "direction": d, "value": str(sum(sol[a][b] for a, b in cells))})
    return out


def sandwich(sol, line):
    vals = list(line)
    n = len(sol)
    i, j = sorted((vals.index(1), vals.index(n)))
    return sum(vals[i + 1:j])


def sandwiches(sol, k):
    n, out = len(sol), []
    for idx in R.sample(range(n), k):
        row = sol[idx]
        col = [sol[r][idx] for r in range(n)]
        out.append({"cell": f"R{idx + 1}C{R.choice([0, n + 1])}", "value": str(sandwich(sol, row))})
        out.append({"cell": f"R{R.choice([0, n + 1])}C{idx + 1}", "value": str(sandwich(sol, col))})
    # a second clue on the same line, from the other side
    out.append({"cell": f"R{n + 1}C{idx + 1}" if out[-1]["cell"].startswith("R0") else f"R0C{idx + 1}",
                "value": out[-1]["value"]})
    return out


SWAPS = [((2, 2), (3, 3)), ((2, 5), (2, 6)), ((5, 2), (6, 2)), ((5, 5), (6, 6)),
         ((0, 2), (0, 3)), ((8, 5), (8, 6)), ((4, 2), (4, 3)), ((3, 8), (2, 8))]


def jigsaw9(swaps=SWAPS):
    regions = fpz.default_regions(9)
    # move cells between neighbouring boxes, keeping nine cells a region
    for a, b in swaps:
        regions[a[0]][a[1]], regions[b[0]][b[1]] = regions[b[0]][b[1]], regions[a[0]][a[1]]
    return regions


def write(kind, puzzles):
    path = os.path.join(HERE, f"{kind}.fpuzzles.txt")
    lines = [json.dumps(p, separators=(",", ":")) for p in puzzles]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(kind, [count(p)[0] for p in puzzles], file=sys.stderr)


def build(kind, base, rules):
    """Find a grid for the switches of base, add the clues rules(sol) reads off it, dig givens."""
    sol = find_solution(base)
    p = json.loads(json.dumps(base))
    p.update(rules(sol))
    write(kind, dig(p, sol))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    n9 = empty(9)
    kinds = {
        "diagonals": (dict(n9, **{"diagonal+": True, "diagonal-": True}), lambda s: {}),
        "antiknight": (dict(n9, antiknight=True), lambda s: {}),
        "antiking": (dict(n9, antiking=True), lambda s: {}),
        "disjointgroups": (dict(n9, disjointgroups=True), lambda s: {}),
        "nonconsecutive": (dict(n9, nonconsecutive=True), lambda s: {}),
        "extraregion": (dict(n9, extraregion=[
            {"cells": [name((r0 + a, c0 + b)) for a in range(3) for b in range(3)]}
            for r0 in (1, 5) for c0 in (1, 5)]), lambda s: {}),
        "killercage": (n9, lambda s: {"killercage": [
            {"cells": [name(x) for x in cells], "value": str(sum(s[a][b] for a, b in cells))}
            for cells in cages(s, 14)] + [
            {"cells": [name(x) for x in cells]} for cells in cages(s, 2, (3,))]}),
        "littlekillersum": (n9, lambda s: {"littlekillersum": little_killers(s, 10)}),
        "sandwichsum": (n9, lambda s: {"sandwichsum": sandwiches(s, 5)}),
        "thermometer": (n9, lambda s: {"thermometer": [
            {"lines": [[name(x) for x in t] for t in thermos(s, 2)]} for _ in range(4)]}),
        "arrow": (n9, lambda s: {"arrow": arrows(s, 6) + arrows(s, 2, pill=True)}),
        "arrow-extra": (n9, arrows_extra),
        "kropki": (n9, lambda s: {
            "difference": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if abs(x - y) == 1][::3]
            + [{"cells": [name(a), name(b)], "value": "2"} for a, b, x, y in pairs(s) if abs(x - y) == 2][::4],
            "ratio": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if x == 2 * y or y == 2 * x][::2]
            + [{"cells": [name(a), name(b)], "value": "3"} for a, b, x, y in pairs(s) if x == 3 * y or y == 3 * x][::2]}),
        "xv": (n9, lambda s: {"xv": [{"cells": [name(a), name(b)], "value": "X" if x + y == 10 else "V"}
                                     for a, b, x, y in pairs(s) if x + y in (5, 10)][::2]}),
        "evenodd": (n9, lambda s: {
            "even": [{"cell": name((r, c))} for r in range(9) for c in range(9) if s[r][c] % 2 == 0][::2],
            "odd": [{"cell": name((r, c))} for r in range(9) for c in range(9) if s[r][c] % 2 == 1][::2]}),
        # every marker given: the negative constraints then hold on the solution grid
        "negative-ratio": (n9, lambda s: {
            "negative": ["ratio"],
            "ratio": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if x == 2 * y or y == 2 * x]
            + [{"cells": [name(a), name(b)], "value": "3"} for a, b, x, y in pairs(s) if x == 3 * y or y == 3 * x]}),
        "strict-kropki": (n9, lambda s: {
            "nonconsecutive": True, "negative": ["ratio"],
            "difference": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if abs(x - y) == 1],
            "ratio": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if x == 2 * y or y == 2 * x]}),
        "nonconsecutive-dots": (n9, lambda s: {
            "nonconsecutive": True,
            "difference": [{"cells": [name(a), name(b)]} for a, b, x, y in pairs(s) if abs(x - y) == 1]}),
        "negative-xv": (n9, lambda s: {
            "negative": ["xv"],
            "xv": [{"cells": [name(a), name(b)], "value": "X" if x + y == 10 else "V"}
                   for a, b, x, y in pairs(s) if x + y in (5, 10)]}),
        "diagonal-plus": (dict(n9, **{"diagonal+": True}), lambda s: {}),
        "jigsaw": (dict(empty(9, jigsaw9())), lambda s: {}),
        # the boxes moved one row down and one column right, wrapping round (a swap or two of cells
        # between boxes, as in "jigsaw", leaves no grid with disjoint groups)
        "jigsaw-disjoint": (dict(empty(9, [[((r + 1) % 9 // 3) * 3 + (c + 1) % 9 // 3 for c in range(9)]
                                           for r in range(9)]),
                                 disjointgroups=True), lambda s: {}),
        "6x6-mixed": (dict(empty(6), **{"diagonal-": True}), lambda s: {
            "killercage": [{"cells": [name(x) for x in c], "value": str(sum(s[a][b] for a, b in c))}
                           for c in cages(s, 3)],
            "thermometer": [{"lines": [[name(x) for x in t] for t in thermos(s, 1)]}],
            "littlekillersum": little_killers(s, 2),
            "sandwichsum": sandwiches(s, 1)}),
        "6x6-disjoint": (dict(empty(6), disjointgroups=True), lambda s: {}),
        "6x6-jigsaw": (empty(6, [[int(ch) for ch in "000111002211022331422335443355444555"[r * 6:r * 6 + 6]]
                                 for r in range(6)]), lambda s: {
            "xv": [{"cells": [name(a), name(b)], "value": "X" if x + y == 10 else "V"}
                   for a, b, x, y in pairs(s) if x + y in (5, 10)][::2],
            "even": [{"cell": name((0, c))} for c in range(6) if s[0][c] % 2 == 0]}),
    }
    for kind, (base, rules) in kinds.items():
        if args.only and kind not in args.only:
            continue
        R.seed(f"{args.seed}-{kind}")  # each file the same whether made alone or with the others
        build(kind, base, rules)


if __name__ == "__main__":
    main()
