#!/usr/bin/env python3
"""The checks and the table of compare.sh, from the outputs it left in OUT_DIR.

    python3 scripts/variants/agree.py OUT_DIR FILE.fpuzzles.txt...

For each family: ISS and CP-SAT must give the same verdict on every puzzle and, on a unique one, the
same solution; on a puzzle with several solutions, each one's solution must satisfy the other's
model (CP-SAT with the ISS solution as givens, ISS with the CP-SAT solution as givens must both find
it). Our `bench --variants` gives verdict counts only: they must be the anchors' counts. Prints each
disagreement, then the markdown table; exit code 1 if anything disagreed or failed. ISS's mean is
building its solver and searching (as ours is variant::solve); "ISS search" is the search alone,
what ISS's own benchmark times. The ratios use the first.
Needs ISS_DIR and NODE in the environment for the cross-check of puzzles with several solutions.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fpz  # noqa: E402

TIME = re.compile(r"(\d+) puzzles, ([\d.]+) ms each")
SEARCH = re.compile(r"search alone ([\d.]+) ms")
OURS_NAMES = {"Unique": "UNIQUE", "Multiple": "MULTIPLE", "Unsolvable": "UNSOLVABLE"}


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def results(text):
    out = []
    for line in text.splitlines():
        parts = line.split()
        out.append((parts[0], parts[1] if len(parts) > 1 else "") if parts else ("ERROR", ""))
    return out


def mean_us(err):
    m = None
    for m in TIME.finditer(err):
        pass
    return float(m.group(2)) * 1e3 if m and int(m.group(1)) else None


def ours_row(text, name):
    """(verdict counts, mean µs) from our table's row for the file."""
    for line in text.splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) >= 4 and cols[0] == name:
            counts = {}
            for part in cols[2].split(","):
                part = part.strip()
                if part:
                    k, v = part.split(" ", 1)
                    counts[OURS_NAMES.get(v, v.upper())] = int(k)
            return counts, float(cols[3])
    return None, None


def cpsat_accepts(line, solution):
    import cpsat
    from ortools.sat.python import cp_model

    model = cpsat.Model(fpz.Puzzle(fpz.decode(line)))
    n = model.n
    for k, ch in enumerate(solution):
        model.m.Add(model.x[k // n][k % n] == int(ch, 17))
    solver = cp_model.CpSolver()
    return solver.Solve(model.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def iss_accepts(pairs):
    """Whether ISS finds each (constraint string, solution) with the solution given."""
    if not pairs:
        return []
    iss_dir, node = os.environ.get("ISS_DIR"), os.environ.get("NODE", "node")
    if not iss_dir:
        return [None] * len(pairs)
    lines = []
    for text, solution in pairs:
        n = int(len(solution) ** 0.5)
        chars = "0123456789abcdefghijklmnopqrstuvwxyz"
        lines.append(text + "".join(
            f".~R{chars[k // n + 1]}C{chars[k % n + 1]}_{int(ch, 17)}" for k, ch in enumerate(solution)))
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"agree-{os.getpid()}.iss")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        run = subprocess.run([node, os.path.join(HERE, "iss_bench.mjs"), iss_dir, path],
                             capture_output=True, text=True)
    finally:
        os.unlink(path)
    got = results(run.stdout)
    return [g == ("UNIQUE", s) for g, (_, s) in zip(got, pairs)]


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    bad = 0
    rows = []
    for path in files:
        base = os.path.basename(path)
        fam = base[: -len(".fpuzzles.txt")]
        o = lambda ext: os.path.join(out_dir, fam + ext)  # noqa: E731
        puzzles = fpz.read_lines(path)
        cp, iss = results(read(o(".cpsat"))), results(read(o(".issout")))
        strings = read(o(".iss")).splitlines()
        problems = []
        for err in (".cpsat.err", ".iss.err", ".issout.err"):
            for line in read(o(err)).splitlines():
                if ": puzzle " in line:
                    problems.append(f"{err[1:-4]}: {line}")
        if len(cp) != len(puzzles) or len(iss) != len(puzzles):
            problems.append(f"{len(puzzles)} puzzles, {len(cp)} CP-SAT results, {len(iss)} ISS results")
        cross = []
        for k, (a, b) in enumerate(zip(cp, iss)):
            if "ERROR" in (a[0], b[0]):
                continue
            if a[0] != b[0]:
                problems.append(f"puzzle {k + 1}: CP-SAT {a[0]}, ISS {b[0]}")
            elif a[0] == "UNIQUE" and a[1] != b[1]:
                problems.append(f"puzzle {k + 1}: unique, but CP-SAT {a[1]} and ISS {b[1]}")
            elif a[0] == "MULTIPLE" and a[1] != b[1]:
                if not cpsat_accepts(puzzles[k], b[1]):
                    problems.append(f"puzzle {k + 1}: ISS's solution {b[1]} breaks the CP-SAT model")
                cross.append((k, strings[k], a[1]))
        for (k, _, s), ok in zip(cross, iss_accepts([(t, s) for _, t, s in cross])):
            if ok is False:
                problems.append(f"puzzle {k + 1}: CP-SAT's solution {s} is not accepted by ISS")
        anchors = {}
        for v, _ in cp:
            anchors[v] = anchors.get(v, 0) + 1
        ours_counts, ours_mean = ours_row(read(o(".ours")), base)
        failed = read(o(".ours.failed")).strip()
        if ours_counts is not None and ours_counts != anchors:
            problems.append(f"our verdicts {ours_counts}, CP-SAT's {anchors}")
        elif ours_counts is None and not failed:
            failed = "no row for the file in our table"
        for p in problems:
            print(f"DISAGREE {fam}: {p}")
        bad += len(problems)
        cp_mean, iss_mean = mean_us(read(o(".cpsat.err"))), mean_us(read(o(".issout.err")))
        search = SEARCH.search(read(o(".issout.err")))
        search = float(search.group(1)) * 1e3 if search and iss_mean is not None else None
        rows.append((fam, len(puzzles), ours_mean, iss_mean, search, cp_mean, failed,
                     ", ".join(f"{v} {k}" for k, v in sorted(anchors.items()))))
    fmt = lambda x: "n/a" if x is None else f"{x:.1f}"  # noqa: E731
    ratio = lambda a, b: "n/a" if a is None or not b else f"{a / b:.1f}"  # noqa: E731
    print()
    print("| family | puzzles | verdicts | ours mean µs | ISS mean µs | ISS search µs | CP-SAT mean µs "
          "| ISS/ours | CP-SAT/ours |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for fam, count, ours, iss, search, cp, failed, verdicts in rows:
        print(f"| {fam} | {count} | {verdicts} | {fmt(ours)} | {fmt(iss)} | {fmt(search)} | {fmt(cp)} | "
              f"{ratio(iss, ours)} | {ratio(cp, ours)} |")
    notes = sorted({failed for *_, failed, _ in rows if failed})
    for n in notes:
        print(f"\nours: {n}")
    print(f"\n{'all agree' if not bad else f'{bad} disagreements'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
