"""Soak test: mixed traffic against one server on loopback for a bounded time, then a report.

Traffic, from several threads at once: unary solves (checked), bad puzzles (INVALID_ARGUMENT expected),
unary calls with tight deadlines, unary calls cancelled in flight, SolveBatch streams mixing good and bad
puzzles (every answer checked, in order), streams cancelled part-way, and streams with deadlines.

Prints requests sent, answers by verdict, errors by status code, p50/p99 latency, and the server's peak
RSS. Exits 1 if any request went unanswered, any answer was wrong, or any status was one that the traffic
cannot explain (UNAVAILABLE, INTERNAL, UNKNOWN...).

    python scripts/soak.py --addr 127.0.0.1:50051 --pid SERVER_PID --seconds 60 --puzzles FILE...
"""

import argparse
import collections
import random
import sys
import threading
import time
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from grids import solves  # noqa: E402

sys.path.insert(0, "proto")
pb, rpc = grpc.protos_and_services("sudoku/v1/sudoku.proto")

# The status codes each kind of call may end with, besides OK.
EXPECTED = {
    "unary": set(),
    "bad": {grpc.StatusCode.INVALID_ARGUMENT},
    "deadline": {grpc.StatusCode.DEADLINE_EXCEEDED},
    "cancel": {grpc.StatusCode.CANCELLED},
    "batch": set(),
    "batch_cancel": {grpc.StatusCode.CANCELLED},
    "batch_deadline": {grpc.StatusCode.DEADLINE_EXCEEDED},
}
# Overload may refuse a unary call at any time; that is an answer, not a loss.
ALWAYS_OK = {grpc.StatusCode.RESOURCE_EXHAUSTED}




class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = collections.Counter()
        self.verdicts = collections.Counter()
        self.codes = collections.Counter()
        self.latencies = []
        self.failures = []

    def record(self, kind, started, verdicts=(), code=grpc.StatusCode.OK, failure=None, error=None):
        with self.lock:
            self.sent[kind] += 1
            self.latencies.append(time.monotonic() - started)
            self.verdicts.update(verdicts)
            self.codes[code.name] += 1
            if code != grpc.StatusCode.OK and code not in EXPECTED[kind] | ALWAYS_OK:
                details = f" ({error.details()})" if error is not None else ""
                self.failures.append(f"{kind}: unexpected status {code.name}{details}")
            if failure:
                self.failures.append(f"{kind}: {failure}")


def check_answer(puzzle, answer):
    name = pb.Verdict.Name(answer.verdict)
    if name != "VERDICT_UNIQUE":
        return name, f"verdict {name} for {puzzle}"
    if not solves(puzzle, answer.solution):
        return name, f"wrong solution {answer.solution} for {puzzle}"
    return name, None


def unary(stub, tally, puzzles, rng):
    puzzle = rng.choice(puzzles)
    started = time.monotonic()
    try:
        answer = stub.Solve(pb.SolveRequest(puzzle=puzzle), timeout=30)
        verdict, failure = check_answer(puzzle, answer)
        tally.record("unary", started, [verdict], failure=failure)
    except grpc.RpcError as err:
        tally.record("unary", started, code=err.code(), error=err)


def bad(stub, tally, puzzles, rng):
    puzzle = rng.choice(["x" * 81, "1" * 81, "12", rng.choice(puzzles)[:80] + "?"])
    started = time.monotonic()
    try:
        stub.Solve(pb.SolveRequest(puzzle=puzzle), timeout=30)
        tally.record("bad", started, failure=f"no error for {puzzle!r}")
    except grpc.RpcError as err:
        failure = None if err.details() else "an error with no message"
        tally.record("bad", started, code=err.code(), error=err, failure=failure)


def deadline(stub, tally, puzzles, rng):
    puzzle = rng.choice(puzzles)
    started = time.monotonic()
    try:
        answer = stub.Solve(pb.SolveRequest(puzzle=puzzle), timeout=rng.choice([0.0005, 0.002, 0.01]))
        verdict, failure = check_answer(puzzle, answer)
        tally.record("deadline", started, [verdict], failure=failure)
    except grpc.RpcError as err:
        tally.record("deadline", started, code=err.code(), error=err)


def cancel(stub, tally, puzzles, rng):
    started = time.monotonic()
    future = stub.Solve.future(pb.SolveRequest(puzzle=rng.choice(puzzles)), timeout=30)
    future.cancel()
    try:
        future.result()
        tally.record("cancel", started)
    except grpc.FutureCancelledError:
        tally.record("cancel", started, code=grpc.StatusCode.CANCELLED)
    except grpc.RpcError as err:
        tally.record("cancel", started, code=err.code(), error=err)


def batch(stub, tally, puzzles, rng, kind="batch"):
    items = [rng.choice(puzzles) for _ in range(rng.randint(1, 400))]
    for i in range(0, len(items), 37):
        items[i] = "not a puzzle"
    requests = (pb.SolveBatchRequest(id=f"i{i}", puzzle=p) for i, p in enumerate(items))
    timeout = rng.choice([0.005, 0.02]) if kind == "batch_deadline" else 60
    started = time.monotonic()
    call = stub.SolveBatch(requests, timeout=timeout)
    verdicts, failure, error, seen = [], None, None, 0
    stop_after = rng.randint(1, len(items)) if kind == "batch_cancel" else None
    try:
        for answer in call:
            if answer.index != seen or answer.id != f"i{seen}":
                failure = failure or f"answer {answer.index}/{answer.id} where {seen} was due"
            puzzle = items[seen]
            if puzzle == "not a puzzle":
                verdict = pb.Verdict.Name(answer.verdict)
                if verdict != "VERDICT_INVALID" or not answer.error:
                    failure = failure or f"bad item answered {verdict}"
            else:
                verdict, problem = check_answer(puzzle, answer)
                failure = failure or problem
            verdicts.append(verdict)
            seen += 1
            if stop_after is not None and seen >= stop_after:
                call.cancel()
        code = grpc.StatusCode.OK
        if seen != len(items):
            failure = failure or f"{seen} answers to {len(items)} requests"
    except grpc.RpcError as err:
        code, error = err.code(), err
    tally.record(kind, started, verdicts, code=code, failure=failure, error=error)


def worker(addr, tally, puzzles, until, seed):
    rng = random.Random(seed)
    kinds = [unary] * 6 + [bad, deadline, cancel, batch, batch]
    kinds += [lambda *a: batch(*a, kind="batch_cancel"), lambda *a: batch(*a, kind="batch_deadline")]
    while time.monotonic() < until:
        # A fresh channel now and then, as short-lived clients do.
        with grpc.insecure_channel(addr) as channel:
            stub = rpc.SudokuServiceStub(channel)
            for _ in range(50):
                if time.monotonic() >= until:
                    break
                rng.choice(kinds)(stub, tally, puzzles, rng)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addr", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's pid, for its peak RSS")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--puzzles", nargs="+", required=True)
    args = parser.parse_args()
    if not args.addr.startswith(("127.", "localhost", "[::1]")):
        sys.exit("soak targets loopback only")

    puzzles = []
    for path in args.puzzles:
        with open(path) as f:
            puzzles += [line.strip() for line in f if line.strip() and not line.startswith("#")]
    tally = Tally()
    until = time.monotonic() + args.seconds
    threads = [
        threading.Thread(target=worker, args=(args.addr, tally, puzzles, until, seed), daemon=True)
        for seed in range(args.threads)
    ]
    for t in threads:
        t.start()
    for t in threads:
        # Bounded: each call has its own timeout; give the last ones time to end.
        t.join(timeout=args.seconds + 120)
    if any(t.is_alive() for t in threads):
        tally.failures.append("a worker did not finish: a request went unanswered")

    latencies = sorted(tally.latencies)
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0
    print(f"soak: {args.seconds:.0f} s, {args.threads} threads, {len(puzzles)} puzzles to draw from")
    print(f"requests sent: {sum(tally.sent.values())}  " + ", ".join(f"{k} {v}" for k, v in sorted(tally.sent.items())))
    print("answers by verdict: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.verdicts.items())))
    print("calls by status code: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.codes.items())))
    print(f"latency per call: p50 {pct(0.5):.2f} ms, p99 {pct(0.99):.2f} ms")
    print(f"server peak RSS: {peak_rss_kib(args.pid) / 1024:.1f} MiB")
    for failure in tally.failures[:20]:
        print(f"FAILURE: {failure}")
    print(f"soak: {sum(tally.sent.values()) - len(tally.failures)} passed, {len(tally.failures)} failed")
    sys.exit(1 if tally.failures else 0)


if __name__ == "__main__":
    main()
