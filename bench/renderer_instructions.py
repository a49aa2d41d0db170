#!/usr/bin/env python3
"""Exact instructions of the renderer's thread per call, by callgrind.

For each trace_workload mode, the program runs natively and as a client of a
renderer (`strata serve` under `valgrind --tool=callgrind --trace-children=yes`,
which follows the workers it starts), each for a low and a high number of
frames; the figures are per frame (and per call the renderer ran) of the
frames between them, so that start-up, shader compiles and exit drop out.
llvmpipe runs with LP_NUM_THREADS=0: its rasterizing is on the thread that
calls the driver, natively and on the renderer alike.

  native     the program's instructions a frame (all of it: its own loop and
             the driver's work)
  renderer   the renderer thread's (the one that runs the client's calls)
  strata     of those, Strata's own code (the `strata` program's object)
  calls      calls the renderer ran a frame (the client's STRATA_REMOTE_STATS)
  own/call   strata / calls
  driver     the renderer thread's instructions outside Strata, against the
             native run's outside the program's own code (1.00: the driver
             does the same work for the client as for the program)
With --decode-ahead on, the renderer keeps large messages decoded ahead on a
second thread (strata serve --decode-ahead); the figures are still the
thread that runs the calls, not the one that decodes them.
With --cache-sim, also the first-level cache misses a frame (callgrind's
model of the cache): instruction fetches (I1), the driver's natively and on
the renderer's thread, and Strata's own there; data reads (D1) the same
way; and Strata's data writes (D1w). Strata's code between two driver calls
displaces some of the driver's from the cache, and the driver's work
between two calls (llvmpipe copies tens of KB a draw) leaves little of
Strata's data there.

usage: renderer_instructions.py [--build DIR] [--modes draws,matrices,...]
                                [--frames LOW,HIGH] [--cache-sim] [--decode-ahead on|off]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from remote_thread_load import stop_renderer


def fail(message):
    print(f"renderer_instructions.py: {message}", file=sys.stderr)
    sys.exit(1)


def costs_by_object(path):
    """Self costs per object (shared library or program) of one callgrind
    output file, read from its raw format: {object: {event: count}} for the
    events it has (Ir; with --cache-sim also I1mr, D1mr, D1mw, ...), less the
    inclusive cost lines that follow `calls=`."""
    names = {}
    totals = {}
    events = ["Ir"]
    current = "?"
    skip_next = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            if line.startswith("ob=") or line.startswith("cob="):
                # "(id) name" names an object once, in either line; "(id)" refers to it.
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m and m.group(2) is not None:
                    names[m.group(1)] = m.group(2)
                if line.startswith("ob="):
                    current = names.get(m.group(1), "?") if m else line[3:].rstrip("\n")
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            if not line or not (line[0].isdigit() or line[0] in "+-*"):
                continue
            if skip_next:
                skip_next = False
                continue
            counts = totals.setdefault(current, {})
            for event, value in zip(events, line.split()[1:]):
                counts[event] = counts.get(event, 0) + int(value)
    return totals


def cost(totals, event, objects):
    """The sum of `event` over the objects whose file name `objects(name)` accepts."""
    return sum(c.get(event, 0) for name, c in totals.items() if objects(os.path.basename(name)))


def summary(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    fail(f"{path} has no summary line")


def run(argv, env, log):
    with open(log, "w") as out:
        result = subprocess.run(argv, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        with open(log) as f:
            fail(f"failed ({result.returncode}): {' '.join(argv)}\n{f.read()}")
    with open(log) as f:
        return f.read()


def callgrind(args):
    # Valgrind runs one thread at a time; handing the turns round fairly lets
    # the renderer's decoding thread keep ahead as it does on a second core.
    return ["valgrind", "--tool=callgrind", "--fair-sched=yes"] + (["--cache-sim=yes"] if args.cache_sim else [])


def is_strata(name):
    return name == "strata"


def native(args, env, tmp, mode, frames):
    """(the program's costs by object, calls 0) of one native run."""
    out = os.path.join(tmp, f"native-{mode}-{frames}.cg")
    run(callgrind(args) + [f"--callgrind-out-file={out}", args.workload, "--mode", mode, "--frames", str(frames)],
        env, os.path.join(tmp, "native.log"))
    return costs_by_object(out)


def remote(args, env, tmp, mode, frames):
    """(the renderer thread's costs by object, calls the renderer ran) of one session."""
    cg_dir = os.path.join(tmp, f"cg-{mode}-{frames}")
    os.mkdir(cg_dir)
    address = f"unix:@strata-renderer-instructions-{os.getpid()}"
    log_path = os.path.join(tmp, "serve.log")
    with open(log_path, "w") as log:
        serve = subprocess.Popen(
            callgrind(args) + ["--trace-children=yes", "--separate-threads=yes",
                               f"--callgrind-out-file={cg_dir}/cg.%p", args.strata, "serve", "--listen", address,
                               "--idle-workers", "0"] + (["--decode-ahead", args.decode_ahead] if args.decode_ahead else []),
            env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while "listening on" not in open(log_path).read():
            if serve.poll() is not None or time.monotonic() > deadline:
                fail("the renderer did not start:\n" + open(log_path).read())
            time.sleep(0.2)
        client_env = dict(env, STRATA_REMOTE_STATS="1")
        text = run([args.strata, "run", "--remote", address, "--", args.workload, "--mode", mode,
                    "--frames", str(frames)], client_env, os.path.join(tmp, "client.log"))
        m = re.search(r"(\d+) calls sent", text)
        if not m:
            fail("the client printed no call count:\n" + text)
        calls = int(m.group(1))
    finally:
        stop_renderer(serve, limit_s=120)
    log = open(log_path).read()
    m = re.search(r"client joined: .*worker (\d+)", log)
    if not m:
        fail("the renderer's log names no worker:\n" + log)
    # Its files are whole once it is gone (it ends after the listener).
    deadline = time.monotonic() + 120
    while os.path.exists(f"/proc/{m.group(1)}") and time.monotonic() < deadline:
        time.sleep(0.2)
    threads = glob.glob(os.path.join(cg_dir, f"cg.{m.group(1)}-*"))
    if not threads:
        fail(f"no callgrind output for worker {m.group(1)} in {cg_dir}")
    # The thread that ran the client's calls: with the driver's work on it, the busiest.
    costs = costs_by_object(max(threads, key=summary))
    shutil.rmtree(cg_dir)
    return costs, calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--modes", default="draws,matrices,streaming")
    parser.add_argument("--frames", default="2,12", help="LOW,HIGH (default 2,12)")
    parser.add_argument("--decode-ahead", choices=("on", "off"),
                        help="the renderer's --decode-ahead (default: its own choice for this machine)")
    parser.add_argument("--cache-sim", action="store_true",
                        help="also the first-level cache misses a frame (callgrind's model): instructions, data")
    args = parser.parse_args()
    args.strata = os.path.join(args.build, "bin", "strata")
    args.workload = os.path.join(args.build, "bin", "trace_workload")
    for tool in (args.strata, args.workload):
        if not os.access(tool, os.X_OK):
            fail(f"{tool} is not built")
    if shutil.which("valgrind") is None:
        fail("valgrind is not installed")
    try:
        low, high = (int(x) for x in args.frames.split(","))
    except ValueError:
        fail("--frames is LOW,HIGH")
    if not 0 < low < high:
        fail("--frames needs 0 < LOW < HIGH")
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456", LP_NUM_THREADS="0")
    frames = high - low
    program = os.path.basename(args.workload)
    tmp = tempfile.mkdtemp(prefix="strata-renderer-instructions-")
    try:
        header = f"{'mode':10} {'native':>10} {'renderer':>10} {'strata':>9} {'calls':>7} {'own/call':>8} {'driver':>7}"
        if args.cache_sim:
            header += (f" {'I1 native':>10} {'I1 driver':>10} {'I1 strata':>10}"
                       f" {'D1 native':>10} {'D1 driver':>10} {'D1 strata':>10} {'D1w strata':>10}")
        print(header + "   (a frame)")
        for mode in args.modes.split(","):
            n = [native(args, env, tmp, mode, f) for f in (low, high)]
            r = [remote(args, env, tmp, mode, f) for f in (low, high)]

            def per_frame(pair, event, objects):
                return (cost(pair[1], event, objects) - cost(pair[0], event, objects)) / frames

            everything = lambda name: True  # noqa: E731
            n_costs, r_costs = (n[0], n[1]), (r[0][0], r[1][0])
            native_frame = per_frame(n_costs, "Ir", everything)
            program_frame = per_frame(n_costs, "Ir", lambda name: name == program)
            renderer_frame = per_frame(r_costs, "Ir", everything)
            strata_frame = per_frame(r_costs, "Ir", is_strata)
            calls_frame = (r[1][1] - r[0][1]) / frames
            own = strata_frame / calls_frame if calls_frame > 0 else float("nan")
            driver = (renderer_frame - strata_frame) / (native_frame - program_frame)
            line = (f"{mode:10} {native_frame:10.0f} {renderer_frame:10.0f} {strata_frame:9.0f} {calls_frame:7.0f} "
                    f"{own:8.1f} {driver:7.3f}")
            if args.cache_sim:
                line += (f" {per_frame(n_costs, 'I1mr', lambda name: name != program):10.0f}"
                         f" {per_frame(r_costs, 'I1mr', lambda name: not is_strata(name)):10.0f}"
                         f" {per_frame(r_costs, 'I1mr', is_strata):10.0f}"
                         f" {per_frame(n_costs, 'D1mr', lambda name: name != program):10.0f}"
                         f" {per_frame(r_costs, 'D1mr', lambda name: not is_strata(name)):10.0f}"
                         f" {per_frame(r_costs, 'D1mr', is_strata):10.0f}"
                         f" {per_frame(r_costs, 'D1mw', is_strata):10.0f}")
            print(line, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
