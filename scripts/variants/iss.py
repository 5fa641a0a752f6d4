#!/usr/bin/env python3
"""Convert f-puzzles puzzles into constraint strings of sigh's Interactive Sudoku Solver (ISS).

Reads a file of f-puzzles puzzles (one JSON, LZ-String base64 or link per line, as cpsat.py does),
and prints one ISS constraint string per puzzle, with the rules docs/fpuzzles.md gives each key. A
rule ISS cannot express exactly is an error naming it (the line printed is then `ERROR`, the reason
goes to stderr and the exit code is 1); no rule is dropped in silence.

    python3 scripts/variants/iss.py FILE > FILE.iss

Needs only the Python standard library (and `lzstring` for base64 or link lines). The strings use
ISS's own constraint syntax; nothing of ISS is needed to make them. Where ISS has a dedicated
constraint of exactly our meaning it is used (`.Cage`, `.Thermo`, `.Arrow`, `.LittleKiller`,
`.Sandwich`, `.WhiteDot`, `.StrictKropki`...); otherwise the rule is written with ISS's general
constraints of the same meaning (`.Sum` with coefficients, `.AllDifferent`, `.Pair` with a relation
key, `.Lunchbox`), as listed in scripts/variants/README.md.
"""

import argparse
import sys

import fpz

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"


def cell_id(rc):
    """ISS's cell id: one base-17 character per coordinate, from 1 (`R1C1`, `RaCb` past 9)."""
    return f"R{CHARS[rc[0] + 1]}C{CHARS[rc[1] + 1]}"


def ids(cells):
    return "~".join(cell_id(c) for c in cells)


def binary_key(fn, n):
    """ISS's `.Pair` relation key (its fnToBinaryKey): bit (i, j) set when values i, j (1..n) may
    stand on the first and second cell, six bits a character, trailing zeros trimmed."""
    out, v, k = [], 0, 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            v |= int(bool(fn(i, j))) << k
            k += 1
            if k == 6:
                out.append(v)
                v = k = 0
    out.append(v)
    while out and not out[-1]:
        out.pop()
    return "".join(BASE64[x] for x in out)


def little_killer_ids(n):
    """ISS's little killer clues: the id (first cell) of each diagonal of two cells or more, keyed by
    its set of cells (ISS's LittleKiller.cellMap)."""
    found = {}

    def add(r, c, dr, dc):
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append((r, c))
            r, c = r + dr, c + dc
        if len(cells) > 1 and frozenset(cells) not in found:
            found[frozenset(cells)] = cell_id(cells[0])

    for r in range(n - 1):
        add(r, 0, 1, 1)
    for r in range(1, n - 1):
        add(r, n - 1, -1, -1)
    for c in range(1, n):
        add(0, c, 1, -1)
    for c in range(1, n - 1):
        add(n - 1, c, -1, 1)
    return found


def weighted_sum(total, terms):
    """`.Sum` with coefficients: sum of coeff * cell == total (ISS allows |coeff| <= 100)."""
    coeffs = "_".join(str(k) for _, k in terms)
    return f".Sum~{total}_=_{coeffs}~" + ids([c for c, _ in terms])


def has_boxes(n):
    return any(n % r == 0 and 1 < r and r * r <= n for r in range(2, n + 1))


def convert(p):
    """The ISS constraint string of a fpz.Puzzle."""
    n, out = p.n, []
    if n != 9:
        out.append(f".Shape~{n}x{n}")
    if not p.default_regions():
        layout = "".join(CHARS[p.regions[r][c]] for r in range(n) for c in range(n))
        out.append(f".Jigsaw~{layout}.NoBoxes")
    for rc, v in sorted(p.givens.items()):
        out.append(f".~{cell_id(rc)}_{v}")

    if p.p.get("diagonal+"):
        out.append(".Diagonal~1")
    if p.p.get("diagonal-"):
        out.append(".Diagonal~-1")
    if p.p.get("antiknight"):
        out.append(".AntiKnight")
    if p.p.get("antiking"):
        out.append(".AntiKing")
    if p.p.get("disjointgroups"):
        # ISS's DisjointSets are the positions within the default boxes; with a jigsaw (or no boxes,
        # a prime side) ours are the positions within the regions: written out as AllDifferent.
        if p.default_regions() and has_boxes(n):
            out.append(".DisjointSets")
        else:
            out += [".AllDifferent~" + ids(g) for g in p.disjoint_groups()]

    for i, e in enumerate(p.get("extraregion"), 1):
        out.append(".AllDifferent~" + ids(p.cells(e["cells"], "extraregion", i)))
    for i, e in enumerate(p.get("killercage"), 1):
        cells = p.cells(e["cells"], "killercage", i)
        if fpz.blank(e.get("value")):
            if len(cells) > 1:
                out.append(".AllDifferent~" + ids(cells))
            continue
        total = fpz.number(e["value"], f"killercage {i}")
        if len(cells) > 1 and total != 0:
            out.append(f".Cage~{total}~" + ids(cells))
        else:
            # ISS's Cage wants two cells or more and reads a sum of 0 as "no sum".
            out.append(f".Sum~{total}~" + ids(cells))
            if len(cells) > 1:
                out.append(".AllDifferent~" + ids(cells))
    lk_ids, used = little_killer_ids(n), set()
    for cells, total in p.little_killers():
        key = lk_ids.get(frozenset(cells))
        if key is not None and key not in used:
            used.add(key)
            out.append(f".LittleKiller~{total}~{key}")
        else:
            # A one-cell diagonal (ISS has no clue there), or a second clue on the same diagonal.
            out.append(f".Sum~{total}~" + ids(cells))
    used = set()
    for line, total in p.sandwiches():
        if n < 2 or line in used:
            # A second clue on the same line: ISS keeps one Sandwich per line; Lunchbox on the
            # whole line is the same rule (the 1 and the n are its smallest and largest values).
            out.append(f".Lunchbox~{total}~" + ids(p.line_cells(line)))
            continue
        used.add(line)
        out.append(f".Sandwich~{total}~{'R' if line[0] == 'row' else 'C'}{line[1] + 1}")
    for i, e in enumerate(p.get("thermometer"), 1):
        for line in e["lines"]:
            cells = p.cells(line, "thermometer", i)
            if len(cells) > 1:  # a bulb alone says nothing
                out.append(".Thermo~" + ids(cells))
    for circle, shaft in p.arrows():
        if len(circle) > 3:
            raise fpz.PuzzleError(
                f"arrow with a circle of {len(circle)} cells: ISS's sums take coefficients up to 100")
        readable = (
            n <= 9 and 2 <= len(circle) <= 3 and shaft and circle == sorted(circle)
            and all(b in ((a[0], a[1] + 1), (a[0] + 1, a[1]), (a[0] + 1, a[1] + 1))
                    for a, b in zip(circle, circle[1:]))
            and not set(circle) & set(shaft))
        if len(circle) == 1 and shaft and circle[0] not in shaft:
            out.append(".Arrow~" + ids(circle + shaft))
        elif readable:
            out.append(f".PillArrow~{len(circle)}~" + ids(circle + shaft))
        else:
            # The number the circle spells, first cell first: shaft - sum(10^k * circle) == 0.
            terms = {}
            for c in shaft:
                terms[c] = terms.get(c, 0) + 1
            for k, c in enumerate(circle):
                terms[c] = terms.get(c, 0) - 10 ** (len(circle) - 1 - k)
            out.append(weighted_sum(0, list(terms.items())))
    for kind, a, b, value in p.dots():
        if (kind, value) == ("difference", 1):
            out.append(".WhiteDot~" + ids([a, b]))
        elif (kind, value) == ("ratio", 2):
            out.append(".BlackDot~" + ids([a, b]))
        elif (kind, value) == ("sum", 10):
            out.append(".X~" + ids([a, b]))
        elif (kind, value) == ("sum", 5):
            out.append(".V~" + ids([a, b]))
        else:
            key = binary_key(lambda i, j: fpz.holds(kind, value, i, j), n)
            out.append(f".Pair~{key}~" + ids([a, b]))
    for key, kind in (("even", 0), ("odd", 1)):
        for i, e in enumerate(p.get(key), 1):
            rc = p.cell(e["cell"], key, i)
            values = [v for v in range(1, n + 1) if v % 2 == kind]
            out.append(f".~{cell_id(rc)}_" + "_".join(map(str, values)))

    out += negatives(p)
    return "".join(out)


def negatives(p):
    """The negative constraints: ISS's own switch where its meaning is exactly ours, else `.Pair`
    with the forbidden relations on every unmarked orthogonal pair (what ISS's switches build)."""
    n, out = p.n, []
    forbidden = {"kropki": [], "xv": []}
    for family, kind, value in p.negatives():
        forbidden[family].append((kind, value))
    dots = p.dots()
    standard = all((k, v) in (("difference", 1), ("ratio", 2)) for k, _, _, v in dots if k != "sum")
    any_kropki = any(k != "sum" for k, _, _, _ in dots)
    kropki = sorted(forbidden["kropki"])
    if kropki == [("difference", 1)] and not any_kropki:
        out.append(".AntiConsecutive")
    elif kropki == [("difference", 1), ("ratio", 2)] and standard:
        # StrictKropki: no unmarked pair is consecutive or in ratio 2, a pair with a white or black
        # dot is exempt from both, as in docs/fpuzzles.md (nonconsecutive + negative ratio).
        out.append(".StrictKropki")
    elif kropki:
        out += pairs_without(p, "kropki", kropki)
    if forbidden["xv"]:
        # StrictXV: no unmarked pair sums to 5 or 10, a pair with an X or a V exempt from both.
        out.append(".StrictXV")
    return out


def pairs_without(p, family, relations):
    n = p.n
    key = binary_key(lambda i, j: not any(fpz.holds(k, v, i, j) for k, v in relations), n)
    marked = p.marked(family)
    cells = []
    for a, b in p.adjacent_pairs():
        if frozenset((a, b)) not in marked:
            cells += ["" if cells else None, cell_id(a), cell_id(b)]
    cells = [c for c in cells if c is not None]
    return [f".Pair~{key}~" + "~".join(cells)] if cells else []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    args = parser.parse_args()
    failed = 0
    for k, line in enumerate(fpz.read_lines(args.file), 1):
        try:
            print(convert(fpz.Puzzle(fpz.decode(line))))
        except (fpz.PuzzleError, ValueError, KeyError, TypeError) as e:
            print(f"{args.file}: puzzle {k}: {e}", file=sys.stderr)
            print("ERROR")
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
