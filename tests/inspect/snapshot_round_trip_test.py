#!/usr/bin/env python3
"""The snapshot's round trip: every state `strata state` reads survives it.

A program that sets every piece of context state the state reader knows to a
value other than a fresh context's (every_state_app for GLES 2 and 3.2,
every_state_gles1_app for GLES 1.1) is traced; `strata trim --frames 1-`
cuts its first frame off, so the trimmed trace starts with the snapshot
(src/snapshot/) of what that frame left, replayed into a fresh context. At
each checkpoint of frame 1 (a glFlush; the calls between them bind other
objects, so that the reader sees their state too) `strata state --json` of
the full trace and of the trimmed one, at the same call, must be equal,
field by field. A field that differs is named, with both values.

So that the test cannot pass on state nobody set, the first checkpoint's
capabilities, values and bindings (GLES 1.1: also lights and material) must
each differ from a fresh context's (the state at the program's first GL
call): a field the reader learns to read fails here until the program sets
it.

Run by CTest, one test per GLES version (tests/inspect/CMakeLists.txt);
the paths come from the environment: STRATA_CLI, STRATA_EVERY_STATE_APP,
STRATA_EVERY_STATE_GLES1_APP. Only Python's standard library is used.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

STRATA = os.environ["STRATA_CLI"]
EVERY_STATE_APP = os.environ["STRATA_EVERY_STATE_APP"]
EVERY_STATE_GLES1_APP = os.environ["STRATA_EVERY_STATE_GLES1_APP"]

# What GLES 2 cannot set, though the reader reads it where the host context
# has it (Mesa gives a GLES 2 context all of 3.2).
GLES3_ONLY = {
    "GL_PRIMITIVE_RESTART_FIXED_INDEX", "GL_RASTERIZER_DISCARD", "GL_SAMPLE_MASK", "GL_DEBUG_OUTPUT",
    "GL_DEBUG_OUTPUT_SYNCHRONOUS", "GL_SAMPLE_SHADING", "GL_UNPACK_ROW_LENGTH", "GL_UNPACK_IMAGE_HEIGHT",
    "GL_UNPACK_SKIP_ROWS", "GL_UNPACK_SKIP_PIXELS", "GL_UNPACK_SKIP_IMAGES", "GL_PACK_ROW_LENGTH",
    "GL_PACK_SKIP_ROWS", "GL_PACK_SKIP_PIXELS", "GL_READ_BUFFER", "GL_FRAGMENT_SHADER_DERIVATIVE_HINT",
    "GL_READ_FRAMEBUFFER_BINDING", "GL_COPY_READ_BUFFER_BINDING", "GL_COPY_WRITE_BUFFER_BINDING",
    "GL_PIXEL_PACK_BUFFER_BINDING", "GL_PIXEL_UNPACK_BUFFER_BINDING", "GL_TRANSFORM_FEEDBACK_BUFFER_BINDING",
    "GL_UNIFORM_BUFFER_BINDING", "GL_TRANSFORM_FEEDBACK_BINDING", "GL_VERTEX_ARRAY_BINDING",
    "GL_ATOMIC_COUNTER_BUFFER_BINDING", "GL_DISPATCH_INDIRECT_BUFFER_BINDING", "GL_DRAW_INDIRECT_BUFFER_BINDING",
    "GL_SHADER_STORAGE_BUFFER_BINDING", "GL_PROGRAM_PIPELINE_BINDING", "GL_TEXTURE_BUFFER_BINDING",
}

# Fields of a list's elements that say which element it is (a texture: its
# unit and target), for the names of differences; else its name.
ELEMENT_KEYS = ("unit", "target", "index", "light", "attachment", "level")
IDENTITIES = frozenset(ELEMENT_KEYS + ("name",))

# What GLES 1.1 allows one value of only.
GLES1_FIXED = {"GL_COLOR_ARRAY_SIZE"}  # glColorPointer's size is 4


def run(args):
    result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def dump_lines(trace, frames="0-"):
    """(call number, what the call was, made up or not) for each call of `frames`."""
    calls = []
    for line in run([STRATA, "dump", "--no-header", "--frames", frames, trace]).splitlines():
        match = re.match(r"(\d+) (.*)", line)
        if not match:
            continue
        text = match.group(2)
        calls.append((int(match.group(1)), text.split("  (")[0], "[made up" in text))
    return calls


def state(trace, call):
    return json.loads(run([STRATA, "state", trace, str(call)]))["state"]


def element_name(element, index):
    if isinstance(element, dict):
        keys = [key for key in ELEMENT_KEYS if key in element] or [key for key in ("name",) if key in element]
        if keys:
            return "[" + ",".join(f"{key}={element[key]}" for key in keys) + "]"
    return f"[{index}]"


def differences(a, b, path=""):
    """(path, value in a, value in b) for every field where a and b differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in list(a) + [k for k in b if k not in a]:
            where = f"{path}.{key}" if path else key
            if key not in a or key not in b:
                found.append((where, a.get(key, "<missing>"), b.get(key, "<missing>")))
            else:
                found += differences(a[key], b[key], where)
        return found
    if isinstance(a, list) and isinstance(b, list) and any(isinstance(x, (dict, list)) for x in a + b):
        found = []
        names_a = [element_name(x, i) for i, x in enumerate(a)]
        names_b = [element_name(x, i) for i, x in enumerate(b)]
        for i, name in enumerate(names_a):
            if name in names_b:
                found += differences(a[i], b[names_b.index(name)], path + name)
            else:
                found.append((path + name, a[i], "<missing>"))
        found += [(path + name, "<missing>", b[i]) for i, name in enumerate(names_b) if name not in names_a]
        return found
    return [] if a == b else [(path, a, b)]


def leaves(value, path=""):
    """(path, value) of every scalar or list of scalars under `value`."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list) and any(isinstance(x, (dict, list)) for x in value):
        for i, item in enumerate(value):
            yield from leaves(item, path + element_name(item, i))
    else:
        yield path, value


class SnapshotRoundTrip(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="strata-snapshot-test-")

    def tearDown(self):
        # Removed also when the test fails (the failure message says what
        # differed); STRATA_KEEP_TEST_FILES=1 keeps them to look into.
        if os.environ.get("STRATA_KEEP_TEST_FILES"):
            print(f"test files kept in {self.dir}", file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def round_trip(self, program, checkpoints, checked_groups, not_settable=frozenset()):
        trace = os.path.join(self.dir, "full.strace")
        trimmed = os.path.join(self.dir, "trimmed.strace")
        run([STRATA, "trace", "-o", trace, "--"] + program)
        run([STRATA, "trim", trace, "--frames", "1-", "-o", trimmed])

        # The range's calls, in both traces: the trimmed one's follow its EGL and made-up calls.
        full = dump_lines(trace)
        range_calls = dump_lines(trace, "1-")
        cut = dump_lines(trimmed)
        made_up = [i for i, call in enumerate(cut) if call[2]]
        self.assertTrue(made_up, "the trimmed trace has no snapshot")
        cut_range = cut[made_up[-1] + 1:]
        self.assertEqual([c[1] for c in cut_range], [c[1] for c in range_calls])
        flushes = [i for i, call in enumerate(range_calls) if re.search(r"\] glFlush\(", call[1])]
        self.assertEqual(len(flushes), checkpoints, "the program's checkpoints (glFlush in frame 1)")

        # The state the program set must not be a fresh context's.
        first_gl = next(call[0] for call in full if re.search(r"\] gl[A-Z]", call[1]))
        fresh = dict(leaves({g: v for g, v in state(trace, first_gl).items() if g in checked_groups}))
        first = state(trace, range_calls[flushes[0]][0])
        left_at_default = [path for path, value in leaves({g: v for g, v in first.items() if g in checked_groups})
                           if fresh.get(path) == value and path.split(".")[-1] not in not_settable | IDENTITIES]
        self.assertEqual(left_at_default, [], "the program leaves these at a fresh context's values, so the "
                                              "round trip would not notice them missing from the snapshot")

        report = []
        for k, i in enumerate(flushes, 1):
            before = first if k == 1 else state(trace, range_calls[i][0])
            after = state(trimmed, cut_range[i][0])
            for path, expected, got in differences(before, after):
                report.append(f"checkpoint {k} (call {range_calls[i][0]}): {path}: "
                              f"traced {json.dumps(expected)}, after the snapshot {json.dumps(got)}")
        self.assertEqual(report, [], "state the snapshot does not restore:\n" + "\n".join(report))

    # Catches: a piece of GLES 3.x state the reader knows (a capability, a
    # value such as glBlendColor's, a binding, an indexed binding, a texture
    # or sampler parameter, a uniform, a vertex array's layout, a current
    # attribute value, a framebuffer's attachments, a transform feedback
    # object's buffers, a query's name) that the snapshot leaves out or sets
    # wrongly: trims and attaches of programs that set it replay wrong.
    def test_gles3(self):
        self.round_trip([EVERY_STATE_APP, "3"], 3, {"capabilities", "values", "bindings"})

    # Catches: the same for what a GLES 2 context has (the snapshot writes
    # GLES 2 calls only for it: its own path).
    def test_gles2(self):
        self.round_trip([EVERY_STATE_APP, "2"], 2, {"capabilities", "values", "bindings"}, GLES3_ONLY)

    # Catches: a piece of GLES 1.1 fixed-function state (a capability, a
    # light's or the material's parameter, fog, a matrix at any stack level,
    # a texture unit's environment or coordinates, a client array) that the
    # GLES 1.1 snapshot leaves out or sets wrongly.
    def test_gles1(self):
        self.round_trip([EVERY_STATE_GLES1_APP], 2, {"capabilities", "values", "lights", "material"}, GLES1_FIXED)


if __name__ == "__main__":
    unittest.main()
