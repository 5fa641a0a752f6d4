"""Fixtures for the Python end-to-end tests: stubs generated from proto/ at test time, and a server.

The server is the one at $SUDOKU_TEST_ADDR (scripts/e2e-python.sh starts it), or else one this module
starts from $SUDOKU_BIN / target/{release,debug}/sudoku-grpc on a free loopback port and stops after.
"""

import importlib
import os
import pathlib
import socket
import subprocess
import sys
import time

import grpc
import pytest
from grpc_tools import protoc

ROOT = pathlib.Path(__file__).resolve().parents[3]
PROTO_DIR = ROOT / "proto"
DATA_DIR = ROOT / "tests" / "data"


@pytest.fixture(scope="session")
def pb(tmp_path_factory):
    """The generated modules, as a namespace: pb.msg (messages) and pb.rpc (stubs)."""
    out = tmp_path_factory.mktemp("gen")
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_DIR}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        "sudoku/v1/sudoku.proto",
    ]
    assert protoc.main(args) == 0, "protoc failed on proto/sudoku/v1/sudoku.proto"
    sys.path.insert(0, str(out))
    importlib.invalidate_caches()

    class Generated:
        msg = importlib.import_module("sudoku.v1.sudoku_pb2")
        rpc = importlib.import_module("sudoku.v1.sudoku_pb2_grpc")

    return Generated


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_bin():
    if os.environ.get("SUDOKU_BIN"):
        return os.environ["SUDOKU_BIN"]
    built = [p for p in (ROOT / "target/release/sudoku-grpc", ROOT / "target/debug/sudoku-grpc") if p.exists()]
    if not built:
        pytest.fail("no server: set SUDOKU_TEST_ADDR or SUDOKU_BIN, or cargo build")
    return str(max(built, key=lambda p: p.stat().st_mtime))


@pytest.fixture(scope="session")
def server_addr():
    """host:port of a running server."""
    if os.environ.get("SUDOKU_TEST_ADDR"):
        yield os.environ["SUDOKU_TEST_ADDR"]
        return
    addr = f"127.0.0.1:{_free_port()}"
    env = dict(os.environ, SUDOKU_METRICS_ADDR=f"127.0.0.1:{_free_port()}")
    proc = subprocess.Popen([_server_bin(), "serve", "--addr", addr], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, f"server exited with {proc.returncode}"
            try:
                socket.create_connection(addr.split(":"), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"server not listening on {addr}"
                time.sleep(0.1)
        yield addr
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def channel(server_addr):
    with grpc.insecure_channel(server_addr) as ch:
        grpc.channel_ready_future(ch).result(timeout=10)
        yield ch


@pytest.fixture(scope="session")
def stub(pb, channel):
    return pb.rpc.SudokuServiceStub(channel)


def read_puzzles(name, limit=None):
    puzzles = []
    for line in (DATA_DIR / name).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            puzzles.append(line)
    return puzzles[:limit]


def check_solution(puzzle, solution):
    """81 digits, every row, column and box a permutation of 1-9, every given kept."""
    assert len(solution) == 81 and solution.isdigit(), solution
    grid = [int(ch) for ch in solution]
    for i in range(9):
        assert sorted(grid[i * 9 : i * 9 + 9]) == list(range(1, 10)), f"row {i + 1}: {solution}"
        assert sorted(grid[i::9]) == list(range(1, 10)), f"column {i + 1}: {solution}"
        r, c = (i // 3) * 3, (i % 3) * 3
        box = [grid[(r + dr) * 9 + c + dc] for dr in range(3) for dc in range(3)]
        assert sorted(box) == list(range(1, 10)), f"box {i + 1}: {solution}"
    cells = [ch for ch in puzzle if ch not in " \t\r\n|-+,\"[]"]
    for i, ch in enumerate(cells):
        assert ch in ".0" or int(ch) == grid[i], f"given {ch} at cell {i} changed: {solution}"
