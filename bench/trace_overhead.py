#!/usr/bin/env python3
"""Tracing overhead: the same workload natively, traced by Strata (default:
state-setting calls untimed), traced by Strata with every call timed
(`--timing all`), traced by apitrace (`apitrace trace --api egl`), and run
traceable but switched off (`strata run --traceable`), interleaved round by
round, reporting median times, ratios to native, and trace sizes.

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
import os
import re
import statistics
import subprocess
import tempfile


def run(argv, env=None):
    out = subprocess.run(argv, check=True, capture_output=True, text=True, env=env).stdout
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
    for mode in args.modes.split(","):
        program = [workload, "--mode", mode, "--frames", str(args.frames)]
        strata_file = os.path.join(tmp, f"{mode}.strace")
        apitrace_file = os.path.join(tmp, f"{mode}.trace")
        times = {"native": [], "strata": [], "timing all": []}
        timed_file = os.path.join(tmp, f"{mode}-timing-all.strace")
        if not args.only_strata:
            times.update({"apitrace": [], "strata off": []})
        compares = {}
        for number, directory in enumerate(args.compare, 1):
            label = f"compare {number}" if len(args.compare) > 1 else "compare"
            compares[label] = (os.path.join(directory, "bin", "strata"), os.path.join(tmp, f"{mode}-compare{number}.strace"))
            times[label] = []
        run(program)  # warm the shader cache
        for _ in range(args.rounds):
            times["native"].append(run(program))
            times["strata"].append(run([strata, "trace", "-o", strata_file, "--"] + program))
            os.remove(strata_file) if _ < args.rounds - 1 else None
            # Every call timed, state-setting ones included (strata trace --timing all).
            times["timing all"].append(run([strata, "trace", "--timing", "all", "-o", timed_file, "--"] + program))
            if not args.only_strata:
                times["apitrace"].append(run(["apitrace", "trace", "--api", "egl", "-o", apitrace_file] + program))
                # Traceable but switched off: the trace layer is loaded, nothing is recorded.
                times["strata off"].append(run([strata, "run", "--traceable", "--"] + program))
            for label, (compare_strata, compare_file) in compares.items():
                times[label].append(run([compare_strata, "trace", "-o", compare_file, "--"] + program))
        native = statistics.median(times["native"])
        print(f"{mode} workload ({args.frames} frames, medians of {args.rounds} interleaved rounds):")
        for name, values in times.items():
            m = statistics.median(values)
            print(f"  {name:10s} {m * 1000:9.1f} ms   {m / native:5.2f}x native")
        sizes = [f"strata {os.path.getsize(strata_file) / 1024:.0f} KiB",
                 f"timing all {os.path.getsize(timed_file) / 1024:.0f} KiB"]
        if not args.only_strata:
            sizes.append(f"apitrace {os.path.getsize(apitrace_file) / 1024:.0f} KiB")
        sizes += [f"{label} {os.path.getsize(path) / 1024:.0f} KiB" for label, (_, path) in compares.items()]
        print("  trace sizes: " + ", ".join(sizes))


if __name__ == "__main__":
    main()
