#!/usr/bin/env python3
"""strata dump, checked from the outside.

The names: one program (glmark2-es2, several scenes) is traced by apitrace
and by Strata, and both dumps are read here. Every argument, attribute and
result apitrace prints by name must print by name in Strata's dump too, with
the same value (an alias such as EGL_PLATFORM_X11_EXT for
EGL_PLATFORM_X11_KHR counts: both are looked up in the Khronos registries
here). Arguments are matched by function and position, so that a parameter
apitrace names differently still counts.

The JSON: typed values (numbers, names, booleans, null, attribute pairs,
blobs with a size and a hash) as docs/dump-json.md says; --calls prints only
the calls asked for.

Run by CTest as one test (tests/dump/CMakeLists.txt), under a
virtual X server; the paths come from the environment: STRATA_CLI,
STRATA_GL_XML, STRATA_EGL_XML.
"""

import collections
import json
import os
import re
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

STRATA = os.environ["STRATA_CLI"]
GL_XML = os.environ["STRATA_GL_XML"]
EGL_XML = os.environ["STRATA_EGL_XML"]

GLMARK2 = ["glmark2-es2", "--off-screen", "--size", "128x128",
           "-b", "build:use-vbo=false:duration=0.2", "-b", "texture:texture-filter=mipmap:duration=0.2",
           "-b", "shading:shading=phong:duration=0.2", "-b", "bump:bump-render=normals:duration=0.2",
           "-b", "effect2d:duration=0.2", "-b", "pulsar:duration=0.2", "-b", "desktop:duration=0.2",
           "-b", "buffer:update-method=map:duration=0.2", "-b", "clear:duration=0.2"]
NAME = re.compile(r"^(?:GL|EGL)_\w+$")


def run(*args, check=True, **kwargs):
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=300, **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}:\n{result.stdout[-2000:]}\n"
                             f"{result.stderr[-2000:]}")
    return result


def registry_values():
    """Every GL and EGL token name -> value, from the registries."""
    values = {}
    for path in (GL_XML, EGL_XML):
        for e in ET.parse(path).getroot().iter("enum"):
            try:
                values.setdefault(e.get("name"), int(e.get("value"), 0) & 0xFFFFFFFF)
            except (TypeError, ValueError):
                pass
    return values


def unquoted(text, start=0):
    """(index, character, bracket depth after it) of each character outside double quotes."""
    depth, quoted, i = 0, False, start
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        else:
            depth += (c in "{([") - (c in "})]")
            yield i, c, depth
        i += 1


def split_top_level(text, separators=","):
    """Splits at separators outside quotes, braces and parentheses."""
    parts, start = [], 0
    for i, c, depth in unquoted(text):
        if c in separators and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


HEAD = re.compile(r"^(\d+) (?:\[\d+\] )?(\w+)\(")


def closing_paren(text, start):
    """Index of the ')' that closes the '(' before `start`, outside quotes; -1 when none."""
    for i, c, depth in unquoted(text, start):
        if depth == -1:
            return i
    return -1


def parse_call(line, assign):
    """(number, function, [argument value texts], result text or None), or None for other lines."""
    m = HEAD.match(line)
    if not m:
        return None
    end = closing_paren(line, m.end())
    if end < 0:
        return None
    args = []
    for part in split_top_level(line[m.end():end]):
        name, sep, value = part.partition(assign)
        args.append(value.strip() if sep else part)
    rest = line[end + 1:]
    rest = re.sub(r"  \((?:[\d.]+ us|untimed)\).*$| // .*$", "", rest)
    result = rest[3:].strip() if rest.startswith(" = ") else None
    return int(m.group(1)), m.group(2), args, result


def parse_dump(text, assign):
    """Calls as (function, [argument value texts], result text or None)."""
    return [c[1:] for c in (parse_call(line, assign) for line in text.splitlines()) if c]


def attribute_pairs(value):
    """An attribute list's (key, value) texts: apitrace's {K, V, ..., EGL_NONE}, Strata's {K: V, ..., EGL_NONE}."""
    if not (value.startswith("{") and value.endswith("}")):
        return None
    items = split_top_level(value[1:-1], ",:")
    pairs = []
    for i in range(0, len(items) - 1, 2):
        pairs.append((items[i], items[i + 1]))
    return pairs


def observations(calls):
    """(function, where) -> {value text}: where is an argument position, 'result', or an attribute key."""
    seen = collections.defaultdict(set)
    for function, args, result in calls:
        for position, value in enumerate(args):
            seen[(function, position)].add(value)
            if not (function.startswith("egl") and value.endswith("EGL_NONE}")):
                continue
            for key, attribute_value in attribute_pairs(value):
                seen[(function, "attribute key")].add(key)
                seen[(function, "value of " + key)].add(attribute_value)
        if result is not None:
            seen[(function, "result")].add(result)
    return seen


class DumpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.values = registry_values()
        cls.apitrace_file = os.path.join(cls.dir.name, "glmark2.trace")
        cls.strata_file = os.path.join(cls.dir.name, "glmark2.strace")
        run("apitrace", "trace", "--api", "egl", "-o", cls.apitrace_file, *GLMARK2)
        run(STRATA, "trace", "-o", cls.strata_file, "--", *GLMARK2)
        cls.apitrace_dump = run("apitrace", "dump", "--color=never", "--multiline=no", cls.apitrace_file).stdout
        cls.strata_dump = run(STRATA, "dump", "--no-header", cls.strata_file).stdout

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def value_of(self, text):
        """A printed value as a number, or a frozenset of bits for "A | B"; None for other text."""
        names = [t.strip() for t in text.split("|")]
        if len(names) > 1:
            bits = set()
            for n in names:
                v = self.values.get(n) if NAME.match(n) else (int(n, 0) if re.fullmatch(r"0x[0-9a-f]+", n) else None)
                if v is None:
                    return None
                bits.add(v)
            return frozenset(bits)
        if NAME.match(text):
            v = self.values.get(text)
            return frozenset([v]) if v is not None and v and (v & (v - 1)) == 0 else v
        try:
            v = int(text, 0)
        except ValueError:
            return None
        return frozenset([v]) if v and (v & (v - 1)) == 0 else v

    def test_every_value_apitrace_names_strata_names_alike(self):
        apitrace = observations(parse_dump(self.apitrace_dump, " = "))
        strata = observations(parse_dump(self.strata_dump, "="))
        checked, missing = 0, []
        for where, texts in sorted(apitrace.items(), key=str):
            if where not in strata:
                continue
            strata_by_value = collections.defaultdict(set)
            for text in strata[where]:
                value = self.value_of(text)
                if value is not None:
                    strata_by_value[value].add(text)
            for text in sorted(texts):
                if not all(NAME.match(t.strip()) for t in text.split("|")):
                    continue  # a number, a pointer, a string: nothing named
                value = self.value_of(text)
                self.assertIsNotNone(value, f"apitrace's {text} is not in the registries")
                if value not in strata_by_value:
                    continue  # this run of the program never passed that value
                checked += 1
                printed = strata_by_value[value]
                if not all(all(NAME.match(t.strip()) for t in p.split("|")) for p in printed):
                    missing.append(f"{where[0]} {where[1]}: apitrace {text}, Strata {sorted(printed)}")
        self.assertEqual(missing, [], "values apitrace prints by name and Strata does not")
        print(f"{checked} named values compared with apitrace's dump")
        # Enough to mean something: glmark2's scenes pass dozens of named values.
        self.assertGreater(checked, 60)

    def test_every_name_strata_prints_is_a_registry_name(self):
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', '""', self.strata_dump)  # shader sources say GL_ES
        names = set(re.findall(r"\b(?:GL|EGL)_[A-Z0-9_]+\b", unquoted))
        self.assertIn("GL_TRIANGLES", names)
        unknown = sorted(n for n in names if n not in self.values and n not in ("GL_TRUE", "GL_FALSE"))
        self.assertEqual(unknown, [], "names Strata prints that no registry defines")

    def test_the_examples_read_as_apitrace_prints_them(self):
        for expected in ("glClear(mask=GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT)",
                         "glDrawArrays(mode=GL_TRIANGLES, ", "eglBindAPI(api=EGL_OPENGL_ES_API)",
                         "eglGetError() = EGL_SUCCESS",
                         "attrib_list={EGL_RENDERABLE_TYPE: EGL_OPENGL_ES2_BIT, EGL_NONE}",
                         "glTexParameteri(target=GL_TEXTURE_2D, pname=GL_TEXTURE_MIN_FILTER, "
                         "param=GL_LINEAR_MIPMAP_LINEAR)"):
            self.assertIn(expected, self.strata_dump)

    def test_json_values_are_typed(self):
        lines = run(STRATA, "dump", "--json", self.strata_file).stdout.splitlines()
        calls = [json.loads(line) for line in lines]
        self.assertEqual(len(calls), len(parse_dump(self.strata_dump, "=")))
        by_function = collections.defaultdict(list)
        for call in calls:
            by_function[call["function"]].append(call)

        def args(call):
            return {a["name"]: a["value"] for a in call["args"]}

        draw = args(by_function["glDrawArrays"][0])
        self.assertEqual(draw["mode"], "GL_TRIANGLES")
        self.assertIsInstance(draw["first"], int)
        self.assertIsInstance(draw["count"], int)
        self.assertGreater(draw["count"], 0)
        clear = args(by_function["glClear"][0])
        self.assertEqual(clear["mask"], "GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT")
        colors = [args(c) for c in by_function["glClearColor"]]
        self.assertTrue(all(isinstance(c["red"], (int, float)) for c in colors))
        choose = args(by_function["eglChooseConfig"][0])
        self.assertIn(["EGL_RENDERABLE_TYPE", "EGL_OPENGL_ES2_BIT"], choose["attrib_list"])
        self.assertIsInstance(choose["config_size"], int)
        self.assertIs(by_function["eglChooseConfig"][0]["result"], True)
        self.assertEqual(by_function["eglGetError"][0]["result"], "EGL_SUCCESS")
        pointer = args(by_function["glVertexAttribPointer"][0])
        self.assertIs(pointer["normalized"], False)
        self.assertIn(pointer["type"], ("GL_FLOAT", "GL_UNSIGNED_BYTE"))
        uploads = [args(c) for c in by_function["glBufferData"] if isinstance(args(c)["data"], dict)]
        self.assertTrue(uploads, "no glBufferData with data")
        blob = uploads[0]["data"]
        self.assertEqual(blob["size"], uploads[0]["size"])
        self.assertRegex(blob["fnv1a64"], r"^[0-9a-f]{16}$")
        matrices = [args(c)["value"] for c in by_function["glUniformMatrix4fv"]]
        self.assertTrue(matrices and all(len(m) == 16 and all(isinstance(x, (int, float)) for x in m)
                                         for m in matrices))
        sources = [args(c)["string"] for c in by_function["glShaderSource"]]
        self.assertTrue(sources and all(isinstance(s, list) and isinstance(s[0], str) for s in sources))
        self.assertTrue(any("gl_Position" in "".join(s) for s in sources))
        self.assertIsNone(args(by_function["eglCreateContext"][0])["share_context"])
        self.assertRegex(args(by_function["eglCreateContext"][0])["dpy"], r"^0x[0-9a-f]+$")
        self.assertIsInstance(by_function["glCreateProgram"][0]["result"], int)
        names = [n for c in by_function["glGetString"] for n in [c["result"]]]
        self.assertTrue(any(isinstance(n, str) and n.startswith("OpenGL ES") for n in names))

    def test_calls_prints_only_those_calls(self):
        numbers = [c[0] for c in (parse_call(l, "=") for l in self.strata_dump.splitlines()) if c]
        self.assertIn("framebuffer", self.strata_dump, "the trace holds no framebuffer line to leave out")
        for first in (numbers[len(numbers) // 2], numbers[-2]):
            selected = f"{first}-{first + 1}"
            out = run(STRATA, "dump", "--no-header", "--calls", selected, self.strata_file).stdout.splitlines()
            self.assertEqual([c[0] for c in (parse_call(l, "=") for l in out) if c], [first, first + 1])
            self.assertEqual([l for l in out if not parse_call(l, "=")], [], f"--calls {selected} printed more")


if __name__ == "__main__":
    unittest.main()
