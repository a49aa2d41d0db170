#!/usr/bin/env python3
"""Where a remote client of a fast driver loses against the program itself.

On a GPU host the renderer's thread runs a draw-heavy client's calls at about
half the program's own rate, while `strata replay` runs the same calls at or
above it, and the renderer's thread is inside the driver at most stops
(docs/benchmarks.md, "The executor on a GPU host"). What differs between the
two is a second busy process beside the driver's thread and where the two
are placed. Round by round, in a random order, one trace_workload shape
(draw-heavy by default) runs as:

  native         the program alone
  native+busy    the program pinned to CPU A, a loop spinning on CPU B of
                 another core: what a second busy thread beside it costs the
                 driver (shared caches, memory bandwidth, the host's
                 scheduling of virtual CPUs)
  native+sibling the same with B an SMT sibling of A (where the topology
                 shows any)
  replay         `strata replay --benchmark` of the program's trace, the
                 frames after the first: the executor running the same calls
                 in one process, fed from memory
  remote         `strata run --remote` over the ring, placed by the kernel
  remote-apart   the renderer (and its worker) pinned to CPU A, the client
                 to CPU B of another core
  remote-sibling the same with B an SMT sibling of A
  remote-shared  both on CPU A

Each figure is the median over the rounds of the frame rate against the same
round's native run (above 1: faster), with the rounds' range. CPU A is the
first CPU this process may use; B the first of another core (or package),
by /sys/devices/system/cpu/cpu*/topology.

Every process runs with MALLOC_TOP_PAD_=268435456, as docs/benchmarks.md asks.

usage: remote_gap.py [--build DIR] [--mode draws] [--frames N] [--rounds N]
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from remote_thread_load import built_tools, start_renderer, stop_renderer  # noqa: E402  (bench/)


def fail(message):
    sys.exit(f"remote_gap: error: {message}")


def topology(cpu):
    """(package, core, siblings) of a CPU, from sysfs; None where it says nothing."""
    base = f"/sys/devices/system/cpu/cpu{cpu}/topology"
    try:
        package = open(f"{base}/physical_package_id").read().strip()
        core = open(f"{base}/core_id").read().strip()
        siblings = open(f"{base}/thread_siblings_list").read().strip()
    except OSError:
        return None
    listed = set()
    for part in siblings.split(","):
        low, _, high = part.partition("-")
        listed.update(range(int(low), int(high or low) + 1))
    return package, core, listed


def cpu_choice():
    """(A, B of another core or None, a sibling of A or None)."""
    usable = sorted(os.sched_getaffinity(0))
    a = usable[0]
    where = {cpu: topology(cpu) for cpu in usable}
    if where[a] is None:
        return a, (usable[1] if len(usable) > 1 else None), None
    apart = next((cpu for cpu in usable[1:] if where[cpu] and where[cpu][:2] != where[a][:2]), None)
    sibling = next((cpu for cpu in usable[1:] if cpu in where[a][2]), None)
    return a, apart, sibling


def frame_rate(text, command):
    m = re.search(r"(\d+) frames in ([0-9.]+) s", text)
    if not m:
        fail(f"no frame count in the output of {' '.join(command)}:\n{text}")
    return int(m.group(1)) / float(m.group(2))


def run(command, env, limit_s=300):
    try:
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=limit_s, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail(f"stopped after {limit_s} s: {' '.join(command)}")
    if done.returncode != 0:
        fail(f"exit status {done.returncode}: {' '.join(command)}\n{done.stdout}")
    return done.stdout


def pinned(cpu, command):
    return ["taskset", "-c", str(cpu)] + command if cpu is not None else command


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                        "build"))
    parser.add_argument("--mode", default="draws", help="trace_workload's mode (default draws)")
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.frames < 2 or args.rounds < 1:
        fail("--frames must be at least 2 and --rounds at least 1")
    strata, workload = built_tools(args.build, fail)
    if shutil.which("taskset") is None:
        fail("taskset is not installed (util-linux)")
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456", PYTHONUNBUFFERED="1")
    a, apart, sibling = cpu_choice()
    print(f"remote_gap: {len(os.sched_getaffinity(0))} CPUs; A = CPU {a}, another core: "
          f"{'CPU %d' % apart if apart is not None else 'none'}, a sibling of A: "
          f"{'CPU %d' % sibling if sibling is not None else 'none'}; {args.mode}, {args.frames} frames, "
          f"{args.rounds} rounds")
    program = [workload, "--mode", args.mode, "--frames", str(args.frames)]
    with tempfile.TemporaryDirectory(prefix="strata-remote-gap-") as tmp:
        trace = os.path.join(tmp, "workload.strace")
        run([strata, "trace", "-o", trace, "--"] + program, env)
        renderers = {}  # config -> (address, process)

        def renderer(config, cpu):
            """The address of a renderer of its own for `config`, started on first use; with `cpu`, the
            listener and the workers it starts are pinned there."""
            if config not in renderers:
                address = f"unix:@strata-remote-gap-{os.getpid()}-{config}"
                serve = start_renderer(strata, address, os.path.join(tmp, f"{config}.log"), [], env, fail,
                                       launcher=pinned(cpu, []))
                renderers[config] = (address, serve)
                time.sleep(1)  # the idle worker loads its driver
            return renderers[config][0]

        def beside(busy_cpu, command):
            spinner = subprocess.Popen(pinned(busy_cpu, ["sh", "-c", "while :; do :; done"]))
            try:
                return run(pinned(a, command), env)
            finally:
                spinner.kill()
                spinner.wait()

        def replay():
            text = run([strata, "replay", "--benchmark", trace], env)
            m = re.search(r"frames after the first \(no setup\): replay [0-9.]+ s, ([0-9.]+) fps", text)
            if not m:
                fail(f"no frame rate in the replay's output:\n{text}")
            return float(m.group(1))

        configs = {
            "native": lambda: frame_rate(run(program, env), program),
            "replay": replay,
            "remote": lambda: frame_rate(run([strata, "run", "--remote", renderer("remote", None), "--"] + program,
                                             env), program),
            "remote-shared": lambda: frame_rate(run(pinned(a, [strata, "run", "--remote",
                                                               renderer("remote-shared", a), "--"] + program), env),
                                                program),
        }

        for name, other in (("apart", apart), ("sibling", sibling)):
            if other is None:
                continue
            configs[f"native+{'busy' if name == 'apart' else 'sibling'}"] = (
                lambda other=other: frame_rate(beside(other, program), program))
            configs[f"remote-{name}"] = (
                lambda name=name, other=other: frame_rate(
                    run(pinned(other, [strata, "run", "--remote", renderer(f"remote-{name}", a), "--"] + program),
                        env), program))
        ratios = {name: [] for name in configs}
        rates = {name: [] for name in configs}
        try:
            for round_ in range(args.rounds):
                order = list(configs)
                random.shuffle(order)
                measured = {name: configs[name]() for name in order}
                for name, rate in measured.items():
                    rates[name].append(rate)
                    ratios[name].append(rate / measured["native"])
                print(f"remote_gap: round {round_ + 1} of {args.rounds}", file=sys.stderr)
        finally:
            for address, serve in renderers.values():
                stop_renderer(serve)
    print(f"{'config':16s} {'frames/s':>10s}  against native (median of rounds, range)")
    for name in configs:
        r = ratios[name]
        print(f"{name:16s} {statistics.median(rates[name]):10.1f}  {statistics.median(r):.2f}x "
              f"({min(r):.2f}-{max(r):.2f})")


if __name__ == "__main__":
    main()
