#!/usr/bin/env python3
"""What the executor's input checks cost a replay: the same traces replayed by
two builds of `strata` (say, before and after a change to the checks), in
interleaved rounds (A B A B ...), each replay a whole process. Reported: the
median wall time of each build per workload and the paired ratio (after /
before, per round, then the median): 1.02 means 2 % slower.

Each workload is traced once, by the `after` build; both builds read the
same file. Run every measured process with MALLOC_TOP_PAD_=268435456 (set
here unless already set), as docs/benchmarks.md says.

usage: check_cost.py --before BUILD_DIR --after BUILD_DIR [--rounds N]
"""

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="build directory of the build before the change")
    parser.add_argument("--after", required=True, help="build directory of the build after it")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("MALLOC_TOP_PAD_", "268435456")
    before = os.path.join(args.before, "bin", "strata")
    after = os.path.join(args.after, "bin", "strata")
    for binary in (before, after):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not built")
    bin_dir = os.path.join(args.after, "bin")
    workloads = {
        "draw-heavy (trace_workload draws, 40 frames)": [os.path.join(bin_dir, "trace_workload"), "--mode", "draws",
                                                         "--frames", "40"],
        "uploads (trace_workload upload, 30 frames)": [os.path.join(bin_dir, "trace_workload"), "--mode", "upload",
                                                       "--frames", "30"],
        "cheap calls (trace_workload cheap, 30 frames)": [os.path.join(bin_dir, "trace_workload"), "--mode", "cheap",
                                                          "--frames", "30"],
        "gles3_instanced, 300 frames": [os.path.join(bin_dir, "gles3_instanced"), "--frames", "300"],
    }
    tmp = tempfile.mkdtemp(prefix="strata-check-cost-")
    atexit.register(shutil.rmtree, tmp, True)  # also when a run fails
    for name, program in workloads.items():
        trace = os.path.join(tmp, "w.strace")
        subprocess.run([after, "trace", "-o", trace, "--"] + program, check=True, capture_output=True)
        runs = {"before": [before, "replay", trace], "after": [after, "replay", trace]}
        for argv in runs.values():
            timed(argv)  # warm caches
        times = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, argv in runs.items():
                times[key].append(timed(argv))
        ratios = [a / b for a, b in zip(times["after"], times["before"])]
        print(f"{name} (medians of {args.rounds} interleaved rounds):")
        for key, values in times.items():
            print(f"  {key:7s} {statistics.median(values):7.3f} s")
        print(f"  after / before, paired: {statistics.median(ratios):.3f} "
              f"(rounds: {' '.join(f'{r:.3f}' for r in ratios)})")
        os.remove(trace)


if __name__ == "__main__":
    main()
