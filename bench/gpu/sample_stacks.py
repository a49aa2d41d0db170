#!/usr/bin/env python3
"""Where a remote client and its renderer spend their time, on a host with no
profiler (the GPU hosts have neither perf nor valgrind, but have cuda-gdb):
one trace_workload run under `strata run --remote` against a renderer of its
own, stopped by a debugger SAMPLES times while its frame loop runs; each time,
every thread's stack of the renderer's worker and of the client is taken.
For each thread found working at least once it prints how often each function
was the innermost frame (where the thread was), each of Strata's functions the
innermost of Strata's (what Strata was doing, or had called into), and each
chain of the three innermost frames.

A debugger's stop takes from a tenth of a second to seconds, so the samples
are few and each costs the run a pause: read the shares, not the run's speed.

Every process runs with MALLOC_TOP_PAD_=268435456, as docs/benchmarks.md asks.

usage: sample_stacks.py [--build DIR] [--mode draws] [--samples N] [--debugger gdb|cuda-gdb]
"""

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from remote_thread_load import (  # noqa: E402  (bench/)
    built_tools, children, process_time, start_renderer, stop_renderer)


def fail(message):
    sys.exit(f"sample_stacks: error: {message}")


THREAD = re.compile(r'^Thread \d+ \(.*?LWP (\d+)\)(?: "([^"]*)")?')
FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(.+?) \(")
# Where a thread sleeps until there is work: a thread found only there is idle.
WAITS = ("futex", "poll", "recv", "accept", "epoll", "nanosleep", "select", "pthread_cond", "sem_wait", "__GI___read",
         "read_nocancel", "wait4", "pause", "sigtimedwait")


def stacks(debugger, pid, limit_s):
    """{thread label: [function names, innermost first]} of one stop of `pid`."""
    try:
        out = subprocess.run([debugger, "-batch", "-nx", "-p", str(pid), "-ex", "set pagination off",
                              "-ex", "thread apply all bt 24"], capture_output=True, text=True,
                             timeout=limit_s).stdout
    except subprocess.TimeoutExpired:
        return {}
    result, current = {}, None
    for line in out.splitlines():
        thread = THREAD.match(line)
        if thread:
            current = f"{thread.group(2) or 'thread'} ({thread.group(1)})"
            result[current] = []
            continue
        frame = FRAME.match(line.replace("(anonymous namespace)", "{anonymous}").replace("operator()", "operator<call>"))
        if frame and current is not None:
            result[current].append(frame.group(2))
    return result


def strata_frame(frames):
    for name in frames:
        if name.startswith("strata::") or name.startswith("Remote_") or name.startswith("Send_"):
            return name
    return "(none of Strata's)"


def short(name):
    name = name.replace("{anonymous}::", "")
    return name if len(name) <= 90 else name[:87] + "..."


def idle(frames):
    return any(wait in frames[0] for wait in WAITS)


def report(title, samples):
    """samples: [{thread: frames}] -> for each thread found busy at least once, the innermost frames' shares."""
    by_thread = collections.defaultdict(list)
    for sample in samples:
        for thread, frames in sample.items():
            if frames:
                by_thread[thread].append(frames)
    busy = {thread: all_frames for thread, all_frames in by_thread.items()
            if not all(idle(frames) for frames in all_frames)}
    print(f"{title}: {len(samples)} stops; {len(by_thread) - len(busy)} threads always found waiting left out")
    for thread, all_frames in sorted(busy.items(), key=lambda item: -len(item[1])):
        working = sum(1 for frames in all_frames if not idle(frames))
        print(f"  thread {thread}: {len(all_frames)} stacks, {working} not waiting")
        for label, pick in (("innermost", lambda f: f[0]), ("innermost of Strata's", strata_frame),
                            ("innermost three", lambda f: " < ".join(short(name)[:40] for name in f[:3]))):
            counts = collections.Counter(short(pick(frames)) for frames in all_frames)
            shares = "; ".join(f"{name} {count}" for name, count in counts.most_common(8))
            print(f"    {label}: {shares}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", default="draws", help="trace_workload's mode (default draws)")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--debugger", default="gdb", help="gdb, or cuda-gdb where there is no gdb")
    parser.add_argument("--stop-limit", type=float, default=30, help="seconds a debugger's stop may take")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                        "build"))
    args = parser.parse_args()
    if args.samples < 1:
        fail("--samples must be at least 1")
    debugger = shutil.which(args.debugger)
    if debugger is None:
        fail(f"no {args.debugger} on the PATH (--debugger)")
    strata, workload = built_tools(args.build, fail)
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    name = f"strata-sample-stacks-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="strata-sample-stacks-") as tmp:
        serve = start_renderer(strata, "unix:@" + name, os.path.join(tmp, "serve.log"), [], env, fail)
        client = None
        try:
            with open(os.path.join(tmp, "client.txt"), "w") as out:
                # Far more frames than the sampling lasts: the client is stopped at the end.
                client = subprocess.Popen([strata, "run", "--remote", "unix:@" + name, "--", workload, "--mode",
                                           args.mode, "--frames", "100000000"], stdout=out, stderr=out, env=env)
            time.sleep(2)  # connected, shaders compiled, in its frame loop
            if client.poll() is not None:
                fail(f"the client ended early:\n{open(os.path.join(tmp, 'client.txt')).read()[-2000:]}")
            # `strata run` execs the program, so the client's pid is the program's.
            workers = children(serve.pid)
            if not workers:
                fail("the renderer has no worker")
            worker = max(workers, key=lambda pid: process_time(pid) or 0.0)  # the one serving, not the idle one
            renderer_samples, client_samples = [], []
            started = time.time()
            for sample in range(args.samples):
                renderer_samples.append(stacks(debugger, worker, args.stop_limit))
                client_samples.append(stacks(debugger, client.pid, args.stop_limit))
                print(f"sample {sample + 1} of {args.samples} ({time.time() - started:.0f} s)", file=sys.stderr)
                time.sleep(0.1)
            report(f"renderer worker {worker}", renderer_samples)
            report(f"client {client.pid} ({args.mode})", client_samples)
        finally:
            if client is not None and client.poll() is None:
                client.send_signal(signal.SIGKILL)
                client.wait()
            stop_renderer(serve)


if __name__ == "__main__":
    main()
