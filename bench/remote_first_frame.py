#!/usr/bin/env python3
"""How long a remote client takes from its start to its first frame: the
renderer's part is the connection's hand-over and, without an idle worker,
a worker's start-up (its driver loaded). Compares two builds (--build and
--compare, e.g. a checkout of an earlier commit built in another tree), each
with a renderer of its own, in interleaved rounds.

Each run is `strata run --remote ADDRESS -- trace_workload --mode MODE
--frames 1` (--build's trace_workload for both); its time is from the launch to the end of its one frame
(trace_workload prints the frame loop's end on CLOCK_MONOTONIC), so it holds
strata run's own checks, EGL set-up, connecting, the handshake and the frame.
Every process runs with MALLOC_TOP_PAD_=268435456.

usage: remote_first_frame.py --build DIR --compare DIR [--rounds N] [--mode MODE] [--pause SECONDS]
                             [--renderer-args "ARGS"] [--compare-renderer-args "ARGS"]
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

LOOP_END = re.compile(r"monotonic [0-9.]+ to ([0-9.]+)\)")


def fail(message):
    print(f"remote_first_frame: error: {message}", file=sys.stderr)
    sys.exit(1)


def environment():
    return dict(os.environ, MALLOC_TOP_PAD_="268435456")


class Renderer:
    def __init__(self, build, workload, extra, tmp, name):
        self.strata = os.path.join(build, "bin", "strata")
        self.workload = workload
        for path in (self.strata, self.workload):
            if not os.access(path, os.X_OK):
                fail(f"{path} is missing: build that tree first")
        self.address = f"unix:@strata-first-frame-{os.getpid()}-{name}"
        self.log = os.path.join(tmp, f"serve-{name}.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([self.strata, "serve", "--listen", self.address] + extra.split(),
                                            stdout=log, stderr=log, env=environment())
        deadline = time.time() + 60
        while "listening on" not in open(self.log).read():
            if self.process.poll() is not None or time.time() > deadline:
                fail(f"strata serve of {build} did not start: " + open(self.log).read())
            time.sleep(0.05)

    def first_frame(self, mode):
        launched = time.monotonic()
        result = subprocess.run([self.strata, "run", "--remote", self.address, "--", self.workload, "--mode", mode,
                                 "--frames", "1"], capture_output=True, text=True, env=environment(), timeout=120)
        match = LOOP_END.search(result.stdout)
        if result.returncode != 0 or match is None:
            fail(f"the client of {self.strata} failed: {result.stdout} {result.stderr}")
        return float(match.group(1)) - launched

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--compare", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--mode", default="draws")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="seconds between runs, for the renderer to start its next idle worker")
    parser.add_argument("--renderer-args", default="")
    parser.add_argument("--compare-renderer-args", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="strata-bench-") as tmp:
        # One workload for both (--build's: it prints its frame loop's times); the client
        # library and the renderer are each build's own.
        workload = os.path.join(args.build, "bin", "trace_workload")
        renderers = {"build": Renderer(args.build, workload, args.renderer_args, tmp, "build"),
                     "compare": Renderer(args.compare, workload, args.compare_renderer_args, tmp, "compare")}
        times = {name: [] for name in renderers}
        try:
            for round_number in range(args.rounds):
                print(f"remote_first_frame: round {round_number + 1} of {args.rounds}", file=sys.stderr, flush=True)
                for name in random.sample(list(renderers), 2):
                    times[name].append(renderers[name].first_frame(args.mode))
                    time.sleep(args.pause)  # the renderer starts its next idle worker meanwhile
        finally:
            for r in renderers.values():
                r.stop()
    ratios = [a / b for a, b in zip(times["build"], times["compare"])]
    print(f"launch to first frame ({args.mode}), medians of {args.rounds} rounds: "
          f"{args.build} {statistics.median(times['build']) * 1000:.1f} ms, "
          f"{args.compare} {statistics.median(times['compare']) * 1000:.1f} ms; "
          f"ratio {statistics.median(ratios):.3f}x")


if __name__ == "__main__":
    main()
