"""Canonicalize from Python's grpcio: the transform text, applied here by an independent reading of
its documented form, maps the puzzle onto the key; a shuffled copy of a puzzle has the same key; its
inverse carries the key's solution back onto the puzzle's; unreadable text is INVALID_ARGUMENT."""

import random

import grpc
import pytest

from conftest import check_solution, read_puzzles


def parse_transform(text):
    """`t=T;r=...;c=...;d=...` as (transpose, rows, cols, digits), as the proto comment documents it."""
    fields = dict(part.split("=", 1) for part in text.split(";"))
    assert sorted(fields) == ["c", "d", "r", "t"], text
    return fields["t"] == "1", [int(ch) for ch in fields["r"]], [int(ch) for ch in fields["c"]], [int(ch) for ch in fields["d"]]


def cells(puzzle):
    return [0 if ch in ".0" else int(ch) for ch in puzzle]


def apply(transform, grid):
    """image[i][j] = d[source[r[i]][c[j]]], source transposed when t=1; blanks stay 0."""
    transpose, rows, cols, digits = transform
    source = [grid[c * 9 + r] for r in range(9) for c in range(9)] if transpose else grid
    return [0 if source[rows[i] * 9 + cols[j]] == 0 else digits[source[rows[i] * 9 + cols[j]] - 1] for i in range(9) for j in range(9)]


def invert(transform):
    transpose, rows, cols, digits = transform
    rows_inv, cols_inv, digits_inv = [0] * 9, [0] * 9, [0] * 9
    for i, r in enumerate(rows):
        rows_inv[r] = i
    for j, c in enumerate(cols):
        cols_inv[c] = j
    for k, d in enumerate(digits):
        digits_inv[d - 1] = k + 1
    return (transpose, cols_inv, rows_inv, digits_inv) if transpose else (transpose, rows_inv, cols_inv, digits_inv)


def shuffle(rng):
    def block_perm():
        outer = rng.sample(range(3), 3)
        return [3 * block + within for block in outer for within in rng.sample(range(3), 3)]

    return rng.random() < 0.5, block_perm(), block_perm(), rng.sample(range(1, 10), 9)


def test_canonicalize_keys_transforms_and_solutions(pb, stub):
    rng = random.Random(12)
    for puzzle in read_puzzles("17_clue_sample.txt", 1000)[::100]:
        reply = stub.Canonicalize(pb.msg.CanonicalizeRequest(puzzle=puzzle), timeout=10)
        key = cells(reply.canonical)
        assert len(reply.canonical) == 81 and set(reply.canonical) <= set("0123456789")
        transform = parse_transform(reply.transform)
        assert apply(transform, cells(puzzle)) == key
        # A shuffled copy, made here, has the same key.
        copy = "".join(str(v) for v in apply(shuffle(rng), cells(puzzle)))
        again = stub.Canonicalize(pb.msg.CanonicalizeRequest(puzzle=copy), timeout=10)
        assert again.canonical == reply.canonical
        # The inverse carries the key's solution back onto the puzzle's.
        solved = stub.Solve(pb.msg.SolveRequest(puzzle=reply.canonical), timeout=10)
        assert solved.verdict == pb.msg.VERDICT_UNIQUE
        back = "".join(str(v) for v in apply(invert(transform), cells(solved.solution)))
        check_solution(puzzle, back)


def test_canonicalize_clashing_grid_has_a_key_and_bad_text_fails(pb, stub):
    reply = stub.Canonicalize(pb.msg.CanonicalizeRequest(puzzle="55" + "." * 79), timeout=10)
    assert reply.canonical == "0" * 79 + "11"
    with pytest.raises(grpc.RpcError) as caught:
        stub.Canonicalize(pb.msg.CanonicalizeRequest(puzzle="12x" + "." * 13), timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "'x'" in caught.value.details()
