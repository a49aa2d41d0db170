#!/usr/bin/env python3
"""Exact instructions per call of a call_mix workload (bench/call_mix.py's
programs), natively, under `strata run --no-attach` (the pass-through),
under `strata run` (attachable: the trace layer loaded, switched off) and
under `strata trace`, and through a renderer (`strata run --remote`: the
app thread is the remote client's; the renderer, profiled apart by
bench/renderer_instructions.py, runs the GL), by
callgrind: each configuration runs for F and 2F frames and the difference is
divided by the calls of F frames, so start-up, shader compiles and exit drop
out. Reported per thread (the app thread; the tracer's encoder and writer
threads) and, for every function of the frame loop, the instructions per call
spent in Strata's own code on its path: the export (libGLESv2.so.2's entry
point: the table jump), the trace layer's wrapper (`Trace_X`) and recorder
(`Record_X`, the general path), and the remote client's function
(`Remote_X`, with what it calls: encoding, the shadow, held calls). Below Strata, a call goes to Mesa's glapi
stub, the second of a native call's two (glvnd's, then Mesa's), where Mesa is
glvnd's only EGL vendor; with STRATA_GLVND_DISPATCH=1 set it takes both.

With --cache-sim, callgrind also simulates the caches (its L1 of 32 KiB for
instructions and for data): per call, the app thread's L1 instruction misses
and L1 data misses, and the instruction misses in Strata's own code on the
app thread (its exports, wrappers, recorders and hooks). Where a driver runs
more code between two calls of a function than the instruction cache holds,
every line of Strata's code on a call's path is fetched again on every
call: these counts are exact where wall-clock time on a shared machine is
not (docs/benchmarks.md, "The tracer's code in the instruction cache").

usage: call_mix_instructions.py [--mode cheap|draws|upload|contexts|gles1] [--frames F]
                                [--build DIR] [--cache-sim] [--configs native,no-attach,run,trace,remote]
"""

import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

# Calls per frame of each function in the frame loop, as the workloads make them.
LOOP_FUNCTIONS = {
    "cheap": {"glUniform4f": 6000, "glEnable": 6000, "glBlendFunc": 6000, "glDisable": 6000,
              "glBindBuffer": 6000, "glDrawArrays": 30},
    "draws": {"glUseProgram": 500, "glBindVertexArray": 500, "glBindTexture": 501, "glUniform2f": 500,
              "glUniform4f": 500, "glDrawArrays": 500},
    "upload": {"glTexSubImage2D": 17, "glDrawArrays": 16},
    "contexts": {"eglMakeCurrent": 8, "glUseProgram": 400, "glBindVertexArray": 400, "glBindTexture": 401,
                 "glUniform2f": 400, "glUniform4f": 400, "glDrawArrays": 400},
    "gles1": {"glLoadIdentity": 300, "glTranslatef": 300, "glRotatef": 300, "glColor4f": 300,
              "glBindTexture": 300, "glTexEnvi": 300, "glDrawArrays": 300},
}


def program(build, mode, frames):
    if mode == "gles1":
        return [os.path.join(build, "bin", "call_mix_gles1"), "--frames", str(frames)]
    return [os.path.join(build, "bin", "call_mix"), "--mode", mode, "--frames", str(frames)]


def calls_made(output):
    match = re.search(r"(\d+) calls in", output)
    if not match:
        sys.exit(f"call_mix_instructions.py: error: no call count in the workload's output:\n{output}")
    return int(match.group(1))


CACHE_EVENTS = ("I1mr", "D1mr", "D1mw")


def profile(argv, tmp, name, events):
    """Runs argv under callgrind, one file per thread; returns (calls, {thread: {(event, function): count}})."""
    for old in glob.glob(os.path.join(tmp, name + "*")):
        os.remove(old)
    out = os.path.join(tmp, name)
    # LP_NUM_THREADS=0: llvmpipe rasterizes on the app thread, so what runs
    # there does not depend on how valgrind schedules its threads (with
    # rasterizer threads the app thread's share varied by 5,000 instructions
    # a call between runs of the same build); the other threads are then
    # the tracer's alone.
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456", LP_NUM_THREADS="0")
    cache = ["--cache-sim=yes"] if len(events) > 1 else []
    result = subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes", "--trace-children=yes",
                             f"--callgrind-out-file={out}.%p"] + cache + argv,
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        serve_log = os.path.join(tmp, "serve.log")
        log = open(serve_log).read()[-2000:] if os.path.exists(serve_log) else ""
        sys.exit(f"call_mix_instructions.py: error: {' '.join(argv)} failed:\n{result.stderr[-2000:]}"
                 + (f"\nthe renderer's log:\n{log}" if log else ""))
    threads = {}
    count = r"([\d,]+|\.)(?: \([^)]*\))?\s+"
    row = re.compile(r"\s*" + count * len(events) + r"(\S.*)")
    for path in sorted(glob.glob(out + ".*")):
        text = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", f"--show={','.join(events)}",
                               path], capture_output=True, text=True).stdout
        target = re.search(r"Profiled target:\s*(\S+)", text)
        if not target or "call_mix" not in target.group(1):
            continue  # no calls (a thread's empty part), or the strata launcher before it execs the program
        functions = collections.Counter()
        for line in text.splitlines():
            match = row.match(line)
            if not match or "PROGRAM TOTALS" in line or ":" not in match.group(len(events) + 1):
                continue
            for k, event in enumerate(events):
                value = match.group(k + 1)
                if value != ".":
                    functions[(event, match.group(len(events) + 1))] += int(value.replace(",", ""))
        # Inclusive instructions of the remote client's functions (what they call is theirs too).
        inclusive = subprocess.run(["callgrind_annotate", "--auto=no", "--inclusive=yes", "--threshold=100",
                                    "--show=Ir", path], capture_output=True, text=True).stdout
        one = re.compile(r"\s*" + count + r"(\S.*)")
        for line in inclusive.splitlines():
            match = one.match(line)
            if match and "Remote_" in match.group(2) and match.group(1) != ".":
                functions[("Ir-inclusive", match.group(2))] += int(match.group(1).replace(",", ""))
        thread = re.search(r"-(\d+)$", path)
        threads[int(thread.group(1)) if thread else 1] = functions
    return calls_made(result.stdout), threads


def event_total(functions, event):
    return sum(v for (e, _), v in functions.items() if e == event)


def in_strata(name):
    """Strata's own code: a function of its namespace (with what it inlines
    from system headers) or one of its generated exports."""
    source, _, function = name.partition(":")
    return "strata::" in function or re.search(r"/generated/src/exports_\w+\.cpp$", source) is not None


def strata_part(functions, gl_function):
    """Instructions in Strata's own code on gl_function's path: export, wrapper, recorder."""
    parts = collections.Counter()
    for (event, name), ir in functions.items():
        if event != "Ir":
            continue
        if re.search(rf"exports_gles[v12]*\.cpp:{gl_function} \[", name) or \
                re.search(rf"exports_egl\.cpp:{gl_function} \[", name):
            parts["export"] += ir
        elif re.search(rf"Trace_{gl_function}\(", name):
            parts["wrapper"] += ir
        elif re.search(rf"Record_{gl_function}\(", name):
            parts["recorder"] += ir
    return parts


def remote_part(functions, gl_function):
    """Instructions of the remote client's function for gl_function, inclusive of what it calls."""
    return sum(ir for (event, name), ir in functions.items()
               if event == "Ir-inclusive" and re.search(rf"Remote_{gl_function}\(", name))


class Renderer:
    """`strata serve` on a private address for the remote configuration (not profiled)."""

    def __init__(self, strata, tmp):
        name = f"strata-call-mix-ir-{os.getpid()}"
        self.address = "unix:@" + name
        self.log = open(os.path.join(tmp, "serve.log"), "w")
        env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
        self.process = subprocess.Popen([strata, "serve", "--listen", self.address], stdout=self.log,
                                        stderr=self.log, env=env)
        for _ in range(400):
            with open("/proc/net/unix") as table:
                if any(line.rstrip().endswith(" @" + name) for line in table):
                    return
            time.sleep(0.025)
        sys.exit("call_mix_instructions.py: error: strata serve did not start listening")

    def stop(self):
        self.process.terminate()
        self.process.wait()
        self.log.close()


CONFIG_NAMES = ("native", "no-attach", "run", "trace", "remote")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", default="cheap", choices=sorted(LOOP_FUNCTIONS))
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--cache-sim", action="store_true",
                        help="also simulate the L1 caches: misses per call on the app thread")
    parser.add_argument("--configs", default=",".join(CONFIG_NAMES),
                        help="which configurations, comma-separated (default: all): " + ", ".join(CONFIG_NAMES) +
                             "; figures in brackets are against the first")
    args = parser.parse_args()
    chosen = args.configs.split(",")
    unknown = [c for c in chosen if c not in CONFIG_NAMES]
    if unknown:
        parser.error(f"unknown configuration {', '.join(unknown)!r} (use {', '.join(CONFIG_NAMES)})")
    events = ("Ir",) + (CACHE_EVENTS if args.cache_sim else ())
    strata = os.path.join(args.build, "bin", "strata")
    with tempfile.TemporaryDirectory(prefix="strata-call-mix-ir-") as tmp:
        every = {
            "native": ("native", lambda p: p),
            "no-attach": ("strata run --no-attach", lambda p: [strata, "run", "--no-attach", "--"] + p),
            # The default: the trace layer loaded, switched off, so that `strata trace --attach` can reach it.
            "run": ("strata run", lambda p: [strata, "run", "--"] + p),
            "trace": ("strata trace", lambda p: [strata, "trace", "-o", os.path.join(tmp, "t.strace"), "--"] + p),
            "remote": ("strata run --remote", lambda p: [strata, "run", "--remote", renderer.address, "--"] + p),
        }
        renderer = Renderer(strata, tmp) if "remote" in chosen else None
        configs = dict(every[c] for c in chosen)
        subprocess.run(program(args.build, args.mode, 1), capture_output=True)  # warm the shader cache
        results = {}
        for name, wrap in configs.items():
            print(f"{name}: profiling {args.frames} and {2 * args.frames} frames", file=sys.stderr, flush=True)
            calls_low, low = profile(wrap(program(args.build, args.mode, args.frames)), tmp, "low", events)
            calls_high, high = profile(wrap(program(args.build, args.mode, 2 * args.frames)), tmp, "high", events)
            calls = calls_high - calls_low
            per_thread = {}
            for thread, functions in high.items():
                before = low.get(thread, collections.Counter())
                per_thread[thread] = collections.Counter(
                    {k: v - before.get(k, 0) for k, v in functions.items()})
            results[name] = (calls, per_thread)
        if renderer is not None:
            renderer.stop()

        print(f"{args.mode}: instructions per call of the frame loop (callgrind, "
              f"{2 * args.frames} frames minus {args.frames})")
        native_app = None
        for name, (calls, per_thread) in results.items():
            totals = {t: event_total(f, "Ir") / calls for t, f in sorted(per_thread.items())}
            app = totals.get(1, 0.0)
            if native_app is None:
                native_app = app
            others = sum(v for t, v in totals.items() if t != 1)
            print(f"  {name:13s} app thread {app:7.1f} ({app - native_app:+.1f})   other threads {others:7.1f}   "
                  f"all {app + others:7.1f}")
        print("  Strata's own code per call of each function (export / trace wrapper / trace recorder; "
              "the remote client's function, inclusive):")
        for gl_function, per_frame in LOOP_FUNCTIONS[args.mode].items():
            row = []
            count = per_frame * args.frames
            for name in [n for n in ("strata run", "strata trace") if n in results]:
                functions = results[name][1].get(1, collections.Counter())
                parts = strata_part(functions, gl_function)
                row.append(f"{name}: " + " / ".join(f"{parts[p] / count:.1f}"
                                                     for p in ("export", "wrapper", "recorder")))
            if "strata run --remote" in results:
                functions = results["strata run --remote"][1].get(1, collections.Counter())
                row.append(f"remote client: {remote_part(functions, gl_function) / count:.1f}")
            print(f"    {gl_function:18s} " + "   ".join(row))
        if args.cache_sim:
            print("  the app thread's L1 misses per call (callgrind's cache simulation): instructions "
                  "(in Strata's own code) / data reads / data writes")
            native_misses = None
            for name, (calls, per_thread) in results.items():
                app = per_thread.get(1, collections.Counter())
                misses = [event_total(app, e) / calls for e in CACHE_EVENTS]
                strata = sum(v for (e, f), v in app.items() if e == "I1mr" and in_strata(f)) / calls
                if native_misses is None:
                    native_misses = misses
                print(f"    {name:24s} {misses[0]:6.1f} ({misses[0] - native_misses[0]:+.1f}; {strata:.1f} in Strata)"
                      f" / {misses[1]:6.1f} ({misses[1] - native_misses[1]:+.1f})"
                      f" / {misses[2]:6.1f} ({misses[2] - native_misses[2]:+.1f})")


if __name__ == "__main__":
    main()
