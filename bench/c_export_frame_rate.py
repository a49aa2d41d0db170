#!/usr/bin/env python3
"""The program `strata export --format c` makes of a trace against `strata
replay --benchmark` of the same trace: each workload is traced once,
exported and built (cmake, the system's compiler), then round by round the
exported program and the replay run in turn (in a random order within the
round). Both report their frame rate over the frames after the first (the
first holds the setup and the shader compiles). Reported per workload: the
median of the paired ratios, exported program over replay (above 1: the
program is faster), with `strata replay` run with --no-check as well as with
its self-check (as a user runs it); the replay preloads the trace, or with
--from-file reads it as it runs.

Workloads: call_mix's modes (bench/workloads/call_mix.cpp: `draws`, the
small-draw mix; `cheap`, 30,000 state calls a frame; `upload`, 16 x 256 KiB
texture uploads a frame), and `glmark2`, glmark2-es2's build (client arrays),
texture and shading scenes at 320x240 (needs an X server: run it under
xvfb-run).

Every process runs with MALLOC_TOP_PAD_=268435456 (the script sets it): on
this VM llvmpipe's page faults otherwise dominate draw-heavy runs.

A workload may carry its own frame count (`cheap:10`): every call becomes a
line of C, so a call-heavy trace makes a large program to build.

usage: c_export_frame_rate.py [--rounds N] [--frames N] [--workloads draws,cheap:10,upload,glmark2]
                              [--from-file] [--build DIR]
"""

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile


def run(argv, env, cwd=None):
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    if result.returncode != 0:
        sys.exit(f"c_export_frame_rate.py: error: {' '.join(argv)} failed (exit {result.returncode}):\n"
                 f"{result.stdout}\n{result.stderr}")
    return result.stdout


def number(pattern, text, argv):
    match = re.search(pattern, text, re.MULTILINE)
    if not match:
        sys.exit(f"c_export_frame_rate.py: error: no '{pattern}' in the output of {' '.join(argv)}:\n{text}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--frames", type=int, default=200, help="frames of each call_mix workload")
    parser.add_argument("--workloads", default="draws,cheap,upload")
    parser.add_argument("--from-file", action="store_true",
                        help="replay with --from-file (reading the trace as it runs; by default --benchmark preloads it)")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    args = parser.parse_args()
    if args.rounds < 1 or args.frames < 2:
        sys.exit("c_export_frame_rate.py: error: --rounds must be at least 1 and --frames at least 2")
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    strata = os.path.join(args.build, "bin", "strata")
    call_mix = os.path.join(args.build, "bin", "call_mix")
    for path in (strata, call_mix):
        if not os.access(path, os.X_OK):
            sys.exit(f"c_export_frame_rate.py: error: {path} is not built (scripts/build.sh)")
    with tempfile.TemporaryDirectory(prefix="strata-bench-") as tmp:
        for item in args.workloads.split(","):
            workload, _, count = item.partition(":")
            frames = int(count) if count else args.frames
            if workload == "glmark2":
                program = ["glmark2-es2", "-s", "320x240", "-b", "build:use-vbo=false:duration=1", "-b",
                           "texture:duration=1", "-b", "shading:duration=1"]
            else:
                program = [call_mix, "--mode", workload, "--frames", str(frames)]
            trace = os.path.join(tmp, workload + ".strace")
            source = os.path.join(tmp, workload)
            print(f"{workload}: tracing, exporting and building", file=sys.stderr, flush=True)
            run([strata, "trace", "-o", trace, "--"] + program, env)
            run([strata, "export", "--format", "c", trace, "-o", source], env)
            run(["cmake", "-S", source, "-B", source + "/build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"], env)
            run(["cmake", "--build", source + "/build"], env)
            exported = [os.path.join(source, "build", workload)]
            source = ["--from-file"] if args.from_file else []
            replays = {"self-check": [strata, "replay", "--benchmark"] + source + [trace],
                       "no-check": [strata, "replay", "--benchmark", "--no-check"] + source + [trace]}
            ratios = {name: [] for name in replays}
            for round_number in range(args.rounds):
                print(f"{workload}: round {round_number + 1} of {args.rounds}", file=sys.stderr, flush=True)
                order = [exported] + list(replays.values())
                random.shuffle(order)
                outputs = {id(argv): run(argv, env) for argv in order}
                ours = number(r"([0-9.]+) frames/s from frame 1 on", outputs[id(exported)], exported)
                for name, replay in replays.items():
                    theirs = number(r"frames after the first \(no setup\): replay [0-9.]+ s, ([0-9.]+) fps",
                                    outputs[id(replay)], replay)
                    ratios[name].append(ours / theirs)
            summary = ", ".join(f"against replay ({name}) {statistics.median(r):.2f}x ({min(r):.2f}-{max(r):.2f})"
                                for name, r in ratios.items())
            print(f"{item} ({args.rounds} rounds): exported program's frame rate after the first frame, "
                  f"median of paired ratios: {summary}")


if __name__ == "__main__":
    main()
