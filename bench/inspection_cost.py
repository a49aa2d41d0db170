#!/usr/bin/env python3
"""What the replay's inspection tools cost (docs/inspect.md), whole processes,
in paired rounds (bench/paired_runs.py: each run beside its baseline, the
pair in a random order), medians:

  pixel history   `strata pixel` of one pixel of a 1,000-draw frame
                  (trace_workload --mode draws --draws 1000) against
                  `strata replay --frames` of that frame alone
  GPU times       `strata replay --gpu-times FILE` against the same replay
                  without it, on the draw-heavy workload (2,000 draws a
                  frame), the cheap-call workload (one draw a frame) and
                  gles2_shaders

Every measured process runs with MALLOC_TOP_PAD_=268435456.

usage: inspection_cost.py [--rounds N] [--build DIR]
"""

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_runs import paired_rounds  # noqa: E402

ENV = dict(os.environ, MALLOC_TOP_PAD_="268435456")


def timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def report(title, baseline_name, natives, values, ratios):
    print(f"{title}:")
    print(f"  {baseline_name:40s} {statistics.median(natives):7.3f} s")
    for name in values:
        print(f"  {name:40s} {statistics.median(values[name]):7.3f} s   {statistics.median(ratios[name]):5.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    strata = os.path.join(bin_dir, "strata")
    workload = os.path.join(bin_dir, "trace_workload")
    tmp = tempfile.mkdtemp(prefix="strata-inspection-bench-")
    atexit.register(shutil.rmtree, tmp, True)  # also when a run fails

    def trace(name, program):
        path = os.path.join(tmp, name + ".strace")
        subprocess.run([strata, "trace", "-o", path, "--"] + program, check=True, capture_output=True, env=ENV)
        return path

    # Pixel history of a 1,000-draw frame.
    frame = trace("draws1000", [workload, "--mode", "draws", "--draws", "1000", "--frames", "3"])
    result = subprocess.run([strata, "pixel", frame, "--frame", "1", "--at", "128,128"], check=True,
                            capture_output=True, text=True, env=ENV)
    print("pixel history:", result.stderr.strip().splitlines()[-1])
    natives, values, ratios = paired_rounds(
        {"strata pixel --frame 1 --at 128,128": [strata, "pixel", frame, "--frame", "1", "--at", "128,128"]},
        timed, [strata, "replay", "--no-check", "--frames", "1", frame], args.rounds, "pixel history")
    report("pixel history of a 1,000-draw frame (trace_workload --mode draws --draws 1000 --frames 3)",
           "strata replay --no-check --frames 1", natives, values, ratios)

    # GPU times.
    times = os.path.join(tmp, "times.gpu")
    for name, program in {
        "draw-heavy (trace_workload draws, 2,000 draws a frame, 20 frames)": [workload, "--mode", "draws", "--frames", "20"],
        "cheap calls (trace_workload cheap, 20 frames, 1 draw a frame)": [workload, "--mode", "cheap", "--frames", "20"],
        "gles2_shaders, 300 frames": [os.path.join(bin_dir, "gles2_shaders"), "--frames", "300"],
    }.items():
        path = trace("gpu", program)
        natives, values, ratios = paired_rounds(
            {"strata replay --no-check --gpu-times": [strata, "replay", "--no-check", "--gpu-times", times, path]},
            timed, [strata, "replay", "--no-check", path], args.rounds, name)
        report(name, "strata replay --no-check", natives, values, ratios)
        os.remove(path)
    os.remove(frame)
    if os.path.exists(times):
        os.remove(times)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
