#!/usr/bin/env python3
"""Replay speed: each workload is run natively (the original), traced once by
Strata and once by apitrace (`apitrace trace --api egl`); then, round by
round, the original, `strata replay` of Strata's trace and `apitrace replay`
of apitrace's trace run interleaved. Reported: median wall time of each
process (start to exit, driver loading included for all three) and the
speed of each replay relative to the original (original time / replay time;
above 1 means the replay is faster).

Run it under an X server (apitrace's replayer opens windows; glmark2 needs
one): xvfb-run -a -s "-screen 0 1280x1024x24" bench/replay_speed.py

usage: replay_speed.py [--rounds N] [--build DIR]
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
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    strata = os.path.join(bin_dir, "strata")
    glmark2 = ["glmark2-es2", "-s", "320x240"]
    for scene in ("build:use-vbo=true", "texture", "shading:shading=phong", "bump", "pulsar", "desktop", "buffer"):
        glmark2 += ["-b", scene + ":duration=1"]
    workloads = {
        "gles2_shaders, 300 frames": [os.path.join(bin_dir, "gles2_shaders"), "--frames", "300"],
        "gles3_instanced, 300 frames": [os.path.join(bin_dir, "gles3_instanced"), "--frames", "300"],
        "draw-heavy (trace_workload draws, 40 frames)": [os.path.join(bin_dir, "trace_workload"), "--mode", "draws",
                                                         "--frames", "40"],
        "cheap calls (trace_workload cheap, 30 frames)": [os.path.join(bin_dir, "trace_workload"), "--mode", "cheap",
                                                          "--frames", "30"],
        "glmark2-es2, 7 scenes of 1 s, 320x240": glmark2,
    }
    tmp = tempfile.mkdtemp(prefix="strata-replay-bench-")
    atexit.register(shutil.rmtree, tmp, True)  # also when a run fails
    for name, program in workloads.items():
        strata_file = os.path.join(tmp, "w.strace")
        apitrace_file = os.path.join(tmp, "w.trace")
        subprocess.run([strata, "trace", "-o", strata_file, "--"] + program, check=True, capture_output=True)
        subprocess.run(["apitrace", "trace", "--api", "egl", "-o", apitrace_file] + program, check=True,
                       capture_output=True)
        runs = {
            "original": program,
            "strata replay": [strata, "replay", strata_file],
            "apitrace replay": ["apitrace", "replay", "-b", apitrace_file],
        }
        for argv in runs.values():
            timed(argv)  # warm caches
        times = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, argv in runs.items():
                times[key].append(timed(argv))
        original = statistics.median(times["original"])
        print(f"{name} (medians of {args.rounds} interleaved rounds):")
        for key, values in times.items():
            m = statistics.median(values)
            speed = "" if key == "original" else f"   {original / m:5.2f}x the original's speed"
            print(f"  {key:16s} {m:7.3f} s{speed}")
        os.remove(strata_file)
        os.remove(apitrace_file)


if __name__ == "__main__":
    main()
