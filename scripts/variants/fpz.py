"""Reading f-puzzles puzzles for the outside anchors (cpsat.py, iss.py), as docs/fpuzzles.md defines them.

Shared by the two converters so that they read the same puzzle the same way: the three input forms,
cell names, the default regions, which keys are rules, which are cosmetic and which are errors, and
the cells each rule covers (little killer diagonals, sandwich lines, arrow shafts). Written from
docs/fpuzzles.md alone, apart from the Rust reader.
"""

import json
import re
import urllib.parse

CELL = re.compile(r"^[Rr](\d+)[Cc](\d+)$")

# Keys that are rules (docs/fpuzzles.md, "Keys"), and keys that are drawings only ("Cosmetic").
RULE_KEYS = {
    "size", "grid", "diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups",
    "nonconsecutive", "extraregion", "killercage", "littlekillersum", "sandwichsum", "thermometer",
    "arrow", "difference", "ratio", "xv", "even", "odd", "negative",
}
COSMETIC_KEYS = {
    "title", "author", "ruleset", "text", "line", "rectangle", "circle", "cage", "highlighted",
    "solution", "disabledlogic", "truecandidatesoptions",
}
CELL_KEYS = {"value", "given", "region", "c", "cArray", "highlight", "centerPencilMarks",
             "cornerPencilMarks", "givenPencilMarks"}
DIRECTIONS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}


class PuzzleError(ValueError):
    """A puzzle these anchors refuse, with what and where."""


def decode(text):
    """The puzzle's JSON object from any of the three forms (JSON, a link, LZ-String base64)."""
    text = text.strip().lstrip("\ufeff")
    if text.startswith("{"):
        return json.loads(text)
    if "load=" in text:
        text = re.split(r"[&#]", text.split("load=", 1)[1])[0]
        text = urllib.parse.unquote(text)
    try:
        import lzstring  # only needed for this form
    except ImportError:
        raise PuzzleError("a base64 or link puzzle needs the lzstring package (pip install lzstring)") from None

    raw = lzstring.LZString().decompressFromBase64(re.sub(r"\s+", "", text))
    if not raw:
        raise PuzzleError("not JSON, not a link, and not LZ-String base64 that decompresses")
    return json.loads(raw)


def read_lines(path):
    """The puzzles of a file: one per non-blank line not starting with '#'."""
    with open(path, encoding="utf-8") as f:
        return [l for l in f if l.strip() and not l.startswith("#")]


def present(value):
    """Whether a key holds something (docs: absent, null, false, "", [] and {} are no rule)."""
    return value not in (None, False, "", [], {})


def blank(value):
    return value is None or str(value).strip() == ""


def number(value, what):
    try:
        return int(str(value).strip())
    except ValueError:
        raise PuzzleError(f"{what}: {value!r} is not a whole number") from None


def default_regions(n):
    """f-puzzles' default regions: square boxes for 4, 9, 16; 2 rows by n/2 for 6, 8, 10, 14; 3 rows by
    n/3 for 12, 15; rows for a prime side."""
    rows = max(r for r in range(1, n + 1) if n % r == 0 and r * r <= n)
    cols = n // rows
    return [[(r // rows) * (n // cols) + c // cols for c in range(n)] for r in range(n)]


class Puzzle:
    """An f-puzzles JSON object, checked for keys we do not know, with the helpers both models need."""

    def __init__(self, obj):
        self.p = obj
        if not isinstance(obj, dict):
            raise PuzzleError("the puzzle is not a JSON object")
        for key, value in obj.items():
            if key in COSMETIC_KEYS:
                if key == "cage":
                    for i, e in enumerate(value or [], 1):
                        if re.match(r"^DR\d+$", str(e.get("value", "")).strip()):
                            raise PuzzleError(f"cage {i}: digital-root cage: not supported")
                continue
            if key not in RULE_KEYS and present(value):
                raise PuzzleError(f"key {key!r}: not supported")
        if "size" not in obj:
            raise PuzzleError("no size")
        self.n = n = number(obj["size"], "size")
        if not 1 <= n <= 16:
            raise PuzzleError(f"size {n}: expected 1 to 16")
        grid = obj.get("grid")
        if not isinstance(grid, list) or len(grid) != n or any(len(row) != n for row in grid):
            raise PuzzleError(f"grid: expected {n} rows of {n} cells")
        self.givens = {}
        self.regions = default_regions(n)
        for r in range(n):
            for c in range(n):
                g = grid[r][c] or {}
                for k in g:
                    if k not in CELL_KEYS:
                        raise PuzzleError(f"grid R{r + 1}C{c + 1}: field {k!r}: not supported")
                if g.get("givenPencilMarks"):
                    raise PuzzleError(f"grid R{r + 1}C{c + 1}: givenPencilMarks: not supported")
                v = g.get("value")
                if not blank(v):
                    v = number(v, f"grid R{r + 1}C{c + 1} value")
                    if not 0 <= v <= n:
                        raise PuzzleError(f"grid R{r + 1}C{c + 1}: value {v} outside 1..{n}")
                    if g.get("given") is True and v:
                        self.givens[(r, c)] = v
                if g.get("region") is not None:
                    self.regions[r][c] = number(g["region"], f"grid R{r + 1}C{c + 1} region")
        sizes = {}
        for row in self.regions:
            for k in row:
                sizes[k] = sizes.get(k, 0) + 1
        if sorted(sizes) != list(range(n)) or set(sizes.values()) != {n}:
            raise PuzzleError(f"regions: expected {n} regions of {n} cells, numbered from 0")

    def get(self, key):
        return self.p.get(key) or []

    def default_regions(self):
        return self.regions == default_regions(self.n)

    def cell(self, name, key, i, outside=False):
        """(row, col) from 0 of an `RnCn` name; `outside` allows the ring just outside the grid."""
        m = CELL.match(str(name))
        if not m:
            raise PuzzleError(f"{key} {i}: {name!r} is not a cell")
        r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
        lo, hi = (-1, self.n) if outside else (0, self.n - 1)
        if not (lo <= r <= hi and lo <= c <= hi):
            raise PuzzleError(f"{key} {i}: {name} is outside the grid")
        return r, c

    def cells(self, names, key, i):
        return [self.cell(x, key, i) for x in names]

    def inside(self, r, c):
        return 0 <= r < self.n and 0 <= c < self.n

    def region_groups(self):
        """Each region's cells in row-major order."""
        groups = {}
        for r in range(self.n):
            for c in range(self.n):
                groups.setdefault(self.regions[r][c], []).append((r, c))
        return [groups[k] for k in sorted(groups)]

    def disjoint_groups(self):
        """The cells in the same position (row-major) of their regions, one list per position."""
        out = [[] for _ in range(self.n)]
        for g in self.region_groups():
            for k, rc in enumerate(g):
                out[k].append(rc)
        return out

    def little_killers(self):
        """(cells, sum) of each little killer clue with a number."""
        out = []
        for i, e in enumerate(self.get("littlekillersum"), 1):
            if blank(e.get("value")):
                continue
            r, c = self.cell(e["cell"], "littlekillersum", i, outside=True)
            if self.inside(r, c):
                raise PuzzleError(f"littlekillersum {i}: {e['cell']} is inside the grid")
            d = DIRECTIONS.get(str(e.get("direction", "")).upper())
            if d is None:
                raise PuzzleError(f"littlekillersum {i}: direction {e.get('direction')!r}")
            cells = []
            r, c = r + d[0], c + d[1]
            while self.inside(r, c):
                cells.append((r, c))
                r, c = r + d[0], c + d[1]
            if not cells:
                raise PuzzleError(f"littlekillersum {i}: the arrow at {e['cell']} never enters the grid")
            out.append((cells, number(e["value"], f"littlekillersum {i}")))
        return out

    def sandwiches(self):
        """(('row' or 'col', index from 0), sum) of each sandwich clue with a number."""
        out = []
        for i, e in enumerate(self.get("sandwichsum"), 1):
            if blank(e.get("value")):
                continue
            r, c = self.cell(e["cell"], "sandwichsum", i, outside=True)
            if 0 <= r < self.n and c in (-1, self.n):
                line = ("row", r)
            elif 0 <= c < self.n and r in (-1, self.n):
                line = ("col", c)
            else:
                raise PuzzleError(f"sandwichsum {i}: {e['cell']} is not just outside a row or column")
            out.append((line, number(e["value"], f"sandwichsum {i}")))
        return out

    def line_cells(self, line):
        kind, k = line
        return [(k, j) for j in range(self.n)] if kind == "row" else [(j, k) for j in range(self.n)]

    def arrows(self):
        """(circle, shaft) of each arrow line: the shaft is the line's cells after its leading circle
        cells."""
        out = []
        for i, e in enumerate(self.get("arrow"), 1):
            circle = self.cells(e.get("cells") or [], "arrow", i)
            lines = e.get("lines") or []
            if not circle or not lines:
                raise PuzzleError(f"arrow {i}: needs a circle and at least one line")
            for line in lines:
                cells = self.cells(line, "arrow", i)
                if not cells or cells[0] not in circle:
                    raise PuzzleError(f"arrow {i}: a line does not start in the circle")
                k = 0
                while k < len(cells) and cells[k] in circle:
                    k += 1
                out.append((circle, cells[k:]))
        return out

    def dots(self):
        """(kind, a, b, value) of each marker: kind 'difference', 'ratio' or 'sum'."""
        out = []
        for kind, default in (("difference", 1), ("ratio", 2)):
            for i, e in enumerate(self.get(kind), 1):
                a, b = self.cells(e["cells"], kind, i)
                value = default if blank(e.get("value")) else number(e["value"], f"{kind} {i}")
                out.append((kind, a, b, value))
        for i, e in enumerate(self.get("xv"), 1):
            a, b = self.cells(e["cells"], "xv", i)
            v = str(e.get("value", "")).strip().upper()
            if v not in ("X", "V"):
                raise PuzzleError(f"xv {i}: value {e.get('value')!r}: expected X or V")
            out.append(("sum", a, b, 10 if v == "X" else 5))
        return out

    def negatives(self):
        """(family, kind, value) of each negative constraint, family 'kropki' or 'xv'."""
        out = []
        if self.p.get("nonconsecutive"):
            out.append(("kropki", "difference", 1))
        names = self.get("negative")
        for name in names:
            if name not in ("ratio", "xv"):
                raise PuzzleError(f"negative: {name!r}: not supported")
        if "ratio" in names:
            ratios = sorted({v for k, _, _, v in self.dots() if k == "ratio"}) or [2]
            out += [("kropki", "ratio", r) for r in ratios]
        if "xv" in names:
            out += [("xv", "sum", 5), ("xv", "sum", 10)]
        return out

    def marked(self, family):
        """The unordered pairs carrying a marker of the family."""
        kinds = ("difference", "ratio") if family == "kropki" else ("sum",)
        return {frozenset((a, b)) for k, a, b, _ in self.dots() if k in kinds}

    def adjacent_pairs(self):
        n = self.n
        for r in range(n):
            for c in range(n):
                if c + 1 < n:
                    yield (r, c), (r, c + 1)
                if r + 1 < n:
                    yield (r, c), (r + 1, c)


def holds(kind, value, i, j):
    """Whether values i and j are in the relation (docs: Relation::holds)."""
    if kind == "difference":
        return abs(i - j) == value
    if kind == "ratio":
        return i * value == j or j * value == i
    return i + j == value
