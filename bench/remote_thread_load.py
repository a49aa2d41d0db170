#!/usr/bin/env python3
"""Where a remote client's time goes: one trace_workload run under
`strata run --remote` against a renderer of its own, with the CPU time the
client process used and the CPU time of each thread of the renderer's worker
that served it, beside the run's wall time, and the calls the renderer ran
(and of them, those decoded ahead on a second thread: strata serve
--decode-ahead). A side whose busiest thread is
busy for the whole run bounds the speed; a client at 100 % while the
renderer's threads wait is bounded by the client's encoding, and the reverse
by the renderer's executor (or the driver under it).

Every process runs with MALLOC_TOP_PAD_=268435456, as docs/benchmarks.md asks.

usage: remote_thread_load.py [--mode draws] [--frames N] [--runs N]
                             [--decode-ahead on|off|auto] [--build DIR]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")


def fail(message):
    sys.exit(f"remote_thread_load: error: {message}")


def thread_times(pid):
    """{tid: (name, cpu seconds)} of one process's threads."""
    times = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return times
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        times[int(tid)] = (name, (int(fields[11]) + int(fields[12])) / TICKS)
    return times


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(p) for p in listing.read().split()]
    except OSError:
        return []


def process_time(pid):
    """CPU seconds of a process, its threads that ended included."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except OSError:
        return None


def sample(serve_pid, seen):
    """Adds the workers' current thread and process times to seen (the latest reading of each is kept:
    a thread that ends between two readings keeps the one before)."""
    for worker in children(serve_pid):
        total = process_time(worker)
        if total is not None:
            seen.setdefault(worker, {})["process"] = ("all threads", total)
        for tid, reading in thread_times(worker).items():
            seen.setdefault(worker, {})[tid] = reading


def built_tools(build, fail=fail):
    """strata and trace_workload of a build tree, or a clear error (`fail`: the calling script's)."""
    strata = os.path.join(build, "bin", "strata")
    workload = os.path.join(build, "bin", "trace_workload")
    for path in (strata, workload):
        if not os.access(path, os.X_OK):
            fail(f"{path} is not built (scripts/build.sh, or give --build)")
    return strata, workload


def start_renderer(strata, address, log_path, extra_args, env, fail=fail, launcher=()):
    """A `strata serve` at `address` with an idle worker, once it listens
    (`launcher`: a command it runs under, such as taskset)."""
    with open(log_path, "w") as log:
        serve = subprocess.Popen(list(launcher) + [strata, "serve", "--listen", address, "--idle-workers", "1"] +
                                 extra_args, stdout=log, stderr=log, env=env)
    deadline = time.time() + 20
    while "listening on" not in open(log_path).read():
        if time.time() > deadline or serve.poll() is not None:
            serve.kill()
            serve.wait()
            fail(f"strata serve did not start:\n{open(log_path).read()}")
        time.sleep(0.05)
    return serve


def stop_renderer(serve, limit_s=20):
    """Ends a renderer started by start_renderer: asked to stop, killed if it has not after `limit_s`."""
    serve.terminate()
    try:
        serve.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        serve.kill()
        serve.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", default="draws", help="trace_workload's mode (default draws)")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decode-ahead", default="auto", choices=("on", "off", "auto"))
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    args = parser.parse_args()
    if args.frames < 1 or args.runs < 1:
        fail("--frames and --runs must be at least 1")
    strata, workload = built_tools(args.build)
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    name = f"strata-thread-load-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="strata-thread-load-") as tmp:
        log_path = os.path.join(tmp, "serve.log")
        serve = start_renderer(strata, "unix:@" + name, log_path, ["--decode-ahead", args.decode_ahead], env)
        try:
            for run in range(args.runs):
                time.sleep(1)  # the idle worker loads its driver
                before, after = {}, {}
                sample(serve.pid, before)
                start = time.time()
                out_path = os.path.join(tmp, "client.txt")
                with open(out_path, "w") as out:
                    client = subprocess.Popen([strata, "run", "--remote", "unix:@" + name, "--", workload, "--mode",
                                               args.mode, "--frames", str(args.frames)],
                                              stdout=out, stderr=out, env=env)
                while True:
                    sample(serve.pid, after)
                    pid, status, usage = os.wait4(client.pid, os.WNOHANG)
                    if pid:
                        break
                    time.sleep(0.01)
                wall = time.time() - start
                sample(serve.pid, after)
                output = open(out_path).read()
                client.returncode = os.waitstatus_to_exitcode(status)
                if client.returncode != 0:
                    fail(f"the client failed ({client.returncode}):\n{output[-2000:]}")
                loop = re.search(r"frames in ([0-9.]+) s", output)
                print(f"run {run + 1}: {args.mode}, {args.frames} frames, decode-ahead {args.decode_ahead}: "
                      f"wall {wall:.3f} s, frame loop {float(loop.group(1)) if loop else float('nan'):.3f} s; "
                      f"client CPU {usage.ru_utime + usage.ru_stime:.3f} s "
                      f"(user {usage.ru_utime:.3f}, system {usage.ru_stime:.3f})")
                # The renderer logs the client's leaving once its connection is done, soon after the exit.
                left = None
                deadline = time.time() + 5
                while left is None and time.time() < deadline:
                    lines = [line for line in open(log_path).read().splitlines() if "client left" in line]
                    left = lines[run] if len(lines) > run else None
                    time.sleep(0.02)
                counts = re.search(r"\(([0-9]+ calls run.*)\)$", left or "")
                print(f"  renderer: {counts.group(1) if counts else 'no leaving line with its calls'}")
                for worker, threads in after.items():
                    for tid, (thread, seconds) in sorted(threads.items(), key=lambda item: str(item[0])):
                        used = seconds - before.get(worker, {}).get(tid, (thread, 0.0))[1]
                        if used >= 0.01 * wall:
                            what = "all threads" if tid == "process" else f"thread {tid} ({thread})"
                            print(f"  renderer worker {worker}, {what}: CPU {used:.3f} s "
                                  f"({100 * used / wall:.0f} % of the wall time)")
        finally:
            stop_renderer(serve)


if __name__ == "__main__":
    main()
