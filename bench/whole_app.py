#!/usr/bin/env python3
"""Whole-program cost of Strata's loader: runs the same program natively and
through `strata run`, alternating (A B A B ...) so that machine noise hits both
alike, and reports the median wall time of each and their ratio.

usage: whole_app.py [--runs N] [--build DIR] [-- PROGRAM ARGS...]
Without a program it measures each sample app (300 frames, 640x480).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(strata, program, runs):
    native, through = [], []
    timed(program)  # warm caches (shader cache, page cache) before measuring
    for _ in range(runs):
        native.append(timed(program))
        through.append(timed([strata, "run", "--"] + program))
    n, s = statistics.median(native), statistics.median(through)
    print(f"{os.path.basename(program[0]):16s} native {n * 1000:8.1f} ms   strata {s * 1000:8.1f} ms   "
          f"ratio {s / n:.3f}   (medians of {runs}; spread native {min(native) * 1000:.0f}-{max(native) * 1000:.0f} ms, "
          f"strata {min(through) * 1000:.0f}-{max(through) * 1000:.0f} ms)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    strata = os.path.join(args.build, "bin", "strata")
    if not os.access(strata, os.X_OK):
        sys.exit(f"whole_app.py: error: {strata} not found; build first (scripts/build.sh)")
    program = [a for a in args.program if a != "--"]
    if program:
        measure(strata, program, args.runs)
        return
    for app in ("gles1_cube", "gles2_shaders", "gles3_instanced"):
        measure(strata, [os.path.join(args.build, "bin", app), "--frames", "300", "--size", "640x480"], args.runs)


if __name__ == "__main__":
    main()
