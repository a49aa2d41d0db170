#!/usr/bin/env python3
"""Tracing overhead: the same workload natively, traced by Strata (default:
state-setting calls untimed), traced by Strata with every call timed
(`--timing all`), traced by apitrace (`apitrace trace --api egl`), and run
traceable but switched off (`strata run`, attachable by default), reporting times,
ratios to native, and trace sizes.

Each configuration runs right next to a native run of its own (the two in a
random order, and the configurations in a random order within a round): this
machine's speed changes from run to run (the native cheap workload takes
31 ms in one run and 53 ms in the next), so the headline figure is the median
of the ratios of those pairs, each measured side by side. The median times
and the ratio of the fastest runs are printed as well.

The time is what the workload prints for its frame loop (process start and
driver loading excluded); sizes are those of the last round's files.

With --compare DIR (another build tree, e.g. a copy of the build before a
change, or one built with an experimental patch) its `strata trace` runs as
one more configuration in the same rounds, so tracer versions are compared
side by side. --compare may be given several times; --only-strata leaves out
apitrace and the switched-off run, for quicker A/B rounds between builds.

usage: trace_overhead.py [--rounds N] [--frames N] [--modes cheap,draws] [--build DIR]
                         [--compare DIR ...] [--only-strata]
"""

import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from paired_runs import paired_rounds


def run(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"frames in ([0-9.]+) s", out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--modes", default="cheap,draws")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--compare", action="append", default=[],
                        help="another build tree whose `strata trace` runs alongside (repeatable)")
    parser.add_argument("--only-strata", action="store_true",
                        help="run only native and the Strata tracers (no apitrace, no switched-off run)")
    args = parser.parse_args()
    strata = os.path.join(args.build, "bin", "strata")
    workload = os.path.join(args.build, "bin", "trace_workload")
    tmp = tempfile.mkdtemp(prefix="strata-trace-bench-")
    atexit.register(shutil.rmtree, tmp, True)  # also when a run fails
    for mode in args.modes.split(","):
        program = [workload, "--mode", mode, "--frames", str(args.frames)]
        files = {"strata": os.path.join(tmp, f"{mode}.strace"),
                 "timing all": os.path.join(tmp, f"{mode}-timing-all.strace")}
        configs = {
            "strata": [strata, "trace", "-o", files["strata"], "--"] + program,
            # Every call timed, state-setting ones included.
            "timing all": [strata, "trace", "--timing", "all", "-o", files["timing all"], "--"] + program,
        }
        if not args.only_strata:
            files["apitrace"] = os.path.join(tmp, f"{mode}.trace")
            configs["apitrace"] = ["apitrace", "trace", "--api", "egl", "-o", files["apitrace"]] + program
            # Traceable but switched off: the trace layer is loaded, nothing is recorded.
            configs["strata off"] = [strata, "run", "--"] + program
        for number, directory in enumerate(args.compare, 1):
            label = f"compare {number}" if len(args.compare) > 1 else "compare"
            files[label] = os.path.join(tmp, f"{mode}-compare{number}.strace")
            configs[label] = [os.path.join(directory, "bin", "strata"), "trace", "-o", files[label], "--"] + program

        run(program)  # warm the shader cache
        natives, times, ratios = paired_rounds(configs, run, program, args.rounds, mode)

        print(f"{mode} workload ({args.frames} frames, {args.rounds} rounds, each run paired with a native run):")
        print(f"  {'':10s} {'median':>10s}   {'paired ratio':>12s}   {'fastest runs':>12s}")
        print(f"  {'native':10s} {statistics.median(natives) * 1000:7.1f} ms   {'':12s}   "
              f"{min(natives) * 1000:9.1f} ms")
        for name, values in times.items():
            print(f"  {name:10s} {statistics.median(values) * 1000:7.1f} ms   "
                  f"{statistics.median(ratios[name]):11.2f}x   {min(values) / min(natives):11.2f}x")
        print("  trace sizes: " + ", ".join(f"{name} {os.path.getsize(path) / 1024:.0f} KiB"
                                             for name, path in files.items()))


if __name__ == "__main__":
    main()
