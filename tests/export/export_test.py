#!/usr/bin/env python3
"""strata export, checked from the outside.

Real programs are traced (with framebuffer capture), exported, and the
output is read back independently of Strata's own code: the gltrace file by
its framing (4-byte big-endian sizes), a protobuf wire-format decoder whose
field numbers and wire types are Android's (written here, not generated from
Strata's src/export/gltrace.proto) and an LZF decoder written here; the JSON
with Python's json module. What is expected comes from `strata stats`/`strata
dump` of the same trace, from Android's published field and function numbers,
and from the PNG the traced app saved itself. Only Python's standard library
is used.

Run by CTest, one test per method (tests/export/CMakeLists.txt); the paths
come from the environment: STRATA_CLI, STRATA_BIN_DIR, STRATA_THREADED_APP.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import types
import unittest
import zlib

STRATA = os.environ["STRATA_CLI"]
BIN_DIR = os.environ["STRATA_BIN_DIR"]
THREADED_APP = os.environ["STRATA_THREADED_APP"]

# Android's numbers for these functions (frameworks/native/opengl/libs/GLES_trace/gltrace.proto).
ANDROID_NUMBERS = {
    "glClear": 33,
    "glDrawArrays": 85,
    "glDrawElements": 86,
    "glShaderSource": 303,
    "glUseProgram": 362,
    "glViewport": 374,
    "eglMakeCurrent": 2013,
    "eglSwapBuffers": 2020,
}
INVALID = 3000


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def run(*args, check=True):
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def lzf_decompress(data):
    """liblzf's format: literal runs (control < 32) and back references."""
    out = bytearray()
    i = 0
    while i < len(data):
        control = data[i]
        i += 1
        if control < 32:
            length = control + 1
            out += data[i:i + length]
            i += length
        else:
            length = control >> 5
            if length == 7:
                length += data[i]
                i += 1
            ref = len(out) - ((control & 31) << 8) - 1 - data[i]
            i += 1
            if ref < 0:
                raise ValueError("LZF back reference before the start")
            for k in range(length + 2):
                out.append(out[ref + k])
    return bytes(out)


def read_png_rgba(path):
    """Non-interlaced 8-bit RGBA PNG (what the sample apps save) to rows of bytes, top row first."""
    data = read_bytes(path)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    at, idat, width, height = 8, b"", 0, 0
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, color, interlace) == (8, 6, 0), "expected 8-bit RGBA, not interlaced"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride, rows, previous = width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b = previous[x]
            c = previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


# Android's gltrace format, written here as facts taken from Android's published
# frameworks/native/opengl/libs/GLES_trace/gltrace.proto (package android.gltrace),
# NOT from Strata's own copy in src/export/gltrace.proto: the output is decoded by
# these field numbers and wire types alone.
# Catches: a field number, wire type (say int32 made fixed32 or sint32) or
# required field in src/export/gltrace.proto that differs from Android's, and any
# field Android's format does not have; a generated decoder would share the mistake.

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5  # protobuf wire types
WIRE_TYPE_OF_KIND = {"int32": VARINT, "int64": VARINT, "enum": VARINT, "bool": VARINT,
                     "float": FIXED32, "bytes": LENGTH_DELIMITED, "message": LENGTH_DELIMITED}
PACKABLE_KINDS = ("int32", "int64", "enum", "bool", "float")  # repeated ones may come packed
REQUIRED, OPTIONAL, REPEATED = "required", "optional", "repeated"

# GLMessage.DataType.Type
DATA_TYPE_TYPES = {"VOID": 1, "CHAR": 2, "BYTE": 3, "INT": 4, "FLOAT": 5, "BOOL": 6, "ENUM": 7, "INT64": 8}
TYPE_CHAR, TYPE_INT, TYPE_ENUM, TYPE_INT64 = (DATA_TYPE_TYPES[t] for t in ("CHAR", "INT", "ENUM", "INT64"))


class Field:
    def __init__(self, number, name, label, kind, message=None, values=None):
        self.number, self.name, self.label, self.kind = number, name, label, kind
        self.message = message  # the Schema of a "message" field
        self.values = values  # the values an enum may take, where pinned here


class Schema:
    def __init__(self, name, fields):
        self.name, self.fields = name, {f.number: f for f in fields}


FRAME_BUFFER = Schema("GLMessage.FrameBuffer", [
    Field(1, "width", REQUIRED, "int32"),
    Field(2, "height", REQUIRED, "int32"),
    Field(3, "contents", REPEATED, "bytes"),
])
DATA_TYPE = Schema("GLMessage.DataType", [
    Field(1, "type", REQUIRED, "enum", values=set(DATA_TYPE_TYPES.values())),
    Field(2, "isArray", REQUIRED, "bool"),
    Field(3, "intValue", REPEATED, "int32"),
    Field(4, "floatValue", REPEATED, "float"),
    Field(5, "charValue", REPEATED, "bytes"),
    Field(6, "rawBytes", REPEATED, "bytes"),
    Field(7, "boolValue", REPEATED, "bool"),
    Field(8, "int64Value", REPEATED, "int64"),
])
GL_MESSAGE = Schema("GLMessage", [
    Field(1, "context_id", REQUIRED, "int32"),
    Field(2, "start_time", REQUIRED, "int64"),
    Field(3, "duration", REQUIRED, "int32"),
    Field(4, "function", REQUIRED, "enum"),  # GLMessage.Function; numbers checked by the tests (ANDROID_NUMBERS)
    Field(5, "args", REPEATED, "message", DATA_TYPE),
    Field(6, "returnValue", OPTIONAL, "message", DATA_TYPE),
    Field(7, "fb", OPTIONAL, "message", FRAME_BUFFER),
    Field(8, "threadtime", OPTIONAL, "int32"),
])


def read_varint(data, at, end, what):
    """A base-128 varint of at most 10 bytes (64 bits) from data[at:end]: (value, where it ends)."""
    start, value, shift = at, 0, 0
    while True:
        if at >= end:
            raise AssertionError(f"{what} at byte {start}: varint truncated")
        byte = data[at]
        at += 1
        if shift == 63 and byte > 1:
            raise AssertionError(f"{what} at byte {start}: varint longer than 64 bits")
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7


def read_scalar(field, data, at, end, what):
    """One value of a scalar field (its wire type already checked): (value, where it ends)."""
    if field.kind == "float":
        if at + 4 > end:
            raise AssertionError(f"{what} at byte {at}: fixed32 truncated")
        return struct.unpack_from("<f", data, at)[0], at + 4
    if field.kind == "bytes":
        length, body = read_varint(data, at, end, what)
        if body + length > end:
            raise AssertionError(f"{what} at byte {at}: length {length} runs past the end at byte {end}")
        return data[body:body + length], body + length
    raw, after = read_varint(data, at, end, what)
    value = raw - (1 << 64) if raw >= 1 << 63 else raw  # negative int32/int64 come as 10-byte varints
    if field.kind in ("int32", "enum") and not -(1 << 31) <= value < 1 << 31:
        raise AssertionError(f"{what} at byte {at}: {raw} is not an int32")
    if field.kind == "bool":
        if raw not in (0, 1):
            raise AssertionError(f"{what} at byte {at}: {raw} is not a bool")
        value = bool(raw)
    if field.values is not None and value not in field.values:
        raise AssertionError(f"{what} at byte {at}: {value} is not one of {sorted(field.values)}")
    return value, after


def decode_message(schema, data, start=0, end=None):
    """data[start:end] decoded by schema into an object with one attribute per field: a list for a
    repeated one (empty when absent), None for an absent optional one. Offsets in errors are in data."""
    end = len(data) if end is None else end
    fields = {f.name: [] if f.label == REPEATED else None for f in schema.fields.values()}
    at = start
    while at < end:
        tag_at = at
        tag, at = read_varint(data, at, end, f"{schema.name} tag")
        number, wire_type = tag >> 3, tag & 7
        field = schema.fields.get(number)
        if field is None:
            raise AssertionError(f"{schema.name} at byte {tag_at}: field {number} (wire type {wire_type}) "
                                 "is not in Android's gltrace.proto")
        what = f"{schema.name}.{field.name} (field {number})"
        expected = WIRE_TYPE_OF_KIND[field.kind]
        packed = field.label == REPEATED and field.kind in PACKABLE_KINDS and wire_type == LENGTH_DELIMITED
        if wire_type != expected and not packed:
            raise AssertionError(f"{what} at byte {tag_at}: wire type {wire_type}, "
                                 f"Android's is {expected} ({field.kind})")
        if packed:
            length, body = read_varint(data, at, end, what)
            if body + length > end:
                raise AssertionError(f"{what} at byte {at}: length {length} runs past the end at byte {end}")
            at = body
            while at < body + length:
                value, at = read_scalar(field, data, at, body + length, what)
                fields[field.name].append(value)
            continue
        if field.kind == "message":
            length, body = read_varint(data, at, end, what)
            if body + length > end:
                raise AssertionError(f"{what} at byte {at}: length {length} runs past the end at byte {end}")
            value, at = decode_message(field.message, data, body, body + length), body + length
        else:
            value, at = read_scalar(field, data, at, end, what)
        if field.label == REPEATED:
            fields[field.name].append(value)
        elif fields[field.name] is not None:
            raise AssertionError(f"{what} at byte {tag_at}: a second value of a field that is not repeated")
        else:
            fields[field.name] = value
    for field in schema.fields.values():
        if field.label == REQUIRED and fields[field.name] is None:
            raise AssertionError(f"{schema.name} at byte {start}: required {field.name} (field {field.number}) missing")
    return types.SimpleNamespace(**fields)


def read_gltrace(path):
    """The messages of a .gltrace file: each is a 4-byte big-endian size and a serialized GLMessage,
    decoded by Android's field numbers (decode_message, GL_MESSAGE)."""
    data = read_bytes(path)
    messages, at = [], 0
    while at < len(data):
        if at + 4 > len(data):
            raise AssertionError(f"{path}: {len(data) - at} stray bytes at the end")
        (size,) = struct.unpack(">I", data[at:at + 4])
        if at + 4 + size > len(data):
            raise AssertionError(f"{path}: message at byte {at} runs past the end")
        messages.append(decode_message(GL_MESSAGE, data, at + 4, at + 4 + size))
        at += 4 + size
    return messages


def stats(trace):
    return json.loads(run(STRATA, "stats", "--json", "--top", "0", trace).stdout)


def dump_calls(trace):
    return [json.loads(line) for line in run(STRATA, "dump", "--json", trace).stdout.splitlines() if line]


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="strata-export-test-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def trace_shaders_app(self, frames=4, capture="swap,draw"):
        """gles2_shaders traced with capture, and the PNG of its last frame."""
        trace, png = self.path("shaders.strace"), self.path("shaders.png")
        run(STRATA, "trace", "--capture", capture, "-o", trace, "--", os.path.join(BIN_DIR, "gles2_shaders"),
            "--frames", str(frames), "--size", "160x120", "--output", png)
        return trace, png

    def export(self, trace, output, *options):
        return run(STRATA, "export", trace, "-o", output, *options)

    # gltrace --------------------------------------------------------------

    def test_gltrace_decoder_reads_android_field_numbers(self):
        """The decoder itself, on a GLMessage encoded here by hand from Android's field numbers."""
        good = (b"\x08\x07"                  # 1 context_id, varint: 7
                b"\x10\xac\x02"              # 2 start_time, varint: 300
                b"\x18\x05"                  # 3 duration, varint: 5
                b"\x20\x55"                  # 4 function, varint: 85 (glDrawArrays)
                # 5 args[0], 6 bytes: type ENUM, isArray false, intValue 4 (unpacked)
                b"\x2a\x06" b"\x08\x07\x10\x00\x18\x04"
                # 5 args[1], 19 bytes: type INT, isArray true, intValue packed in 13 bytes: 1, 300, -1
                # (a negative int32 is a 10-byte varint)
                b"\x2a\x13" b"\x08\x04\x10\x01\x1a\x0d" b"\x01" b"\xac\x02" b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"
                # 5 args[2], 9 bytes: type FLOAT, isArray false, floatValue 1.5 (fixed32, little-endian)
                b"\x2a\x09" b"\x08\x05\x10\x00\x25\x00\x00\xc0\x3f"
                # 6 returnValue, 8 bytes: type CHAR, isArray true, charValue "hi"
                b"\x32\x08" b"\x08\x02\x10\x01\x2a\x02hi"
                # 7 fb, 9 bytes: width 2, height 1, contents b"\x01ab"
                b"\x3a\x09" b"\x08\x02\x10\x01\x1a\x03\x01ab"
                b"\x40\x2a")                 # 8 threadtime, varint: 42
        m = decode_message(GL_MESSAGE, good)
        self.assertEqual((m.context_id, m.start_time, m.duration, m.function, m.threadtime), (7, 300, 5, 85, 42))
        self.assertEqual([a.type for a in m.args], [TYPE_ENUM, TYPE_INT, DATA_TYPE_TYPES["FLOAT"]])
        self.assertEqual([a.isArray for a in m.args], [False, True, False])
        self.assertEqual(m.args[0].intValue, [4])
        self.assertEqual(m.args[1].intValue, [1, 300, -1])
        self.assertEqual((m.args[2].floatValue, m.args[2].intValue), ([1.5], []))
        self.assertEqual((m.returnValue.type, m.returnValue.charValue), (TYPE_CHAR, [b"hi"]))
        self.assertEqual((m.fb.width, m.fb.height, m.fb.contents), (2, 1, [b"\x01ab"]))
        bare = decode_message(GL_MESSAGE, b"\x08\x07\x10\xac\x02\x18\x05\x20\x55")
        self.assertEqual((bare.args, bare.returnValue, bare.fb, bare.threadtime), ([], None, None, None))

        def rejected(data, pattern):
            with self.assertRaisesRegex(AssertionError, pattern):
                decode_message(GL_MESSAGE, data)

        # duration as fixed32 (wire type 5) where Android has an int32 varint
        rejected(good.replace(b"\x18\x05", b"\x1d\x05\x00\x00\x00", 1), r"duration \(field 3\) at byte 5: wire type 5")
        # a field 9, which Android's GLMessage does not have
        rejected(good + b"\x48\x01", rf"GLMessage at byte {len(good)}: field 9 .*not in Android's")
        # the same inside a DataType: args[0]'s field 9
        rejected(good.replace(b"\x2a\x06\x08\x07", b"\x2a\x08\x48\x00\x08\x07", 1),
                 r"GLMessage.DataType at byte 11: field 9 ")
        rejected(good.replace(b"\x20\x55", b"", 1), r"required function \(field 4\) missing")
        rejected(good[:4], r"start_time \(field 2\) at byte 3: varint truncated")
        rejected(good[:-4], r"fb \(field 7\) at byte \d+: length 9 runs past the end")

    # Catches: calls missing from the export, Android function numbers wrong, arguments of the wrong type or value.
    def test_gltrace_holds_every_call_with_android_numbers_and_arguments(self):
        trace, _ = self.trace_shaders_app()
        output = self.path("shaders.gltrace")
        result = self.export(trace, output)
        messages = read_gltrace(output)
        summary = stats(trace)
        self.assertEqual(len(messages), summary["calls"], "one message per call")
        per_function = {f["name"]: f["calls"] for f in summary["functions"]}
        for name, number in ANDROID_NUMBERS.items():
            written = sum(1 for m in messages if m.function == number)
            self.assertEqual(written, per_function.get(name, 0), f"{name} (Android number {number})")
        self.assertGreater(per_function["glDrawArrays"], 0)
        self.assertGreater(per_function["glDrawElements"], 0)
        # Functions Android never numbered are written as `invalid` and reported once.
        self.assertEqual(sum(1 for m in messages if m.function == INVALID), per_function["eglGetPlatformDisplay"])
        self.assertEqual(result.stderr.count("no number for"), 1, result.stderr)
        self.assertIn("eglGetPlatformDisplay (1)", result.stderr)

        calls = dump_calls(trace)
        self.assertEqual(len(calls), len(messages))
        for call, message in zip(calls, messages):  # one thread: both in call order
            self.assertEqual(message.context_id, call["context"], call)
            self.assertEqual(message.duration, call["duration_ns"], call)
            self.assertEqual(len(message.args), len(call["args"]), call)
        starts = [m.start_time for m in messages]
        self.assertEqual(starts, sorted(starts), "start times grow within a thread")
        self.assertGreater(starts[0], 10**18, "start_time is in ns since 1970")

        # A draw: mode as ENUM, first and count as INT, the values the trace holds.
        draw_call = next(c for c in calls if c["function"] == "glDrawArrays")
        draw = messages[calls.index(draw_call)]
        self.assertEqual(draw.function, 85)
        self.assertEqual([a.type for a in draw.args], [TYPE_ENUM, TYPE_INT, TYPE_INT])
        self.assertEqual(draw.args[1].intValue[0], int(draw_call["args"][1]["value"]))
        self.assertEqual(draw.args[2].intValue[0], int(draw_call["args"][2]["value"]))
        self.assertIn(draw.args[0].intValue[0], (4, 5, 6), "GL_TRIANGLES, _STRIP or _FAN")
        # Shader source as one CHAR value, as Android's tracer wrote it.
        source = next(m for m in messages if m.function == 303)
        self.assertEqual(source.args[2].type, TYPE_CHAR)
        self.assertTrue(source.args[2].isArray)
        text = source.args[2].charValue[0].decode()
        self.assertIn("void main()", text)
        self.assertIn("gl_Position", text)
        self.assertEqual(source.args[3].type, TYPE_INT64, "length: a NULL pointer, as an address")
        # glCreateShader's return value is the shader glShaderSource names.
        created = [m.returnValue.intValue[0] for m in messages if m.function == 59]  # glCreateShader
        self.assertIn(source.args[0].intValue[0], created)

    # Catches: images missing, not flipped as Android expects, or badly compressed.
    def test_gltrace_framebuffer_images_are_the_frames_the_app_rendered(self):
        trace, png = self.trace_shaders_app(frames=4)
        output = self.path("shaders.gltrace")
        result = self.export(trace, output)
        messages = read_gltrace(output)
        swaps = [m for m in messages if m.function == 2020]
        self.assertEqual(len(swaps), 4)
        self.assertTrue(all(m.fb is not None for m in swaps), "capture at swap: every swap carries its image")
        draws = [m for m in messages if m.function in (85, 86)]
        self.assertTrue(all(m.fb is not None for m in draws), "capture after draws: every draw carries one")
        self.assertEqual(sum(1 for m in messages if m.fb is not None), len(swaps) + len(draws))
        self.assertIn(f"{len(swaps) + len(draws)} framebuffer images", result.stderr)

        last = swaps[-1].fb
        self.assertEqual((last.width, last.height), (160, 120))
        pixels = lzf_decompress(last.contents[0])
        self.assertEqual(len(pixels), 160 * 120 * 4)
        self.assertGreater(len({pixels[i:i + 4] for i in range(0, len(pixels), 4)}), 100, "not a blank image")
        # Bottom row first, as glReadPixels returns it: row y is the PNG's row 119 - y.
        width, height, rows = read_png_rgba(png)
        self.assertEqual((width, height), (160, 120))
        stride = width * 4
        differing = sum(1 for y in range(height) if pixels[y * stride:(y + 1) * stride] != rows[height - 1 - y])
        self.assertEqual(differing, 0, "the last swap's image is the app's own last frame, rows flipped")

    def test_gltrace_swap_only_capture_puts_images_on_swaps(self):
        trace, _ = self.trace_shaders_app(frames=3, capture="swap")
        output = self.path("swap.gltrace")
        self.export(trace, output)
        messages = read_gltrace(output)
        with_image = [m.function for m in messages if m.fb is not None]
        self.assertEqual(with_image, [2020, 2020, 2020])

    def test_gltrace_frame_and_call_ranges(self):
        trace, _ = self.trace_shaders_app(frames=5)
        frames = self.path("frames.gltrace")
        self.export(trace, frames, "--frames", "1-2")
        messages = read_gltrace(frames)
        self.assertEqual(sum(1 for m in messages if m.function == 2020), 2, "frames 1 and 2 end with one swap each")
        self.assertEqual(len(messages), sum(f["calls"] for f in stats(trace)["per_frame"][1:3]))
        calls = self.path("calls.gltrace")
        self.export(trace, calls, "--format", "gltrace", "--calls", "10-19")
        self.assertEqual(len(read_gltrace(calls)), 10)

    # chrome-json ----------------------------------------------------------

    # Catches: times in the wrong unit, slices on the wrong thread, frame markers missing.
    def test_chrome_json_has_a_slice_per_call_per_thread_and_frame_markers(self):
        frames_per_thread = 12
        trace = self.path("threaded.strace")
        run(STRATA, "trace", "-o", trace, "--", THREADED_APP, str(frames_per_thread))
        output = self.path("threaded.json")
        self.export(trace, output, "--format", "chrome-json")
        with open(output, encoding="utf-8") as f:
            document = json.load(f)
        events = document["traceEvents"]
        calls = dump_calls(trace)
        pid = int(re.search(r"\(pid (\d+)\)", run(STRATA, "dump", "--calls", "0", trace).stdout).group(1))

        slices = [e for e in events if e["ph"] == "X" and e["cat"] in ("gles", "egl")]
        self.assertEqual(len(slices), len(calls), "one slice per call")
        self.assertTrue(all(e["pid"] == pid for e in events), "pid from the trace header")
        self.assertEqual({e["tid"] for e in slices}, {c["thread"] for c in calls}, "tid = traced thread")
        self.assertGreaterEqual(len({e["tid"] for e in slices}), 4, "main thread and three render threads")
        by_seq = {c["seq"]: c for c in calls}
        for event in slices:
            call = by_seq[event["args"]["seq"]]
            self.assertEqual((event["name"], event["tid"]), (call["function"], call["thread"]))
            self.assertAlmostEqual(event["ts"], call["start_ns"] / 1000, places=3)
            self.assertAlmostEqual(event["dur"], call["duration_ns"] / 1000, places=3)
        # Per thread, in call order: times grow and slices do not overlap.
        for tid in {e["tid"] for e in slices}:
            mine = sorted((e for e in slices if e["tid"] == tid), key=lambda e: e["args"]["seq"])
            for before, after in zip(mine, mine[1:]):
                self.assertLessEqual(before["ts"] + before["dur"], after["ts"] + 1e-3, (before, after))
        named = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
        self.assertTrue({e["tid"] for e in slices} <= named, "every thread has a name")

        # Frame markers: a slice per frame, on a track per rendering thread.
        frame_slices = [e for e in events if e["ph"] == "X" and e["cat"] == "frame"]
        swaps = [c for c in calls if c["function"] == "eglSwapBuffers"]
        self.assertEqual(len(swaps), 3 * frames_per_thread)
        self.assertEqual(len(frame_slices), len(swaps), "one frame slice per frame")
        self.assertEqual(sorted(e["args"]["frame"] for e in frame_slices), list(range(len(swaps))))
        tracks = {e["tid"] for e in frame_slices}
        self.assertEqual(len(tracks), 3)
        self.assertTrue(tracks.isdisjoint({e["tid"] for e in slices}), "frames have tracks of their own")
        for track in tracks:
            mine = sorted((e for e in frame_slices if e["tid"] == track), key=lambda e: e["ts"])
            self.assertEqual(len(mine), frames_per_thread)
            for before, after in zip(mine, mine[1:]):
                self.assertAlmostEqual(before["ts"] + before["dur"], after["ts"], places=3)  # back to back
            thread_swaps = sorted(c["start_ns"] + c["duration_ns"] for c in swaps if c["thread"] == mine[0]["args"]["thread"])
            self.assertEqual([round(e["ts"] + e["dur"], 3) for e in mine], [round(t / 1000, 3) for t in thread_swaps],
                             "a frame ends when its swap returns")

        # Arguments: enum names and integers.
        clear = next(e for e in slices if e["name"] == "glClear")
        self.assertEqual(clear["args"]["mask"], "GL_COLOR_BUFFER_BIT")
        draw = next(e for e in slices if e["name"] == "glDrawArrays")
        self.assertEqual((draw["args"]["first"], draw["args"]["count"]), (0, 3))

    def test_chrome_json_to_standard_output(self):
        trace, _ = self.trace_shaders_app(frames=2, capture="swap")
        result = run(STRATA, "export", "--format", "chrome-json", "--frames", "1", trace, "-o", "-")
        events = json.loads(result.stdout)["traceEvents"]
        self.assertEqual(len([e for e in events if e.get("cat") == "frame"]), 1)
        self.assertEqual(len([e for e in events if e.get("name") == "eglSwapBuffers"]), 1)

    # bad input and output -------------------------------------------------

    def expect_one_error(self, result, *fragments):
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stderr.count("error:"), 1, result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)

    def test_truncated_trace_exports_what_is_there_with_a_warning(self):
        trace, _ = self.trace_shaders_app(frames=6)
        data = read_bytes(trace)
        cut = self.path("cut.strace")
        write_bytes(cut, data[:len(data) * 2 // 3])
        output = self.path("cut.gltrace")
        result = run(STRATA, "export", cut, "-o", output, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stderr, r"warning: .*chunk at byte \d+ is truncated")
        messages = read_gltrace(output)
        self.assertGreater(len(messages), 100)
        self.assertLess(len(messages), stats(trace)["calls"])
        json_output = self.path("cut.json")
        self.assertEqual(run(STRATA, "export", cut, "-o", json_output, check=False).returncode, 0)
        with open(json_output, encoding="utf-8") as f:
            self.assertGreater(len(json.load(f)["traceEvents"]), 100)

    def test_corrupt_byte_is_an_error_with_its_offset(self):
        trace, _ = self.trace_shaders_app(frames=6)
        data = bytearray(read_bytes(trace))
        data[len(data) // 2] ^= 0x55
        bad = self.path("bad.strace")
        write_bytes(bad, data)
        for output in (self.path("bad.gltrace"), self.path("bad.json")):
            result = run(STRATA, "export", bad, "-o", output, check=False)
            self.expect_one_error(result, "corrupt")
            self.assertRegex(result.stderr, r"at byte \d+")
            self.assertIn("holds the", result.stderr)

    def test_foreign_and_missing_files_are_errors_and_leave_no_output(self):
        output = self.path("never.gltrace")
        foreign = run(STRATA, "export", "/bin/true", "-o", output, check=False)
        self.expect_one_error(foreign, "byte")
        missing = run(STRATA, "export", self.path("missing.strace"), "-o", output, check=False)
        self.expect_one_error(missing, self.path("missing.strace"))
        self.assertFalse(os.path.exists(output))

    def test_unwritable_output_is_a_clear_error(self):
        trace, _ = self.trace_shaders_app(frames=2, capture="swap")
        no_dir = run(STRATA, "export", trace, "-o", "/proc/strata-no-such-dir/x.gltrace", check=False)
        self.expect_one_error(no_dir, "cannot write /proc/strata-no-such-dir/x.gltrace")
        full = run(STRATA, "export", "--format", "gltrace", trace, "-o", "/dev/full", check=False)
        self.expect_one_error(full, "cannot write /dev/full", "No space left on device")
        itself = run(STRATA, "export", "--format", "gltrace", trace, "-o", trace, check=False)
        self.assertEqual(itself.returncode, 2, itself.stderr)
        self.assertGreater(os.path.getsize(trace), 1000, "the trace is untouched")

    def test_usage(self):
        help_text = run(STRATA, "export", "--help").stdout
        self.assertIn("usage: strata export", help_text)
        self.assertIn("--format", help_text)
        self.assertIn("export", run(STRATA, "--help").stdout)
        for args in ([], ["t.strace"], ["t.strace", "-o", "x.txt"], ["t.strace", "-o", "x.json", "--format", "svg"],
                     ["t.strace", "-o", "x.json", "--frames", "b-a"], ["t.strace", "-o", "x.json", "--bogus"]):
            result = run(STRATA, "export", *args, check=False)
            self.assertEqual(result.returncode, 2, (args, result.stderr))
            self.assertIn("error:", result.stderr)


if __name__ == "__main__":
    unittest.main()
