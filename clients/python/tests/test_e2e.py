"""End-to-end tests of sudoku-grpc from Python's grpcio, with stubs generated from proto/ at test time.

Run by scripts/e2e-python.sh (which installs grpcio, grpcio-tools, grpcio-health-checking,
grpcio-status and pytest into .venv/ and starts the server).
"""

import importlib.util
import itertools
import os
import pathlib
import queue
import socket
import subprocess
import sys
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from conftest import check_solution, read_puzzles

CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CLASSIC_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
CLASH_IN_ROW_1 = "55" + "." * 79


# --- Solve -------------------------------------------------------------------------------------


def test_solve_unique(pb, stub):
    puzzle = read_puzzles("17_clue_sample.txt", 1)[0]
    reply = stub.Solve(pb.msg.SolveRequest(puzzle=puzzle), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_UNIQUE
    check_solution(puzzle, reply.solution)
    assert reply.HasField("stats")


def test_solve_classic_and_layouts(pb, stub):
    """A 9-line grid and a LeetCode-style board read the same as the one-line string."""
    grid = "\n".join(CLASSIC[r * 9 : r * 9 + 9] for r in range(9))
    board = "[" + ",".join("[" + ",".join(f'"{ch}"' for ch in CLASSIC[r * 9 : r * 9 + 9]) + "]" for r in range(9)) + "]"
    for text in (CLASSIC, grid, board):
        reply = stub.Solve(pb.msg.SolveRequest(puzzle=text), timeout=10)
        assert (pb.msg.Verdict.Name(reply.verdict), reply.solution) == ("VERDICT_UNIQUE", CLASSIC_SOLUTION)


def test_solve_skip_uniqueness_and_multiple(pb, stub):
    reply = stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC, skip_uniqueness_check=True), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_SOLVED
    check_solution(CLASSIC, reply.solution)
    # Several solutions is an answer (status OK), with one of them.
    reply = stub.Solve(pb.msg.SolveRequest(puzzle="." * 81), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_MULTIPLE
    check_solution("." * 81, reply.solution)


def test_solve_invalid_argument(pb, stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(pb.msg.SolveRequest(puzzle=CLASH_IN_ROW_1), timeout=10)
    err = caught.value
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    message = err.details()
    assert "row 1" in message.lower() and "5" in message, message
    # The rich error model: a google.rpc.Status with google.rpc.BadRequest details.
    status = rpc_status.from_call(err)
    assert status is not None, "no grpc-status-details-bin trailer"
    bad_requests = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            detail.Unpack(bad_request)
            bad_requests.append(bad_request)
    assert bad_requests and bad_requests[0].field_violations, status
    assert any(v.description for v in bad_requests[0].field_violations)


def test_solve_unreadable_names_character(pb, stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC[:40] + "x" + CLASSIC[41:]), timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "x" in caught.value.details()


# --- SolveBatch ----------------------------------------------------------------------------------


def test_batch_order_ids_and_bad_items(pb, stub):
    puzzles = read_puzzles("17_clue_sample.txt", 300)
    items = [(f"p{i}", p) for i, p in enumerate(puzzles)]
    items.insert(5, ("bad-clash", CLASH_IN_ROW_1))
    items.insert(100, ("bad-chars", "not a sudoku"))
    items.insert(200, ("", CLASSIC))  # an empty id is echoed as empty
    requests = (pb.msg.SolveBatchRequest(id=i, puzzle=p) for i, p in items)
    replies = list(stub.SolveBatch(requests, timeout=60))
    assert len(replies) == len(items)
    for index, ((item_id, puzzle), reply) in enumerate(zip(items, replies)):
        assert (reply.index, reply.id) == (index, item_id)
        if item_id.startswith("bad-"):
            assert reply.verdict == pb.msg.VERDICT_INVALID and reply.error, reply
        else:
            assert reply.verdict == pb.msg.VERDICT_UNIQUE and not reply.error, reply
            check_solution(puzzle, reply.solution)


def test_batch_empty_stream(pb, stub):
    assert list(stub.SolveBatch(iter(()), timeout=10)) == []


def test_batch_lockstep(pb, stub):
    """Send one puzzle, wait for its answer, then send the next: each answer must come on its own."""
    puzzles = read_puzzles("17_clue_sample.txt", 5)
    outbox = queue.Queue()

    def requests():
        while (item := outbox.get()) is not None:
            yield item

    outbox.put(pb.msg.SolveBatchRequest(id="0", puzzle=puzzles[0]))
    replies = stub.SolveBatch(requests(), timeout=30)
    for i, puzzle in enumerate(puzzles):
        reply = next(replies)
        assert (reply.index, reply.id) == (i, str(i))
        check_solution(puzzle, reply.solution)
        outbox.put(pb.msg.SolveBatchRequest(id=str(i + 1), puzzle=puzzles[i + 1]) if i + 1 < len(puzzles) else None)
    assert list(replies) == []


def test_batch_many_small_messages(pb, server_addr):
    """grpcio sends each ~100-byte request in its own HTTP/2 DATA frame; a long stream must not be cut
    off by the server's HTTP/2 layer (h2's too_many_data_frames guard) while it applies back-pressure.
    Against a server with hyper's default windows this fails with UNAVAILABLE (GOAWAY
    ENHANCE_YOUR_CALM "too_many_data_frames") after a few thousand messages."""
    count = int(os.environ.get("SUDOKU_TEST_STREAM", "20000"))
    # No BDP probing: grpcio's receive window stays small, so the server's answers back up quickly.
    channel = grpc.insecure_channel(server_addr, options=[("grpc.http2.bdp_probe", 0)])
    stub = pb.rpc.SudokuServiceStub(channel)
    puzzles = read_puzzles("17_clue_sample.txt")
    requests = (
        pb.msg.SolveBatchRequest(id=str(i), puzzle=p, skip_uniqueness_check=True)
        for i, p in enumerate(itertools.islice(itertools.cycle(puzzles), count))
    )
    replies = stub.SolveBatch(requests, timeout=300)
    # Read nothing for a while: the server's answers back up, it stops reading, and grpcio's sender
    # keeps filling the server's receive window with one-request frames.
    time.sleep(2)
    seen = 0
    for reply in replies:
        assert reply.index == seen and reply.verdict == pb.msg.VERDICT_SOLVED, reply
        seen += 1
    channel.close()
    assert seen == count


# --- Health, compression, deadlines ---------------------------------------------------------------


def test_health(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "sudoku.v1.SudokuService"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
    with pytest.raises(grpc.RpcError) as caught:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_gzip(pb, server_addr):
    """Requests compressed with gzip, per call and per channel; the server accepts both ways."""
    with grpc.insecure_channel(server_addr, compression=grpc.Compression.Gzip) as channel:
        stub = pb.rpc.SudokuServiceStub(channel)
        reply = stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC), timeout=10)
        assert reply.solution == CLASSIC_SOLUTION
        puzzles = read_puzzles("17_clue_sample.txt", 50)
        requests = (pb.msg.SolveBatchRequest(id=str(i), puzzle=p) for i, p in enumerate(puzzles))
        replies = list(stub.SolveBatch(requests, timeout=30, compression=grpc.Compression.Gzip))
        assert [r.index for r in replies] == list(range(50))
    with grpc.insecure_channel(server_addr) as channel:
        stub = pb.rpc.SudokuServiceStub(channel)
        reply = stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC), timeout=10, compression=grpc.Compression.Gzip)
        assert reply.solution == CLASSIC_SOLUTION


def test_deadline_exceeded(pb, stub):
    """A tight deadline on a long stream of hard puzzles ends it with DEADLINE_EXCEEDED, promptly,
    and the server keeps serving."""
    hard = read_puzzles("forum_hardest_1905_11plus_sample.txt")
    requests = (
        pb.msg.SolveBatchRequest(id=str(i), puzzle=p)
        for i, p in enumerate(itertools.islice(itertools.cycle(hard), 200_000))
    )
    started = time.monotonic()
    received = 0
    with pytest.raises(grpc.RpcError) as caught:
        for _ in stub.SolveBatch(requests, timeout=0.5):
            received += 1
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 10
    assert received < 200_000
    assert stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC), timeout=10).solution == CLASSIC_SOLUTION


# --- The new RPCs: real answers required, UNIMPLEMENTED fails -----------------------------------


def solution_at(cell):
    return CLASSIC_SOLUTION[cell.row * 9 + cell.col]


def test_grade(pb, stub):
    reply = stub.Grade(pb.msg.GradeRequest(puzzle=CLASSIC, include_steps=True), timeout=30)
    assert reply.verdict == pb.msg.VERDICT_UNIQUE and reply.clues == 30 and reply.rating > 0, reply
    assert reply.difficulty != pb.msg.DIFFICULTY_UNSPECIFIED, reply
    assert reply.hardest_technique != pb.msg.TECHNIQUE_UNSPECIFIED, reply
    assert reply.steps, reply
    for step in reply.steps:
        assert all(p.symbol == solution_at(p) for p in step.placements), step


def test_hint(pb, stub):
    reply = stub.Hint(pb.msg.HintRequest(puzzle=CLASSIC), timeout=30)
    assert reply.verdict == pb.msg.VERDICT_UNIQUE and not reply.solved and not reply.mistakes, reply
    last = reply.steps[-1].placements
    assert last and last[0].symbol == solution_at(last[0]), reply
    # 1 at r1c3, where the solution has 4: a mistake, and no step.
    reply = stub.Hint(pb.msg.HintRequest(puzzle=CLASSIC, progress="531" + CLASSIC[3:]), timeout=30)
    assert [(m.row, m.col, m.symbol) for m in reply.mistakes] == [(0, 2, "1")] and not reply.steps, reply


def test_generate(pb, stub):
    request = pb.msg.GenerateRequest(count=3, seed=42)
    first = list(stub.Generate(request, timeout=60))
    again = list(stub.Generate(request, timeout=60))
    assert [g.index for g in first] == [0, 1, 2]
    assert [g.puzzle for g in again] == [g.puzzle for g in first], "the same seed gave other puzzles"
    for g in first:
        check_solution(g.puzzle, g.solution)
        assert g.clues == 81 - g.puzzle.count("."), g
        solved = stub.Solve(pb.msg.SolveRequest(puzzle=g.puzzle), timeout=10)
        assert (solved.verdict, solved.solution) == (pb.msg.VERDICT_UNIQUE, g.solution), g


def test_canonicalize(pb, stub):
    # The transpose of the classic puzzle with every digit d relabelled 10-d: the same class.
    other = "".join(
        "." if (ch := CLASSIC[i % 9 * 9 + i // 9]) == "." else str(10 - int(ch)) for i in range(81)
    )
    canonical = lambda puzzle: stub.Canonicalize(pb.msg.CanonicalizeRequest(puzzle=puzzle), timeout=10)  # noqa: E731
    reply = canonical(CLASSIC)
    key = reply.canonical
    assert len(key) == 81 and key.isdigit() and 81 - key.count("0") == 30 and reply.transform, reply
    assert canonical(other).canonical == key
    assert canonical(key).canonical == key


# --- Service config: round_robin and retries ---------------------------------------------------


def test_service_config_goes_past_a_dead_address(pb, server_addr):
    """clients/service-config.json (as solve.py loads it): with one address dead, every call is answered."""
    spec = importlib.util.spec_from_file_location("solve", pathlib.Path(__file__).resolve().parents[1] / "solve.py")
    solve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(solve)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = "127.0.0.1:%d" % sock.getsockname()[1]
    host, port = server_addr.rsplit(":", 1)
    live = "%s:%s" % (socket.gethostbyname(host), port)
    # A list target has no authority of its own; "dead,live" is not one an HTTP/2 server accepts.
    options = solve.channel_options() + [("grpc.default_authority", live)]
    with grpc.insecure_channel("ipv4:%s,%s" % (dead, live), options=options) as channel:
        stub = pb.rpc.SudokuServiceStub(channel)
        for _ in range(10):
            reply = stub.Solve(pb.msg.SolveRequest(puzzle=CLASSIC), timeout=10)
            assert reply.solution == CLASSIC_SOLUTION


# --- The example client ---------------------------------------------------------------------------


def test_example_client(server_addr, tmp_path):
    """clients/python/solve.py, the example the README shows, against the same server."""
    script = pathlib.Path(__file__).resolve().parents[1] / "solve.py"
    run = lambda *args, **kw: subprocess.run(  # noqa: E731
        [sys.executable, str(script), "--server", server_addr, *args], capture_output=True, text=True, timeout=60, **kw
    )
    out = run(CLASSIC)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["VERDICT_UNIQUE", CLASSIC_SOLUTION]

    puzzles = read_puzzles("17_clue_sample.txt", 3)
    (tmp_path / "puzzles.txt").write_text("\n".join(puzzles) + "\n")
    out = run("--batch", str(tmp_path / "puzzles.txt"), "--gzip")
    assert out.returncode == 0, out.stderr
    lines = [line.split() for line in out.stdout.splitlines()]
    assert [line[:2] for line in lines] == [[str(i + 1), "VERDICT_UNIQUE"] for i in range(3)]
    for (_, _, solution), puzzle in zip(lines, puzzles):
        check_solution(puzzle, solution)
    assert "3 VERDICT_UNIQUE" in out.stderr

    out = run(CLASH_IN_ROW_1)
    assert out.returncode == 2 and "INVALID_ARGUMENT" in out.stderr

    # A killer from f-puzzles (needs the server's variant solver and f-puzzles reader).
    killer = pathlib.Path(__file__).resolve().parents[3] / "tests" / "data" / "variants" / "killer.json"
    out = run("--fpuzzles", str(killer))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["VERDICT_UNIQUE", CLASSIC_SOLUTION]

    # A jigsaw graded on its regions, with SE's three numbers; a killer has no techniques yet.
    jigsaw = killer.with_name("jigsaw.b64")
    out = run("--grade", "--fpuzzles", str(jigsaw))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["VERDICT_UNIQUE", "DIFFICULTY_BEGINNER", "1.2/1.2/1.2"]
    out = run("--hint", "--fpuzzles", str(jigsaw))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("TECHNIQUE_HIDDEN_SINGLE In region "), out.stdout
    out = run("--grade", "--fpuzzles", str(killer))
    assert out.returncode == 2 and "rule 1 (cage)" in out.stderr, out.stderr

    # The setter's view: a unique puzzle's true candidates are its solution, one row a line.
    out = run("--true-candidates", "--fpuzzles", str(killer))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "VERDICT_UNIQUE"
    assert [line.split() for line in lines[1:]] == [list(CLASSIC_SOLUTION[r * 9 : r * 9 + 9]) for r in range(9)]


def test_true_candidates(pb, stub):
    """TrueCandidates: every cell's symbols over all solutions, or an honest verdict with none."""
    reply = stub.TrueCandidates(pb.msg.SolveRequest(puzzle="." * 16, box_rows=2, box_cols=2), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_MULTIPLE
    assert list(reply.cells) == ["1234"] * 16
    reply = stub.TrueCandidates(pb.msg.SolveRequest(puzzle=CLASSIC), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_UNIQUE
    assert "".join(reply.cells) == CLASSIC_SOLUTION
    # Row 1 holds 2-9 and column 1 a 1: unsolvable, so no cell has a candidate.
    reply = stub.TrueCandidates(pb.msg.SolveRequest(puzzle=".23456789" + "1" + "." * 71), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_UNSOLVABLE
    assert list(reply.cells) == []
    with pytest.raises(grpc.RpcError) as err:
        stub.TrueCandidates(pb.msg.SolveRequest(puzzle=CLASH_IN_ROW_1), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_grade_explains_a_path_to_the_solution(pb, stub):
    reply = stub.Grade(pb.msg.GradeRequest(puzzle=CLASSIC, include_steps=True), timeout=10)
    assert reply.verdict == pb.msg.VERDICT_UNIQUE
    assert reply.difficulty == pb.msg.DIFFICULTY_BEGINNER
    assert reply.rating <= 1.5
    assert reply.hardest_technique == pb.msg.TECHNIQUE_HIDDEN_SINGLE
    assert reply.steps[0].explanation == "In box 2, 8 fits only in r1c6."
    board = list(CLASSIC)
    for step in reply.steps:
        assert step.explanation
        for p in step.placements:
            board[p.row * 9 + p.col] = p.symbol
    check_solution(CLASSIC, "".join(board))
    assert sum(t.count for t in reply.techniques) == len(reply.steps)


def test_grade_hard_puzzle_and_invalid(pb, stub):
    hardest = read_puzzles("forum_hardest_1905_11plus_sample.txt")[0]
    reply = stub.Grade(pb.msg.GradeRequest(puzzle=hardest), timeout=30)
    assert reply.difficulty == pb.msg.DIFFICULTY_EXTREME
    assert reply.rating > 6.9
    # Sudoku Explainer's ED <= EP <= ER.
    assert 0 < reply.diamond_rating <= reply.pearl_rating <= reply.rating, reply
    with pytest.raises(grpc.RpcError) as err:
        stub.Grade(pb.msg.GradeRequest(puzzle=CLASH_IN_ROW_1), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "row 1" in err.value.details()


def test_hints_solve_a_puzzle_and_catch_mistakes(pb, stub):
    puzzle = read_puzzles("17_clue_sample.txt")[0]
    board = list(puzzle)
    for _ in range(81):
        reply = stub.Hint(pb.msg.HintRequest(puzzle=puzzle, progress="".join(board)), timeout=10)
        assert reply.verdict == pb.msg.VERDICT_UNIQUE and not reply.mistakes
        if reply.solved:
            break
        last = reply.steps[-1]
        assert len(last.placements) == 1 and last.explanation
        for p in last.placements:
            board[p.row * 9 + p.col] = p.symbol
    assert reply.solved
    check_solution(puzzle, "".join(board))
    wrong = list(CLASSIC)
    wrong[2] = "1" if CLASSIC_SOLUTION[2] != "1" else "2"
    reply = stub.Hint(pb.msg.HintRequest(puzzle=CLASSIC, progress="".join(wrong)), timeout=10)
    assert [(m.row, m.col) for m in reply.mistakes] == [(0, 2)]
    assert not reply.steps


def test_generate_hard_symmetric_reproducible(pb, stub):
    req = pb.msg.GenerateRequest(count=10, seed=7, symmetry=pb.msg.SYMMETRY_ROTATE_180,
                                 difficulty=pb.msg.DIFFICULTY_HARD, minimal=True)
    first = list(stub.Generate(req, timeout=60))
    assert [a.index for a in first] == list(range(10))
    for a in first:
        assert a.difficulty == pb.msg.DIFFICULTY_HARD and 2.8 < a.rating <= 4.4
        assert all((a.puzzle[i] == ".") == (a.puzzle[80 - i] == ".") for i in range(81))
        check_solution(a.puzzle.replace(".", "0"), a.solution)
        graded = stub.Grade(pb.msg.GradeRequest(puzzle=a.puzzle), timeout=10)
        assert graded.verdict == pb.msg.VERDICT_UNIQUE
        assert graded.difficulty == a.difficulty
    again = list(stub.Generate(req, timeout=60))
    assert [a.puzzle for a in again] == [a.puzzle for a in first]
    alone = list(stub.Generate(pb.msg.GenerateRequest(
        count=1, seed=first[3].seed, symmetry=pb.msg.SYMMETRY_ROTATE_180,
        difficulty=pb.msg.DIFFICULTY_HARD, minimal=True), timeout=60))
    assert alone[0].puzzle == first[3].puzzle


def test_generate_in_a_rating_range(pb, stub):
    req = pb.msg.GenerateRequest(count=5, seed=11, minimal=True, min_rating=2.5, max_rating=4.5)
    for a in stub.Generate(req, timeout=60):
        assert 2.5 <= a.rating <= 4.5, a
        graded = stub.Grade(pb.msg.GradeRequest(puzzle=a.puzzle), timeout=10)
        assert graded.rating == a.rating
    with pytest.raises(grpc.RpcError) as err:
        list(stub.Generate(pb.msg.GenerateRequest(min_rating=6, max_rating=3), timeout=10))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "max_rating" in err.value.details()


def test_generate_quarter_turn_on_six_is_invalid(pb, stub):
    with pytest.raises(grpc.RpcError) as err:
        list(stub.Generate(pb.msg.GenerateRequest(box_rows=2, box_cols=3,
                                                  symmetry=pb.msg.SYMMETRY_ROTATE_90), timeout=10))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "square boxes" in err.value.details()
