#!/usr/bin/env python3
"""Replay frame rate against the program's own: each
call_mix mode (bench/workloads/call_mix.cpp) is traced once, then round by
round the program and `strata replay --benchmark` of its trace run in turn
(in a random order within the round). The program times its own frame loop,
which leaves its setup out; the replay prints its whole run and the frames
after the first (the first frame holds the setup and the shader compiles).
The replay preloads the trace (what --benchmark does), or with --from-file
reads it as it runs. Reported per mode: the medians of the paired ratios of frame rates, replay
over program (above 1: the replay is faster), for the whole replay and for
the frames after the first.

Run every process with MALLOC_TOP_PAD_=268435456 (the script sets it): on
this VM llvmpipe's page faults otherwise dominate draw-heavy runs.

usage: replay_frame_rate.py [--rounds N] [--frames N] [--modes draws,cheap,...]
                            [--no-check] [--loop N] [--from-file] [--build DIR]
"""

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile


def run(argv, env):
    result = subprocess.run(argv, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"replay_frame_rate.py: error: {' '.join(argv)} failed (exit {result.returncode}):\n{result.stderr}")
    return result.stdout


def number(pattern, text, argv):
    match = re.search(pattern, text, re.MULTILINE)
    if not match:
        sys.exit(f"replay_frame_rate.py: error: no '{pattern}' in the output of {' '.join(argv)}:\n{text}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--modes", default="draws,cheap,upload")
    parser.add_argument("--no-check", action="store_true", help="replay with --no-check (no self-check)")
    parser.add_argument("--loop", type=int, default=1,
                        help="replay with --loop N (the loops after the first run from memory; the median is taken)")
    parser.add_argument("--from-file", action="store_true",
                        help="replay with --from-file (the trace read from the file as the replay runs; "
                             "without it --benchmark preloads the trace, and the preloading is not timed)")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    args = parser.parse_args()
    if args.rounds < 1 or args.frames < 2:
        sys.exit("replay_frame_rate.py: error: --rounds must be at least 1 and --frames at least 2")
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    strata = os.path.join(args.build, "bin", "strata")
    call_mix = os.path.join(args.build, "bin", "call_mix")
    for path in (strata, call_mix):
        if not os.access(path, os.X_OK):
            sys.exit(f"replay_frame_rate.py: error: {path} is not built (scripts/build.sh)")
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            program = [call_mix, "--mode", mode, "--frames", str(args.frames)]
            trace = os.path.join(tmp, mode + ".strace")
            run([strata, "trace", "-o", trace, "--"] + program, env)
            replay = ([strata, "replay", "--benchmark"] + (["--no-check"] if args.no_check else []) +
                      (["--loop", str(args.loop)] if args.loop > 1 else []) +
                      (["--from-file"] if args.from_file else []) + [trace])
            whole, steady = [], []
            for round_number in range(args.rounds):
                print(f"{mode}: round {round_number + 1} of {args.rounds}", file=sys.stderr, flush=True)
                order = [program, replay]
                random.shuffle(order)
                outputs = {id(argv): run(argv, env) for argv in order}
                program_fps = args.frames / number(r"calls in ([0-9.]+) s", outputs[id(program)], program)
                text = outputs[id(replay)]
                whole.append(number(r"^replay: [0-9.]+ s, ([0-9.]+) fps", text, replay) / program_fps)
                steady.append(number(r"frames after the first \(no setup\): replay [0-9.]+ s, ([0-9.]+) fps", text,
                                     replay) / program_fps)
            print(f"{mode} ({args.frames} frames, {args.rounds} rounds): replay over program, median of paired "
                  f"frame-rate ratios: whole run {statistics.median(whole):.3f}x "
                  f"({min(whole):.3f}-{max(whole):.3f}), frames after the first "
                  f"{statistics.median(steady):.3f}x ({min(steady):.3f}-{max(steady):.3f})")


if __name__ == "__main__":
    main()
