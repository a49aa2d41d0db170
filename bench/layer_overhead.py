#!/usr/bin/env python3
"""Cost of the layer chain on a cheap call (glUniform4f): no layers, 1 and 4
layers that do not intercept it, and 4 no-op layers that do.

Each configuration runs loader_call_bench (Strata's exported glUniform4f) in
its own process, since a process reads STRATA_LAYERS once. Configurations are
interleaved round by round (A B C D A B C D ...) and the medians reported.
With --instructions it also counts exact instructions per call with callgrind.

usage: layer_overhead.py [--rounds N] [--instructions] [--build DIR]
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile


def configurations():
    return [
        ("no layers", ""),
        ("1 layer, not intercepting", "libbench_pass_1.so"),
        ("4 layers, not intercepting", "libbench_pass_1.so:libbench_pass_2.so:libbench_pass_3.so:libbench_pass_4.so"),
        ("4 layers, intercepting (no-op)",
         "libbench_noop_1.so:libbench_noop_2.so:libbench_noop_3.so:libbench_noop_4.so"),
    ]


def environment(build, layers):
    env = dict(os.environ, STRATA_LAYER_PATH=os.path.join(build, "bench", "layers"))
    env.pop("STRATA_LAYERS", None)
    if layers:
        env["STRATA_LAYERS"] = layers
    return env


def time_per_call(bench, env):
    out = subprocess.run([bench, "--benchmark_filter=StrataExport", "--benchmark_min_time=0.2",
                          "--benchmark_format=json"], env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["benchmarks"][0]["real_time"]


def instructions_per_call(bench, env):
    def total(calls):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "callgrind.out")
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", bench, "--calls",
                            str(calls), "export"], env=env, check=True, capture_output=True)
            with open(out) as f:
                return next(int(line.split()[1]) for line in f if line.startswith("summary:"))
    return (total(200000) - total(100000)) / 100000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    args = parser.parse_args()
    bench = os.path.join(args.build, "bin", "loader_call_bench")
    configs = configurations()
    times = {name: [] for name, _ in configs}
    for round_number in range(args.rounds):
        for name, layers in configs:
            times[name].append(time_per_call(bench, environment(args.build, layers)))
        print(f"\rround {round_number + 1}/{args.rounds}", end="", flush=True)
    print()
    base = statistics.median(times[configs[0][0]])
    for name, layers in configs:
        median = statistics.median(times[name])
        line = f"{name:32s} {median:6.2f} ns  ({median - base:+.2f} ns vs no layers)"
        if args.instructions:
            line += f"   {instructions_per_call(bench, environment(args.build, layers)):.0f} instructions/call"
        print(line)


if __name__ == "__main__":
    main()
