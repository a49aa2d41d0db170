"""Parameters: what each pname is, read from parameters.txt (the syntax is
described there). One table, as apitrace's glparams.py keeps one: the
query functions that take a pname, the type and number of its values, the
GLES version or extension that has it, the object namespace its value names,
and what the parts of Strata that read, compare or recreate state need to
know of it (part of a context's state, set by the app, glPixelStorei's, the
binding of which target).
"""

from __future__ import annotations

import dataclasses
import re

import data_file
import registry

GETTERS = ("get", "get-indexed", "enabled", "texture", "sampler", "vertex-attrib", "program", "shader", "buffer",
           "renderbuffer", "query", "program-pipeline", "multisample", "pointer", "light", "material", "tex-env")
TYPES = ("int", "int64", "float", "bool", "enum", "ubyte")
VERSIONS = {"es2": 20, "es3": 30, "es3.1": 31, "es3.2": 32}
FLAGS = ("state", "app-set", "limit", "pixel-store", "hint", "unit", "read-only", "client-state", "layered")
VALUED = ("target", "max", "start-of", "size-of", "array", "part")
ARRAY_PARTS = ("size", "type", "stride", "buffer", "pointer")


@dataclasses.dataclass
class Parameter:
    name: str
    value: int
    getters: tuple[str, ...]
    type: str              # TYPES
    group: str | None      # enum:GROUP
    namespace: str | None  # name:NAMESPACE (traits.NAMESPACES)
    count: int             # 0 when count_pname says
    count_pname: str | None
    gles1: bool            # in GLES 1.1
    since: int             # the GLES 2+ version that has it (20, 30, 31, 32), 0 for none
    extension: str | None  # the extension that brings it ("desktop": none of GLES's)
    flags: set[str]
    targets: tuple[str, ...] = ()  # the targets it is the binding of: the first, then its faces
    max: str | None = None
    start_of: str | None = None
    size_of: str | None = None
    array: str | None = None
    part: str | None = None

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def gles2(self) -> bool:
        """In GLES 2+ (from `since`, or through its extension)."""
        return self.since != 0 or (self.extension is not None and self.extension != "desktop")


def _since(text: str, where: str) -> tuple[bool, int, str | None]:
    if text.startswith("GL_") or text == "desktop":
        return False, 0, text
    gles1, since = False, 0
    for part in text.split("+"):
        if part == "es1":
            gles1 = True
        elif part in VERSIONS:
            since = VERSIONS[part]
        else:
            raise ValueError(f"{where}: SINCE is es1, es2, es3, es3.1, es3.2, es1+es2 or an extension, not '{text}'")
    return gles1, since, None


def load(path: str, model: registry.Model, namespaces: tuple[str, ...]) -> list[Parameter]:
    """The rows of parameters.txt, in its order (a pname once)."""
    rows = []
    seen = set()
    for where, text in data_file.lines(path):
        words = text.split()
        if len(words) < 5:
            raise ValueError(f"{where}: expected 'PNAME GETTERS TYPE COUNT SINCE [FLAGS]'")
        name, getters, type_text, count_text, since_text, *flags = words
        if name in seen:
            raise ValueError(f"{where}: second line for {name}")
        seen.add(name)
        if name not in model.enums:
            raise ValueError(f"{where}: {name} is not a token of the registry")
        getter_list = tuple(getters.split(","))
        if any(g not in GETTERS for g in getter_list):
            raise ValueError(f"{where}: getters are {GETTERS}, not '{getters}'")
        group = namespace = None
        kind, _, detail = type_text.partition(":")
        if kind == "enum" and detail:
            group = detail
        elif kind == "name" and detail in namespaces:
            namespace, kind = detail, "int"
        elif kind not in TYPES or detail:
            raise ValueError(f"{where}: TYPE is one of {TYPES}, enum:GROUP or name:NAMESPACE, not '{type_text}'")
        count, count_pname = (int(count_text), None) if count_text.isdigit() else (0, count_text)
        if count_pname is not None and count_pname not in model.enums:
            raise ValueError(f"{where}: COUNT is a number or a token, not '{count_text}'")
        gles1, since, extension = _since(since_text, where)
        row = Parameter(name, model.enums[name], getter_list, kind, group, namespace, count, count_pname, gles1,
                        since, extension, set())
        for flag in flags:
            key, _, value = flag.partition("=")
            if key in FLAGS and not value:
                row.flags.add(key)
            elif key in VALUED and value:
                values = value.split(",")
                for v in values:
                    if key != "part" and v not in model.enums:
                        raise ValueError(f"{where}: {key}={v}: not a token of the registry")
                if key == "target":
                    row.targets = tuple(values)
                elif key == "part" and value not in ARRAY_PARTS:
                    raise ValueError(f"{where}: part is one of {ARRAY_PARTS}")
                else:
                    setattr(row, key.replace("-", "_"), value)
            else:
                raise ValueError(f"{where}: unknown flag '{flag}' of {name} (see api/parameters.txt)")
        if (row.array is None) != (row.part is None):
            raise ValueError(f"{where}: array= and part= go together")
        rows.append(row)
    return rows


def limit_tokens(rows: list[Parameter], model: registry.Model) -> list[int]:
    """The values of every registry token named GL_MAX_* or GL_MIN_* that no
    line of the table describes: the driver's own answers by the registry's
    naming (a line says otherwise: GL_MIN_SAMPLE_SHADING_VALUE is app-set)."""
    described = {r.value for r in rows}
    return sorted({v for n, v in model.enums.items()
                   if n.startswith(("GL_MAX_", "GL_MIN_")) and v not in described and v <= 0xffffffff})


def buffer_bindings(rows: list[Parameter]) -> dict[str, str]:
    """A buffer target -> the pname of the buffer bound to it (GL_ARRAY_BUFFER -> GL_ARRAY_BUFFER_BINDING)."""
    return {r.targets[0]: r.name for r in rows if r.namespace == "buffer" and r.targets}


def identifier(name: str) -> str:
    """A C++ identifier for a GL token's name: GL_TEXTURE_2D -> kTexture2D."""
    return "k" + "".join(part.capitalize() if not re.fullmatch(r"\d\w*", part) else part.upper()
                         for part in name[3:].lower().split("_"))
