#!/usr/bin/env python3
"""Breaks Strata on purpose, one line at a time, and checks the tests notice.

Each breakage below is a file, a line pattern that must occur exactly once,
and its replacement. For each: the line is changed in the working tree, the
build directory is brought up to date (ninja rebuilds only what depends on
the file), the tests named for it run, and the file is put back. The table
at the end says which tests caught each breakage; a breakage no test caught,
or one that did not build, makes the exit status 1. docs/testing.md shows
the table of the last full run.

usage: scripts/break_on_purpose.py [--build-dir DIR] [--only NAME[,NAME...]] [--list] [--markdown]

The files it changes must have no uncommitted changes; they are restored
even when the run is interrupted, and the build is brought back up to date
at the end.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, part, file, pattern, replacement, ctest regex of the tests that should catch it)
BREAKAGES = [
    ("out-pointer data recorded empty", "tracer",
     "src/layers/trace/call_writer.h",
     "void OutBlob(const void* p, SizeFn size) { InBlob(p, size); }",
     "void OutBlob(const void* p, SizeFn size) { (void)size; InBlob(p, [] { return size_t{0}; }); }",
     r"trace\.TracedPrograms\.PointerData"),
    ("attached trace's made-up context of the wrong client version", "tracer",
     "src/layers/trace/trace_hooks.cpp",
     "const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version, EGL_NONE};",
     "const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version + 1, EGL_NONE};",
     r"trace\.AttachDetach\.Traceable"),
    ("thumbnails built by replay zero-filled", "view",
     "src/view/replayed_images.cpp",
     "full.rgba = FlipRows(image.pixels, full.width, full.height);",
     "full.rgba.assign(image.pixels.size(), 0);",
     r"view\.ViewThumbnails"),
    ("layers left out of the dispatch table", "loader",
     "src/loader/layer_chain.cpp",
     "      top->entries[slot] = entry;",
     "      top->entries[slot] = next;",
     r"^layers\.Layers\.(ThreeStacked|CallCounter)"),
    ("error check layer never reports", "layers",
     "src/layers/error_check/error_check_layer.cpp",
     "    if (error == GL_NO_ERROR) return;",
     "    if (error == GL_NO_ERROR || true) return;",
     r"^layers\.Layers\.ErrorCheck"),
    ("error the tracer took at a swap not given back to the app", "tracer",
     "src/layers/trace/app_errors.cpp",
     "  if (taken == GL_NO_ERROR) return from_driver;",
     "  if (taken == GL_NO_ERROR || true) return from_driver;",
     r"replay\.Replay\.AnErrorLeftAtASwap"),
    ("no final frame captured", "tracer",
     "src/layers/trace/final_frame.cpp",
     "  if (!CaptureFinalFrame() || CurrentContextState() == nullptr || !Tracing()) return;",
     "  return;",
     r"replay\.Replay\.FinalFrame"),
    ("replay's self-check misses an error the app never met", "executor",
     "src/replay/self_check.cpp",
     '    Differ(first.sequence, first.function, "no GL error (" + where + ")", GlErrorText(first.code));',
     "    (void)first;",
     r"replay\.Replay\.SelfCheck|trace\.AttachDetach\.Traceable"),
    ("writes to a mapped buffer dropped on replay", "executor",
     "src/host/executor_client_memory.cpp",
     "        std::memcpy(range.host + (address - range.recorded), bytes.data(), bytes.size());",
     "        (void)range;",
     r"^replay\.|^remote\."),
    ("recorded object names used as host names", "executor",
     "src/host/object_names.h",
     "    return it == names_.end() ? recorded : it->second;",
     "    return it == names_.end() ? recorded : recorded;",
     r"^replay\.|^remote\."),
    ("gltrace functions numbered one off", "export",
     "src/export/gltrace_export.cpp",
     "      if (GLMessage::Function_Parse(api::kFunctions[slot].name, &number)) numbers_[slot] = number;",
     "      if (GLMessage::Function_Parse(api::kFunctions[slot].name, &number)) numbers_[slot] = GLMessage::Function(number + 1);",
     r"^export\.gltrace"),
    ("Chrome JSON times in nanoseconds instead of microseconds", "export",
     "src/export/chrome_json_export.cpp",
     "  AppendInt(out, ns / 1000);",
     "  AppendInt(out, ns);",
     r"^export\.chrome"),
    ("captured frame images left bottom row first", "view",
     "src/view/captured_images.cpp",
     "entry.image.rgba = FlipRows(captured.pixels, entry.image.width, entry.image.height);",
     "entry.image.rgba.assign(captured.pixels.begin(), captured.pixels.end());",
     r"^view\."),
    ("EGL handles compared by address in strata diff", "inspect",
     "src/inspect/call_identity.cpp",
     "    case ArgKind::kHandle: return Combine(key, Handle(v.u));",
     "    case ArgKind::kHandle: return Combine(key, v.u);",
     r"^inspect\.DiffCommand"),
    ("strata state's texture images left bottom row first", "inspect",
     "src/inspect/gl_state.cpp",
     "    if (!WritePng(path, width, height, rgba, true, error)) return {};",
     "    if (!WritePng(path, width, height, rgba, false, error)) return {};",
     r"^inspect\.StateCommand"),
]


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def failed_tests(ctest_output):
    """The names under ctest's "The following tests FAILED:"."""
    names, listing = [], False
    for line in ctest_output.splitlines():
        if line.startswith("The following tests FAILED"):
            listing = True
        elif listing:
            match = re.match(r"\s*\d+ - (\S+)", line)
            if match:
                names.append(match.group(1))
    return names


def short(names, limit=3):
    text = ", ".join(names[:limit])
    return text + (f" and {len(names) - limit} more" if len(names) > limit else "")


class Restorer:
    """Puts a changed file back, on return or on SIGINT/SIGTERM."""

    def __init__(self):
        self.path, self.original = None, None
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self.interrupted)

    def change(self, path, text, original):
        self.path, self.original = path, original
        with open(path, "w") as f:
            f.write(text)

    def restore(self):
        if self.path is not None:
            with open(self.path, "w") as f:
                f.write(self.original)
            self.path = None

    def interrupted(self, signum, _frame):
        self.restore()
        sys.exit(f"break_on_purpose: interrupted (signal {signum}); the file is restored")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"), help="a configured build (default: build/)")
    parser.add_argument("--only", help="comma-separated breakage names (or parts of them) to run")
    parser.add_argument("--list", action="store_true", help="list the breakages and exit")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/testing.md)")
    args = parser.parse_args()

    chosen = BREAKAGES
    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        chosen = [b for b in BREAKAGES if any(w in b[0] for w in wanted)]
        if not chosen:
            sys.exit(f"break_on_purpose: no breakage matches --only {args.only!r} (see --list)")
    if args.list:
        for name, part, path, _, _, tests in chosen:
            print(f"{part:9} {name}\n          {path}; tests: {tests}")
        return 0
    if not os.path.exists(os.path.join(args.build_dir, "build.ninja")):
        sys.exit(f"break_on_purpose: {args.build_dir} is not a configured build (run scripts/build.sh first)")

    # Every pattern must still be there, once, before anything is changed.
    for name, _, path, pattern, _, _ in chosen:
        full = os.path.join(ROOT, path)
        if not os.path.exists(full):
            sys.exit(f"break_on_purpose: '{name}': {path} does not exist")
        count = open(full).read().count(pattern)
        if count != 1:
            sys.exit(f"break_on_purpose: '{name}': the pattern occurs {count} times in {path}, not once:\n  {pattern}")
        if run(["git", "-C", ROOT, "diff", "--quiet", "--", path]).returncode != 0:
            sys.exit(f"break_on_purpose: {path} has uncommitted changes; commit or stash them first")

    restorer = Restorer()
    rows, all_caught = [], True
    for index, (name, part, path, pattern, replacement, tests) in enumerate(chosen, 1):
        full = os.path.join(ROOT, path)
        original = open(full).read()
        started = time.monotonic()
        print(f"[{index}/{len(chosen)}] {name} ({path})", file=sys.stderr, flush=True)
        try:
            restorer.change(full, original.replace(pattern, replacement), original)
            build = run(["ninja", "-C", args.build_dir])
            if build.returncode != 0:
                first_error = next((l for l in build.stdout.splitlines() if "error" in l), build.stdout[-500:])
                caught, verdict = [], "did not build: " + first_error
            else:
                ctest = run(["ctest", "--test-dir", args.build_dir, "-R", tests, "-j2", "--timeout", "600"])
                caught = failed_tests(ctest.stdout)
                ran = re.search(r"tests passed, \d+ tests failed out of (\d+)", ctest.stdout)
                if not ran:
                    verdict = "no test matched " + tests
                else:
                    verdict = f"caught by {short(caught)}" if caught else f"NOT caught ({ran.group(1)} tests passed)"
        finally:
            restorer.restore()
        all_caught = all_caught and bool(caught)
        rows.append((name, part, path, short(caught) if caught else verdict))
        print(f"    {verdict} ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

    print("restoring the build...", file=sys.stderr, flush=True)
    rebuild = run(["ninja", "-C", args.build_dir])
    if rebuild.returncode != 0:
        print("break_on_purpose: the restored tree does not build:\n" + rebuild.stdout[-2000:], file=sys.stderr)
        all_caught = False

    if args.markdown:
        print("| Breakage | Part | File | Caught by |\n|---|---|---|---|")
        for name, part, path, verdict in rows:
            print(f"| {name} | {part} | `{path}` | {verdict} |")
    else:
        width = max(len(r[0]) for r in rows)
        for name, part, _, verdict in rows:
            print(f"{name:{width}}  {part:9} {verdict}")
    return 0 if all_caught else 1


if __name__ == "__main__":
    sys.exit(main())
