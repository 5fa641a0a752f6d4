#!/usr/bin/env python3
"""Three replicas of the server on loopback, Envoy in front of them, and work that outlives them.

    python3 scripts/replicas.py BIN ENVOY [--seconds S] [--rate R]

1. Unary calls through Envoy (deploy/envoy/envoy.yaml, pointed at the three) spread over all three.
2. `client --server A,B,C batch` (client-side round robin) spreads its items over all three.
3. A batch of hard puzzles fed to `client --server A,B,C batch -` at R puzzles a second for about S
   seconds, while the replicas are restarted one at a time (SIGTERM, drain, start again on the same
   port) and then one is killed outright; beside it a unary prober (`load unary`) calls through Envoy.
   Every answer must be correct, exactly once and in input order; the prober may fail only calls
   that were in flight on the killed replica.

With --bench, instead: the overhead figures from one run, direct against through Envoy (unary RPS,
p50, p99; SolveBatch boards/s) and one replica against three (`client batch` wall time).

Prints the figures (answers re-sent, unary calls and errors, p99) and exits non-zero on any failure.
Every wait is bounded; every process it starts is stopped on exit. Only loopback addresses are used.
"""

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from grids import solves  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HARD_SAMPLE = ROOT / "tests/data/forum_hardest_1905_11plus_sample.txt"
HARD_SET = ROOT.parent / "shared/data/forum_hardest_1905_11plus.txt"
EASY_SAMPLE = ROOT / "tests/data/17_clue_sample.txt"
GRACE = "3s"


def log(text):
    print(f"==> {text}", file=sys.stderr, flush=True)


def fail(text):
    print(f"FAIL: {text}", file=sys.stderr, flush=True)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def puzzles(path):
    lines = path.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]




class Replica:
    """One `serve` process on fixed loopback ports, which it keeps across restarts."""

    def __init__(self, binary, name):
        self.binary, self.name = binary, name
        self.port, self.metrics_port = free_port(), free_port()
        self.process = None

    @property
    def addr(self):
        return f"127.0.0.1:{self.port}"

    def start(self):
        env = dict(os.environ, RUST_LOG="info", SUDOKU_SHUTDOWN_GRACE=GRACE)
        self.process = subprocess.Popen(
            [self.binary, "serve", "--addr", self.addr,
             "--metrics-addr", f"127.0.0.1:{self.metrics_port}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        serving = threading.Event()

        def read():
            for line in self.process.stdout:
                if "serving sudoku.v1.SudokuService" in line:
                    serving.set()
        threading.Thread(target=read, daemon=True).start()
        if not serving.wait(30):
            fail(f"{self.name} did not start serving on {self.addr} within 30 s")

    def stop(self, sig):
        self.process.send_signal(sig)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail(f"{self.name} did not exit within 30 s of {sig.name}")

    def metric(self, series):
        """The value of a metric series (its name and labels as the text shows them); 0 if absent."""
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        text = urllib.request.urlopen(url, timeout=5).read().decode()
        for line in text.splitlines():
            if line.startswith(series + " "):
                return float(line.split()[-1])
        return 0.0


class Envoy:
    """Envoy with the shipped configuration, pointed at the replicas instead of the headless Service."""

    def __init__(self, envoy, replicas, workdir):
        self.port, self.admin = free_port(), free_port()
        config = (ROOT / "deploy/envoy/envoy.yaml").read_text()
        headless = re.search(r"( *)- endpoint:\n.*?socket_address: \{[^}]*\}\n", config, re.S)
        if not headless:
            fail("deploy/envoy/envoy.yaml has no endpoint to point at the replicas")
        indent = headless.group(1)
        endpoints = "".join(
            f"{indent}- endpoint:\n{indent}    address:\n{indent}      socket_address: "
            f"{{ address: 127.0.0.1, port_value: {r.port} }}\n" for r in replicas)
        config = config.replace(headless.group(0), endpoints)
        config = config.replace("type: STRICT_DNS", "type: STATIC")
        config = config.replace("port_value: 8080", f"port_value: {self.port}")
        config = config.replace("port_value: 9901", f"port_value: {self.admin}")
        config = config.replace("address: 0.0.0.0", "address: 127.0.0.1")
        path = Path(workdir) / "envoy.yaml"
        path.write_text(config)
        self.log = open(Path(workdir) / "envoy.log", "w")
        self.process = subprocess.Popen(
            [envoy, "-c", str(path), "--concurrency", "1", "--base-id", str(self.port),
             "-l", "warning"], stdout=self.log, stderr=subprocess.STDOUT)
        self.wait_healthy(len(replicas))

    def wait_healthy(self, count):
        """Waits until Envoy has health-checked `count` replicas as healthy."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                fail(f"envoy exited: see {self.log.name}")
            try:
                text = urllib.request.urlopen(
                    f"http://127.0.0.1:{self.admin}/clusters", timeout=2).read().decode()
                healthy = len(re.findall(r"^sudoku::[\d.:]+::health_flags::healthy$", text, re.M))
                if healthy >= count:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        fail(f"envoy did not see {count} healthy replicas within 30 s")

    @property
    def addr(self):
        return f"127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def share_check(replicas, series, before, total, what):
    """Each replica took at least half of a fair share of `total`, counted by `series`."""
    shares = [r.metric(series) - b for r, b in zip(replicas, before)]
    log(f"{what}: {', '.join(f'{r.name} {int(s)}' for r, s in zip(replicas, shares))}")
    for replica, share in zip(replicas, shares):
        if share < total / len(replicas) / 2:
            fail(f"{what}: {replica.name} took {int(share)} of {total}, less than half a fair share")


def run(binary, *args, timeout=120):
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        fail(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def unary_row(binary, server):
    """RPS, p50 and p99 of 5,000 unary calls from 8 concurrent clients."""
    out = run(binary, "load", "unary", "--server", server, "--requests", "5000",
              "--concurrency", "8", str(EASY_SAMPLE)).stdout
    cells = [c.strip() for c in next(l for l in out.splitlines() if re.match(r"\|\s*\d", l)).split("|")]
    return cells[3], cells[4], cells[5]


def batch_rate(binary, server, path):
    """SolveBatch boards/s over `path` (the median of load batch's rounds)."""
    out = run(binary, "load", "batch", "--server", server, str(path), timeout=600).stdout
    row = next(l for l in out.splitlines() if l.startswith("| ") and path.name in l)
    return row.split("|")[3].strip().split()[0]


def wall(binary, servers, path):
    """Seconds `client batch` takes over `path` spread over `servers`."""
    started = time.monotonic()
    run(binary, "client", "--server", servers, "batch", str(path), timeout=600)
    return time.monotonic() - started


def bench(binary, replicas, envoy, workdir):
    """The overhead figures: direct against Envoy, one replica against three."""
    hard = puzzles(HARD_SET if HARD_SET.exists() else HARD_SAMPLE)
    path = Path(workdir) / "hard.txt"
    path.write_text("\n".join(hard[:20000]) + "\n")
    direct, proxied = replicas[0].addr, envoy.addr
    print("| path | unary RPS | unary p50 | unary p99 | SolveBatch boards/s |")
    print("|---|---:|---:|---:|---:|")
    for name, server in [("direct, one replica", direct), ("through envoy, three replicas", proxied),
                         ("direct, one replica (again)", direct)]:
        rps, p50, p99 = unary_row(binary, server)
        print(f"| {name} | {rps} | {p50} | {p99} | {batch_rate(binary, server, path)} |")
    one = wall(binary, direct, path)
    three = wall(binary, ",".join(r.addr for r in replicas), path)
    print(f"client batch of {len(hard[:20000])} hard puzzles: one replica {one:.2f} s, "
          f"three replicas (client-side round robin) {three:.2f} s, on {os.cpu_count()} cores")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("envoy")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=int, default=20000)
    parser.add_argument("--bench", action="store_true", help="print the overhead figures only")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="replicas-")
    replicas = [Replica(args.binary, f"replica-{i + 1}") for i in range(3)]
    envoy = None
    try:
        for replica in replicas:
            replica.start()
        envoy = Envoy(args.envoy, replicas, workdir)
        servers = ",".join(r.addr for r in replicas)
        log(f"replicas {servers}, envoy on {envoy.addr}")
        if args.bench:
            bench(args.binary, replicas, envoy, workdir)
            return

        # 1. Unary calls through Envoy: balanced per request.
        solve_ok = 'sudoku_rpc_requests_total{method="Solve",code="Ok"}'
        before = [r.metric(solve_ok) for r in replicas]
        calls = 600
        run(args.binary, "load", "unary", "--server", envoy.addr, "--requests", str(calls),
            "--concurrency", "8", str(EASY_SAMPLE))
        share_check(replicas, solve_ok, before, calls, "unary calls through envoy")

        # 2. Client-side round robin: a batch's chunks over the three.
        unique = 'sudoku_puzzles_total{verdict="VERDICT_UNIQUE"}'
        before = [r.metric(unique) for r in replicas]
        easy = puzzles(EASY_SAMPLE)
        batch_in = Path(workdir) / "spread.txt"
        batch_in.write_text("\n".join(easy * max(1, 30000 // len(easy))) + "\n")
        spread = len(easy) * max(1, 30000 // len(easy))
        run(args.binary, "client", "--server", servers, "batch", str(batch_in))
        share_check(replicas, unique, before, spread, "batch items, client-side round robin")

        # 3. A long batch while replicas go away, and a unary prober through Envoy.
        hard = puzzles(HARD_SET if HARD_SET.exists() else HARD_SAMPLE)
        count = int(args.seconds * args.rate)
        feed = [hard[i % len(hard)] for i in range(count)]
        out_path = Path(workdir) / "answers.txt"
        err_path = Path(workdir) / "client.err"
        with open(out_path, "w") as out, open(err_path, "w") as err:
            # The batch's own story (streams opened, ended and failed; progress every 5 s) goes to
            # its stderr, which a failure prints.
            batch = subprocess.Popen(
                [args.binary, "client", "--server", servers, "batch", "-"],
                stdin=subprocess.PIPE, stdout=out, stderr=err, text=True,
                env=dict(os.environ, RUST_LOG="warn,sudoku_grpc::cli::client::batch=debug"))
            prober = subprocess.Popen(
                [args.binary, "load", "unary", "--server", envoy.addr, "--concurrency", "4",
                 "--duration", f"{int(args.seconds)}s", str(EASY_SAMPLE)],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

            def write_feed():
                started = time.monotonic()
                try:
                    for i, puzzle in enumerate(feed):
                        batch.stdin.write(puzzle + "\n")
                        if i % 100 == 99:
                            batch.stdin.flush()
                            ahead = started + (i + 1) / args.rate - time.monotonic()
                            if ahead > 0:
                                time.sleep(ahead)
                    batch.stdin.close()
                except BrokenPipeError:
                    pass
            feeder = threading.Thread(target=write_feed, daemon=True)
            feeder.start()

            events = []
            pause = args.seconds / 6
            for replica in replicas:
                time.sleep(pause)
                log(f"rolling restart: SIGTERM to {replica.name}")
                replica.stop(signal.SIGTERM)
                replica.start()
                envoy.wait_healthy(3)
                events.append(f"{replica.name} restarted")
            time.sleep(pause)
            log(f"killing {replicas[0].name} outright")
            replicas[0].stop(signal.SIGKILL)
            replicas[0].start()
            events.append(f"{replicas[0].name} killed and started again")

            feeder.join(timeout=args.seconds * 3 + 60)
            try:
                rc = batch.wait(timeout=120)
            except subprocess.TimeoutExpired:
                def items_held(replica):
                    try:
                        return f"{replica.metric('sudoku_batch_items_in_flight'):g}"
                    except OSError as e:
                        return f"unknown ({e})"
                held = ", ".join(f"{r.name} {items_held(r)}" for r in replicas)
                batch.kill()
                batch.wait()
                written = len(out_path.read_text().splitlines())
                fail(f"the batch did not finish within 120 s of its last puzzle: {written} of {count} "
                     f"answers written, the feeder {'blocked' if feeder.is_alive() else 'done'}, "
                     f"batch items the replicas hold: {held}; the client's stderr:\n"
                     f"{err_path.read_text()}")
            probe_out, _ = prober.communicate(timeout=args.seconds + 60)

        answers = out_path.read_text().splitlines()
        summary = err_path.read_text()
        if rc != 0:
            fail(f"client batch exited {rc}: {summary}")
        if len(answers) != count:
            fail(f"{len(answers)} answer lines for {count} puzzles: {summary}")
        wrong = sum(not solves(p, a) for p, a in zip(feed, answers))
        if wrong:
            fail(f"{wrong} of {count} answers do not solve their puzzle (or are out of order)")
        resent = re.search(r"(\d+) re-sent", summary)
        row = re.search(r"^\|[^\n]*\|\s*(\d+)\s*\|\s*$", probe_out, re.M)
        table = [line for line in probe_out.splitlines() if line.startswith("|")]
        print(f"replicas: {'; '.join(events)}")
        print(f"batch: {count} hard puzzles, every answer correct, once, in order; "
              f"answers re-sent: {resent.group(1) if resent else 0}")
        print("unary prober through envoy:")
        print("\n".join(table))
        errors = int(row.group(1)) if row else -1
        # Only calls in flight on the killed replica may fail: at most the prober's concurrency.
        if errors < 0 or errors > 4:
            fail(f"the unary prober saw {errors} errors (at most 4 may be in flight on the killed "
                 f"replica):\n{probe_out}")
        print(f"replicas: 3 passed, 0 failed")
    finally:
        if envoy:
            envoy.stop()
        for replica in replicas:
            if replica.process and replica.process.poll() is None:
                replica.process.kill()


if __name__ == "__main__":
    main()
