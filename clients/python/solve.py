#!/usr/bin/env python3
"""Solve Sudoku puzzles with the sudoku-grpc service from Python: a small client to copy.

    pip install grpcio grpcio-tools
    python clients/python/solve.py '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
    python clients/python/solve.py --batch puzzles.txt          # one puzzle per line, streamed
    python clients/python/solve.py --server dns:///sudoku-grpc-headless.default.svc.cluster.local:50051 --batch -
    python clients/python/solve.py --grade PUZZLE       # or --hint PUZZLE, --canonicalize PUZZLE
    python clients/python/solve.py --generate 5         # five fresh puzzles, streamed
    python clients/python/solve.py --fpuzzles tests/data/variants/killer.json   # or its base64, or a link
    python clients/python/solve.py --grade --fpuzzles tests/data/variants/jigsaw.b64   # unit rules only
    python clients/python/solve.py --true-candidates --fpuzzles tests/data/variants/jigsaw.b64

The stubs are built from proto/ when the script starts (grpc.protos_and_services, from grpcio-tools),
so nothing generated is checked in; `--proto-dir` points at another copy of the proto folder. A `dns:///`
target with several addresses (a Kubernetes headless Service) is balanced per call with round_robin, and
a call that meets UNAVAILABLE (a pod gone or draining) is tried again: clients/service-config.json.
"""

import argparse
import pathlib
import sys

import grpc

DEFAULT_PROTO_DIR = pathlib.Path(__file__).resolve().parents[2] / "proto"
SERVICE_CONFIG = pathlib.Path(__file__).resolve().parents[1] / "service-config.json"


def channel_options(service_config=SERVICE_CONFIG):
    """Channel options for the service config: round_robin over every address a dns:/// name resolves
    to (one per pod behind a headless Service; with one address it behaves like pick_first), and
    calls retried on UNAVAILABLE, with backoff, up to 5 attempts."""
    return [
        ("grpc.service_config", service_config.read_text(encoding="utf-8")),
        ("grpc.enable_retries", 1),
    ]


def load_stubs(proto_dir):
    """Compile sudoku/v1/sudoku.proto in memory; returns (messages module, services module)."""
    sys.path.append(str(proto_dir))
    return grpc.protos_and_services("sudoku/v1/sudoku.proto")


def read_puzzles(path):
    """One puzzle per line; blank lines and # comments skipped. Yields (line number, puzzle)."""
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with stream:
        for number, line in enumerate(stream, start=1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield number, line


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("puzzle", nargs="?", help="a puzzle: 81 cells, digits for givens, . or 0 for blanks")
    parser.add_argument("--server", default="localhost:50051", help="gRPC target (default: %(default)s)")
    parser.add_argument("--batch", metavar="FILE", help="stream FILE (or - for stdin) through SolveBatch")
    rpc = parser.add_mutually_exclusive_group()
    rpc.add_argument("--grade", action="store_true", help="grade PUZZLE the way people solve it")
    rpc.add_argument("--hint", action="store_true", help="the next step for PUZZLE")
    rpc.add_argument("--canonicalize", action="store_true", help="the min-lex form of PUZZLE")
    rpc.add_argument("--generate", type=int, metavar="COUNT", help="generate COUNT fresh puzzles")
    rpc.add_argument(
        "--true-candidates",
        action="store_true",
        help="each cell's symbols over every solution of PUZZLE: where a setter's puzzle is still open",
    )
    parser.add_argument(
        "--fpuzzles",
        metavar="FILE|TEXT",
        help="a variant from f-puzzles (solved, or with --grade/--hint graded if its rules are units): "
        "a file holding its JSON, base64 or link, or that text",
    )
    parser.add_argument("--skip-uniqueness-check", action="store_true", help="stop at the first solution")
    parser.add_argument("--gzip", action="store_true", help="compress requests with gzip")
    parser.add_argument("--timeout", type=float, default=60.0, help="deadline in seconds (default: %(default)s)")
    parser.add_argument("--proto-dir", type=pathlib.Path, default=DEFAULT_PROTO_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.fpuzzles is not None:
        path = pathlib.Path(args.fpuzzles)
        args.fpuzzles = path.read_text(encoding="utf-8").strip() if path.is_file() else args.fpuzzles
    chosen = [args.puzzle is not None, args.batch is not None, args.fpuzzles is not None]
    if sum(chosen) != 1 and args.generate is None:
        parser.error("give either a PUZZLE, --fpuzzles FILE|TEXT or --batch FILE")

    pb, rpc = load_stubs(args.proto_dir)
    compression = grpc.Compression.Gzip if args.gzip else grpc.Compression.NoCompression
    with grpc.insecure_channel(args.server, options=channel_options(), compression=compression) as channel:
        stub = rpc.SudokuServiceStub(channel)
        try:
            if args.generate is not None:
                for reply in stub.Generate(pb.GenerateRequest(count=args.generate), timeout=args.timeout):
                    print(reply.puzzle, pb.Difficulty.Name(reply.difficulty), reply.rating)
                return 0
            if args.grade:
                request = pb.GradeRequest(puzzle=args.puzzle or "", fpuzzles=args.fpuzzles or "")
                reply = stub.Grade(request, timeout=args.timeout)
                # Sudoku Explainer's three numbers: ER (rating), EP (pearl), ED (diamond).
                print(pb.Verdict.Name(reply.verdict), pb.Difficulty.Name(reply.difficulty),
                      f"{reply.rating:.1f}/{reply.pearl_rating:.1f}/{reply.diamond_rating:.1f}")
                return 0
            if args.hint:
                request = pb.HintRequest(puzzle=args.puzzle or "", fpuzzles=args.fpuzzles or "")
                for step in stub.Hint(request, timeout=args.timeout).steps:
                    print(pb.Technique.Name(step.technique), step.explanation)
                return 0
            if args.canonicalize:
                reply = stub.Canonicalize(pb.CanonicalizeRequest(puzzle=args.puzzle), timeout=args.timeout)
                print(reply.canonical, reply.transform)
                return 0
            request = pb.SolveRequest(
                puzzle=args.puzzle or "",
                fpuzzles=args.fpuzzles or "",
                skip_uniqueness_check=args.skip_uniqueness_check,
            )
            if args.true_candidates:
                reply = stub.TrueCandidates(request, timeout=args.timeout)
                print(pb.Verdict.Name(reply.verdict))
                # One line per row; each cell's symbols, padded to the widest.
                side = round(len(reply.cells) ** 0.5)
                width = max((len(cell) for cell in reply.cells), default=0)
                for row in range(side):
                    print(" ".join(cell.ljust(width) for cell in reply.cells[row * side : (row + 1) * side]).rstrip())
                return 0
            if args.puzzle is not None or args.fpuzzles is not None:
                reply = stub.Solve(request, timeout=args.timeout)
                print(pb.Verdict.Name(reply.verdict), reply.solution)
                return 0

            requests = (
                pb.SolveBatchRequest(id=str(number), puzzle=puzzle, skip_uniqueness_check=args.skip_uniqueness_check)
                for number, puzzle in read_puzzles(args.batch)
            )
            counts = {}
            # Answers come back in request order, each as soon as the ones before it are done.
            for reply in stub.SolveBatch(requests, timeout=args.timeout):
                verdict = pb.Verdict.Name(reply.verdict)
                counts[verdict] = counts.get(verdict, 0) + 1
                print(reply.id, verdict, reply.solution or reply.error)
            print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no puzzles", file=sys.stderr)
            return 1 if "VERDICT_INVALID" in counts else 0
        except grpc.RpcError as err:
            print(f"error: {err.code().name}: {err.details()}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
