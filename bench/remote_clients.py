#!/usr/bin/env python3
"""Several remote clients at once on one renderer, against as many native
processes at once: does the renderer scale with its clients?

For each call shape (bench/workloads/trace_workload --mode MODE), each round
runs, in a random order:
  native    N trace_workload processes at once on the local driver
  remote    N clients at once through one `strata serve` (strata run --remote)
  one       a single remote client
and takes, for each, the span from the first client's frame loop starting
to the last one's ending (trace_workload prints its loop's monotonic times),
so that process start-up (the same for both sides' driver, plus strata run's
own checks) is left out; the whole wall time of each run is reported too.
The headline figures are medians over rounds of remote / native (the
renderer's cost when N clients share it; 1.0 = as fast as N native
processes) and remote / (N x one) (how it scales: N.0 = N times one
client's time, as on a machine with a single core for all).

Every process (the renderer too) runs with MALLOC_TOP_PAD_=268435456, as
docs/benchmarks.md asks.

usage: remote_clients.py [--clients N] [--rounds N] [--frames N] [--modes cheap,draws,...]
                         [--build DIR] [--renderer-args "ARGS"]
"""

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

MODES = ("cheap", "draws", "roundtrip", "geterror", "upload", "create", "saved", "matrices", "streaming")
LOOP = re.compile(r"frames in ([0-9.]+) s \(monotonic ([0-9.]+) to ([0-9.]+)\)")


def fail(message):
    print(f"remote_clients: error: {message}", file=sys.stderr)
    sys.exit(1)


def environment():
    return dict(os.environ, MALLOC_TOP_PAD_="268435456")


def run_at_once(argvs):
    """Starts every argv at once; (loop span, wall time) in seconds."""
    start = time.monotonic()
    processes = [subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment())
                 for a in argvs]
    loops = []
    for p, argv in zip(processes, argvs):
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            fail(f"{' '.join(argv)} exited with {p.returncode}: {err.strip()[-500:]}")
        match = LOOP.search(out)
        if match is None:
            fail(f"no frame loop times in the output of {' '.join(argv)}: {out.strip()}")
        loops.append((float(match.group(2)), float(match.group(3))))
    wall = time.monotonic() - start
    return max(end for _, end in loops) - min(begin for begin, _ in loops), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--modes", default="cheap,draws,roundtrip,geterror,upload,create")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--renderer-args", default="", help="more options for strata serve")
    args = parser.parse_args()
    modes = args.modes.split(",")
    for mode in modes:
        if mode not in MODES:
            fail(f"unknown mode '{mode}' ({', '.join(MODES)})")
    strata = os.path.join(args.build, "bin", "strata")
    workload = os.path.join(args.build, "bin", "trace_workload")
    for path in (strata, workload):
        if not os.access(path, os.X_OK):
            fail(f"{path} is missing: build first (bash scripts/build.sh)")

    address = f"unix:@strata-clients-bench-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="strata-bench-") as tmp:
        log = open(os.path.join(tmp, "serve.log"), "w")
        renderer = subprocess.Popen([strata, "serve", "--listen", address] + args.renderer_args.split(),
                                    stdout=log, stderr=log, env=environment())
        try:
            deadline = time.time() + 60
            while "listening on" not in open(log.name).read():
                if renderer.poll() is not None or time.time() > deadline:
                    fail("strata serve did not start: " + open(log.name).read())
                time.sleep(0.05)

            def workload_argv(mode):
                return [workload, "--mode", mode, "--frames", str(args.frames)]

            def remote_argv(mode):
                return [strata, "run", "--remote", address, "--"] + workload_argv(mode)

            n = args.clients
            configs = {
                "native": lambda m: [workload_argv(m)] * n,
                "remote": lambda m: [remote_argv(m)] * n,
                "one": lambda m: [remote_argv(m)],
            }
            results = {m: {c: [] for c in configs} for m in modes}
            for round_number in range(args.rounds):
                print(f"remote_clients: round {round_number + 1} of {args.rounds}", file=sys.stderr, flush=True)
                for mode in random.sample(modes, len(modes)):
                    for config in random.sample(list(configs), len(configs)):
                        results[mode][config].append(run_at_once(configs[config](mode)))
        finally:
            renderer.send_signal(signal.SIGTERM)
            renderer.wait(timeout=30)

    print(f"{n} clients at once, {args.frames} frames each, {args.rounds} rounds; medians "
          "(loop span: first loop start to last loop end; wall: whole processes)")
    print(f"{'mode':10} {'native':>9} {'remote':>9} {'one':>9} {'remote/native':>14} {'remote/one':>11} "
          f"{'wall native':>12} {'wall remote':>12}")
    for mode in modes:
        r = results[mode]
        span = {c: [s for s, _ in r[c]] for c in r}
        wall = {c: [w for _, w in r[c]] for c in r}
        vs_native = statistics.median(a / b for a, b in zip(span["remote"], span["native"]))
        vs_one = statistics.median(a / b for a, b in zip(span["remote"], span["one"]))
        print(f"{mode:10} {statistics.median(span['native']):8.3f}s {statistics.median(span['remote']):8.3f}s "
              f"{statistics.median(span['one']):8.3f}s {vs_native:13.2f}x {vs_one:10.2f}x "
              f"{statistics.median(wall['native']):11.3f}s {statistics.median(wall['remote']):11.3f}s")


if __name__ == "__main__":
    main()
