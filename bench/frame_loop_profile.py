#!/usr/bin/env python3
"""Where one thread's time goes during a program's frame loop, by perf.

Runs COMMAND (a trace_workload run, natively or under `strata run --remote`)
under `perf record -a` (cpu-clock samples of the whole machine: this VM has
no hardware counters), takes the frame loop's span from the monotonic times
trace_workload prints, and counts the samples of the busiest thread whose
command name matches --thread (a regular expression) within it, by where
they fell: the shared object, with libc's memmove/memcpy apart (llvmpipe's
copies). Repeats --runs times and prints each run and the mean.

  frame_loop_profile.py --thread '^trace_workload$' -- build/bin/trace_workload --mode draws --frames 300
  frame_loop_profile.py --thread '^strata$' -- build/bin/strata run --remote unix:@r -- \\
      build/bin/trace_workload --mode draws --frames 300

(the renderer's worker threads are named `strata`; start the renderer first,
with MALLOC_TOP_PAD_ set as for every measured process.)
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(message):
    print(f"frame_loop_profile.py: {message}", file=sys.stderr)
    sys.exit(1)


def profile(command, thread, frequency, data):
    env = dict(os.environ, MALLOC_TOP_PAD_=os.environ.get("MALLOC_TOP_PAD_", "268435456"))
    result = subprocess.run(["perf", "record", "-k", "CLOCK_MONOTONIC", "-e", "cpu-clock", "-F", str(frequency), "-a",
                             "-o", data, "--"] + command, env=env, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        fail(f"the command failed ({result.returncode}):\n{output}")
    m = re.search(r"in ([0-9.]+) s \(monotonic ([0-9.]+) to ([0-9.]+)\)", output)
    if not m:
        fail("the command printed no frame loop span (is it trace_workload?):\n" + output)
    seconds, start, end = float(m.group(1)), float(m.group(2)), float(m.group(3))
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,time,ip,sym,dso"], capture_output=True,
                            text=True).stdout
    by_thread = collections.defaultdict(collections.Counter)
    for line in script.splitlines():
        s = re.match(r"\s*(\S+)\s+(\d+)\s+([\d.]+):\s+\S+\s+(.*)\((.*)\)\s*$", line)
        if not s or not re.search(thread, s.group(1)):
            continue
        if not start <= float(s.group(3)) <= end:
            continue
        symbol, dso = s.group(4), os.path.basename(s.group(5))
        if "memmove" in symbol or "memcpy" in symbol:
            dso = "memmove"
        elif dso.startswith("perf-") and dso.endswith(".map"):
            dso = "JIT code"
        by_thread[s.group(2)][dso] += 1
    if not by_thread:
        fail(f"no samples of a thread matching '{thread}' in the frame loop")
    busiest = max(by_thread.values(), key=lambda c: sum(c.values()))
    return seconds, busiest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], usage="%(prog)s [options] -- COMMAND...")
    parser.add_argument("--thread", required=True, help="regular expression for the thread's command name")
    parser.add_argument("--runs", type=int, default=3, help="runs of the command (default 3)")
    parser.add_argument("--frequency", type=int, default=10000, help="samples a second (default 10000)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        fail("no command (see --help)")
    if shutil.which("perf") is None:
        fail("perf is not installed")
    if args.runs < 1:
        fail("--runs is at least 1")
    tmp = tempfile.mkdtemp(prefix="strata-frame-loop-profile-")
    try:
        totals = collections.Counter()
        for i in range(args.runs):
            seconds, counts = profile(command, args.thread, args.frequency, os.path.join(tmp, "perf.data"))
            totals.update(counts)
            top = " ".join(f"{name}={n}" for name, n in counts.most_common(8))
            print(f"run {i + 1}: {seconds:.3f} s, {sum(counts.values())} samples: {top}", flush=True)
        mean = " ".join(f"{name}={n / args.runs:.0f}" for name, n in totals.most_common(8))
        print(f"mean: {sum(totals.values()) / args.runs:.0f} samples: {mean}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
