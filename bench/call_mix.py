#!/usr/bin/env python3
"""Pass-through and tracing cost on call mixes nobody tuned for (issue 19):
bench/workloads/call_mix.cpp (GLES 3: cheap, draws, upload, contexts) and
call_mix_gles1.cpp (gles1), each run natively, under `strata run
--no-attach` (the pass-through), under `strata run` (configuration
"attachable": the trace layer loaded, switched off), under `strata trace
--frames` of a range the run never reaches ("frames-waiting": the trace file
open, tracing switched off until the range), under `strata trace` and under
`apitrace trace --api egl`; configuration "native" pairs the program
with itself, to show the noise floor. "run-glvnd" and "trace-glvnd" are
`strata run --no-attach` and `strata trace` with STRATA_GLVND_DISPATCH=1:
GL calls through glvnd's stubs, as before Strata called Mesa's own entry
points (docs/benchmarks.md, "glvnd's hop").

Every configuration runs right next to a native run of its own, the two in a
random order and the configurations shuffled within a round, so that the
machine's drift between runs cancels: the headline is the median of those
paired ratios of calls per second (above 1 is faster than native). The
ratio of the fastest runs is printed beside it. The workload counts its own
calls and times only its frame loop.

Run every process with MALLOC_TOP_PAD_=268435456 (the script sets it): on
this VM llvmpipe's page faults otherwise dominate draw-heavy runs.

With --compare DIR (another build tree) its `strata run` and `strata trace`
join the same rounds, for before/after comparisons of a change.

usage: call_mix.py [--rounds N] [--frames N] [--modes cheap,draws,...]
                   [--configs native,run,attachable,frames-waiting,trace,trace-uncompressed,run-glvnd,trace-glvnd,
                              apitrace]
                   [--build DIR] [--compare DIR ...]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

from paired_runs import paired_rounds

# Frames per mode: each native run takes about a third of a second here.
MODES = {"cheap": 300, "draws": 100, "upload": 150, "contexts": 150, "gles1": 40}


def calls_per_second(argv, env):
    result = subprocess.run(argv, capture_output=True, text=True, env=env)
    match = re.search(r"([0-9.]+) M calls/s", result.stdout)
    if result.returncode != 0 or not match:
        sys.exit(f"call_mix.py: error: {' '.join(argv)} failed (exit {result.returncode}):\n{result.stderr}")
    return float(match.group(1))


def program_for(build, mode, frames):
    if mode == "gles1":
        return [os.path.join(build, "bin", "call_mix_gles1"), "--frames", str(frames)]
    return [os.path.join(build, "bin", "call_mix"), "--mode", mode, "--frames", str(frames)]


CONFIGURATIONS = ("native", "run", "attachable", "frames-waiting", "trace", "trace-uncompressed", "run-glvnd", "trace-glvnd", "apitrace")


def configurations(build, compare, wanted, program, tmp):
    strata = os.path.join(build, "bin", "strata")
    all_configs = {
        # The program paired with itself: the noise floor of a paired ratio.
        "native": list(program),
        "run": [strata, "run", "--no-attach", "--"] + program,
        # The trace layer loaded switched off, as every `strata run` has it unless --no-attach.
        "attachable": [strata, "run", "--"] + program,
        # Waiting for a frame range that never begins: what a program pays before frame A of `--frames A-B`.
        "frames-waiting": [strata, "trace", "--frames", "100000000-100000001", "-o", os.path.join(tmp, "w.strace"), "--"]
        + program,
        "trace": [strata, "trace", "-o", os.path.join(tmp, "t.strace"), "--"] + program,
        # Without LZ4 on the writer thread: what compressing costs the program.
        "trace-uncompressed": [strata, "trace", "--compression", "none", "-o", os.path.join(tmp, "u.strace"), "--"]
        + program,
        # GL calls through glvnd's stubs below Strata (the program's own frame loop is timed: env's exec is outside it).
        "run-glvnd": ["env", "STRATA_GLVND_DISPATCH=1", strata, "run", "--no-attach", "--"] + program,
        "trace-glvnd": ["env", "STRATA_GLVND_DISPATCH=1", strata, "trace", "-o", os.path.join(tmp, "g.strace"), "--"]
        + program,
        "apitrace": ["apitrace", "trace", "--api", "egl", "-o", os.path.join(tmp, "t.trace")] + program,
    }
    assert tuple(all_configs) == CONFIGURATIONS
    configs = {name: all_configs[name] for name in wanted}
    for number, directory in enumerate(compare, 1):
        other = os.path.join(directory, "bin", "strata")
        suffix = f" {number}" if len(compare) > 1 else ""
        if "run" in wanted:
            configs[f"run (compare{suffix})"] = [other, "run", "--no-attach", "--"] + program
        if "trace" in wanted:
            configs[f"trace (compare{suffix})"] = [other, "trace", "-o", os.path.join(tmp, f"c{number}.strace"),
                                                   "--"] + program
    return configs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--frames", type=int, help="frames per run (default: per mode, about 0.3 s natively)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--configs", default="run,trace,apitrace")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--compare", action="append", default=[], help="another build tree (repeatable)")
    args = parser.parse_args()
    modes = args.modes.split(",")
    wanted = args.configs.split(",")
    for mode in modes:
        if mode not in MODES:
            parser.error(f"unknown mode '{mode}' (modes: {', '.join(MODES)})")
    for name in wanted:
        if name not in CONFIGURATIONS:
            parser.error(f"unknown configuration '{name}' (configurations: {', '.join(CONFIGURATIONS)})")
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    with tempfile.TemporaryDirectory(prefix="strata-call-mix-") as tmp:
        for mode in modes:
            frames = args.frames or MODES[mode]
            program = program_for(args.build, mode, frames)
            configs = configurations(args.build, args.compare, wanted, program, tmp)
            calls_per_second(program, env)  # warms the shader cache
            natives, rates, ratios = paired_rounds(configs, lambda argv: calls_per_second(argv, env), program,
                                                   args.rounds, mode)
            print(f"{mode} ({frames} frames, {args.rounds} rounds, each run paired with a native run):")
            print(f"  {'':20s} {'M calls/s':>10s}   {'paired ratio':>12s}   {'fastest runs':>12s}")
            print(f"  {'native (paired)':20s} {statistics.median(natives):10.3f}   {'':12s}   {max(natives):12.3f}")
            for name in configs:
                print(f"  {name:20s} {statistics.median(rates[name]):10.3f}   {statistics.median(ratios[name]):11.3f}x"
                      f"   {max(rates[name]) / max(natives):11.3f}x")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
