"""Checks of 9x9 answers that the Python scripts share."""


def solves(puzzle, solution):
    """True when `solution` is a valid full 9x9 grid that keeps every given of `puzzle`."""
    if len(solution) != 81 or any(not c.isdigit() or c == "0" for c in solution):
        return False
    if any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(len({solution[i] for i in unit}) == 9 for unit in units)
