"""Function traits: what each function does, read from function_traits.txt.

The registry says a function's signature; the parts of Strata that act on
calls also need to know what a call does: whether it draws (and how: which
of its parameters say the vertices, indices and instances it reads), writes
or reads the framebuffer, only sets state, answers a query, makes, deletes
or binds objects of a namespace, uploads data, maps buffers, or changes the
client-side vertex arrays. One line per function says it; registry aliases
(gl.xml's <alias>) and `like=` functions take their core's traits, their
parameters matched by position (glDrawArraysInstancedEXT's `start` is
glDrawArraysInstanced's `first`).

Syntax, one function a line ('#' comments):
    FUNCTION TRAIT...
A function may have a line in more than one section (its traits are all of
them, each trait given once); a like= line is its only one.
TRAITS:
    draw=KIND[+FLAG...]     KIND: arrays | elements | arrays-indirect | elements-indirect | other
                            FLAG: instanced | base-vertex | base-instance | multi | range
    compute                 dispatches compute work
    writes-framebuffer      writes the bound draw framebuffer (draws do without saying so)
    reads-pixels            reads a framebuffer's pixels back
    swap                    ends a frame
    opens-display           where a process first reaches EGL
    sets-state              only sets state
    changes-vertex-arrays   changes the bound vertex array object's arrays (what they point at, which are
                            enabled, their formats and buffers)
    changes-texture-images  changes the images of the bound texture: their format, storage or contents
    sets-up-egl             makes, changes or destroys the EGL objects GL calls run on: displays, configs,
                            surfaces, contexts, the bound API (not which are current)
    copies-data-once        the driver reads the call's data (the bytes its pointer names) once, during
                            the call, as plain bytes
    leaves-context          may end the thread's current context: another made current, released,
                            destroyed, terminated
    makes-window-surface    makes an EGL surface of a window
    links-program           gives a program a new executable (its uniforms and their locations)
    waits-for-gpu           returns once the GPU's work (all, or up to a fence) is done
    query=KIND              state | indexed-state | object-parameter:GETTER | query-result | is-object | error |
                            implementation (what the driver is: its strings, precisions, format support) |
                            other (the registry names every GL query glGet*: one without a query= line
                            answers one of another kind)
    creates= deletes= binds= storage=NAMESPACE   (NAMESPACES below)
    upload=client | image | compressed-image   data from app memory; images: or a pixel-unpack buffer
    mapping=map | unmap | flush
    client-array=OP         pointer | enable | disable | divisor | pointer(ARRAY[,SIZE]) |
                            enable-state | disable-state | client-texture
    errors=CHECK[+CHECK...] every GL error the call can raise, as checks of its arguments (api/error_checks.py)
    byte-ranges=OFFSET+SIZE[,OFFSET+SIZE]   byte ranges of a buffer the call names by two signed
                            parameters: an executor refuses one whose end passes the largest
                            signed 64-bit value (drivers add them unchecked and read where the sum wraps)
    like=CORE               an alias the registry does not record
"""

from __future__ import annotations

import dataclasses
import re

import data_file
import error_checks
import registry

DRAW_KINDS = ("arrays", "elements", "arrays-indirect", "elements-indirect", "other")
DRAW_FLAGS = ("instanced", "base-vertex", "base-instance", "multi", "range")
QUERY_KINDS = ("state", "indexed-state", "object-parameter", "query-result", "is-object", "error", "implementation",
               "other")
UPLOADS = ("client", "image", "compressed-image")
MAPPINGS = ("map", "unmap", "flush")
CLIENT_ARRAY_OPS = ("pointer", "enable", "disable", "divisor", "gles1-pointer", "enable-state", "disable-state",
                    "client-texture")
# Object namespaces, as traits name them -> gl.xml's class (or the EGL handle's kind).
NAMESPACES = {
    "buffer": "buffer", "texture": "texture", "framebuffer": "framebuffer", "renderbuffer": "renderbuffer",
    "program": "program", "shader": "shader", "program-pipeline": "program pipeline", "query": "query",
    "sampler": "sampler", "transform-feedback": "transform feedback", "vertex-array": "vertex array",
    "sync": "sync", "egl-config": "egl config", "egl-context": "egl context", "egl-surface": "egl surface",
    "egl-image": "egl image", "egl-sync": "egl sync", "egl-device": "egl device",
}
FLAG_TRAITS = ("compute", "writes-framebuffer", "reads-pixels", "swap", "opens-display", "sets-state",
               "changes-vertex-arrays", "changes-texture-images", "sets-up-egl", "copies-data-once",
               "leaves-context", "makes-window-surface", "links-program", "waits-for-gpu")

# The parameter (of the core function) that plays each part of a draw.
DRAW_PARTS = {"first": "first", "count": "count", "type": "type", "indices": "indices",
              "instances": "instancecount", "base_vertex": "basevertex", "base_instance": "baseinstance",
              "draw_count": "drawcount", "indirect": "indirect"}
# The parts each kind and flag needs.
_KIND_PARTS = {"arrays": ("first", "count"), "elements": ("count", "type", "indices"),
               "arrays-indirect": ("indirect",), "elements-indirect": ("type", "indirect"), "other": ()}
_FLAG_PARTS = {"instanced": ("instances",), "base-vertex": ("base_vertex",), "base-instance": ("base_instance",),
               "multi": ("draw_count",), "range": ()}
# A generic attribute's parts, and a GLES 1 array's (client-array=pointer(...)).
ARRAY_PARTS = ("index", "size", "type", "stride", "pointer", "divisor", "array", "texture")


@dataclasses.dataclass
class Traits:
    """One function's traits; parameter names are the function's own."""
    core: str | None = None  # the function whose traits these are, when not its own (an alias)
    draw: str | None = None  # DRAW_KINDS
    draw_flags: tuple[str, ...] = ()
    draw_params: dict[str, str] = dataclasses.field(default_factory=dict)  # DRAW_PARTS key -> parameter name
    flags: set[str] = dataclasses.field(default_factory=set)  # FLAG_TRAITS
    query: str | None = None
    reveals: str | None = None  # the getter (api/parameters.txt) whose pnames a query answers
    creates: str | None = None  # NAMESPACES key
    deletes: str | None = None
    binds: str | None = None
    storage: str | None = None
    upload: str | None = None
    mapping: str | None = None
    client_array: str | None = None  # CLIENT_ARRAY_OPS
    client_array_name: str | None = None  # a GLES 1 array: GL_VERTEX_ARRAY, ...
    client_array_size: int | None = None  # its components when the call has no size
    array_params: dict[str, str] = dataclasses.field(default_factory=dict)  # ARRAY_PARTS key -> parameter name
    errors: tuple[error_checks.Check, ...] | None = None  # None: the client cannot decide the call's errors
    byte_ranges: tuple[tuple[str, str], ...] = ()  # (offset, size) parameter names

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def reads_client_arrays(self) -> bool:
        """A draw whose vertices may come from client-side arrays (not an indirect one: GLES forbids them)."""
        return self.draw in ("arrays", "elements")

    @property
    def writes_framebuffer(self) -> bool:
        return self.draw is not None or "writes-framebuffer" in self.flags


@dataclasses.dataclass
class _Line:
    traits: Traits
    like: str | None
    where: str


def _parse_line(name: str, words: list[str], where: str) -> _Line:
    t = Traits()
    like = None
    given = set()
    for word in words:
        key, _, value = word.partition("=")
        if key in given:
            raise ValueError(f"{where}: {name}: {key} given twice")
        given.add(key)
        if key in FLAG_TRAITS and not value:
            t.flags.add(key)
        elif key == "draw" and value:
            kind, *flags = value.split("+")
            if kind not in DRAW_KINDS or any(flag not in DRAW_FLAGS for flag in flags):
                raise ValueError(f"{where}: draw={value}: kinds are {DRAW_KINDS}, flags {DRAW_FLAGS}")
            t.draw, t.draw_flags = kind, tuple(flags)
        elif key == "query" and value.partition(":")[0] in QUERY_KINDS:
            t.query, _, getter = value.partition(":")
            t.reveals = getter or {"state": "get", "indexed-state": "get-indexed"}.get(t.query)
            if (t.query == "object-parameter") != bool(getter):
                raise ValueError(f"{where}: query=object-parameter:GETTER names the getter, and only it")
        elif key in ("creates", "deletes", "binds", "storage") and value in NAMESPACES:
            setattr(t, key, value)
        elif key == "upload" and value in UPLOADS:
            t.upload = value
        elif key == "mapping" and value in MAPPINGS:
            t.mapping = value
        elif key == "client-array" and value:
            match = re.fullmatch(r"pointer\((GL_\w+)(?:,(\d))?\)", value)
            if match:
                t.client_array, t.client_array_name = "gles1-pointer", match.group(1)
                t.client_array_size = int(match.group(2)) if match.group(2) else None
            elif value in CLIENT_ARRAY_OPS and value != "gles1-pointer":
                t.client_array = value
            else:
                raise ValueError(f"{where}: client-array={value}: one of {CLIENT_ARRAY_OPS} or pointer(GL_ARRAY[,N])")
        elif key == "errors" and value:
            t.errors = error_checks.parse_checks(value, where)
        elif key == "byte-ranges" and value:
            ranges = tuple(tuple(r.split("+")) for r in value.split(","))
            if any(len(r) != 2 for r in ranges) or len(ranges) > 2:
                raise ValueError(f"{where}: byte-ranges={value}: one or two OFFSET+SIZE pairs")
            t.byte_ranges = ranges
        elif key == "like" and value:
            like = value
        else:
            raise ValueError(f"{where}: unknown trait '{word}' of {name} (see api/traits.py)")
    if like is not None and len(words) > 1:
        raise ValueError(f"{where}: {name}: like= gives all of another's traits; name them alone instead")
    return _Line(t, like, where)


def _param_names(fn: registry.Function) -> list[str]:
    return [p.name for p in fn.params]


def _check_parts(name: str, fn: registry.Function, t: Traits, where: str) -> None:
    """Finds the draw's and client array call's parts by the function's parameter names."""
    params = _param_names(fn)
    if t.draw is not None:
        needed = list(_KIND_PARTS[t.draw]) + [p for flag in t.draw_flags for p in _FLAG_PARTS[flag]]
        for part, param in DRAW_PARTS.items():
            if param in params:
                t.draw_params[part] = param
        missing = [DRAW_PARTS[p] for p in needed if p not in t.draw_params]
        if missing:
            raise ValueError(f"{where}: {name} draws ({t.draw}{''.join('+' + f for f in t.draw_flags)}) but has "
                             f"no parameter {', '.join(missing)}")
        if "multi" in t.draw_flags and t.draw in ("arrays", "elements") and any(
                "*" not in fn.params[params.index(t.draw_params[p])].type for p in ("count",)):
            raise ValueError(f"{where}: {name}: a multi-draw's counts are arrays")
    for offset, size in t.byte_ranges:
        if offset not in params or size not in params:
            raise ValueError(f"{where}: {name}: byte-ranges names {offset} and {size}, not both its parameters")
    if t.client_array is not None:
        for part in ARRAY_PARTS:
            if part in params:
                t.array_params[part] = part
        needs = {"pointer": ("index", "size", "type", "stride", "pointer"), "enable": ("index",),
                 "disable": ("index",), "divisor": ("index", "divisor"),
                 "gles1-pointer": ("type", "stride", "pointer") + (() if t.client_array_size else ("size",)),
                 "enable-state": ("array",), "disable-state": ("array",), "client-texture": ("texture",)}
        missing = [p for p in needs[t.client_array] if p not in t.array_params]
        if missing:
            raise ValueError(f"{where}: {name}: client-array={t.client_array} needs parameters {', '.join(missing)}")


def _renamed(t: Traits, core: registry.Function, fn: registry.Function) -> Traits:
    """The core's traits in the terms of `fn`, whose parameters match the core's by position."""
    by_position = dict(zip(_param_names(core), _param_names(fn)))
    copy = dataclasses.replace(t, flags=set(t.flags), core=core.name,
                               draw_params={k: by_position[v] for k, v in t.draw_params.items()},
                               array_params={k: by_position[v] for k, v in t.array_params.items()},
                               byte_ranges=tuple((by_position[o], by_position[z]) for o, z in t.byte_ranges),
                               errors=None if t.errors is None else tuple(
                                   dataclasses.replace(c, param=by_position[c.param]) for c in t.errors))
    return copy


# Kinds of value that convert into each other without loss of meaning
# (glTexImage3DOES's GLenum internalformat is glTexImage3D's GLint).
_WORD_KINDS = {"kInt": "integer", "kUInt": "integer", "kEnum": "integer", "kBitfield": "integer", "kBoolean": "integer"}


def _shape(kind: str) -> str:
    return _WORD_KINDS.get(kind, kind)


def same_shape(fn: registry.Function, core: registry.Function) -> bool:
    """Whether `fn` can take `core`'s facts: as many parameters, of the same shapes, and the same shape of result."""
    return (len(fn.params) == len(core.params)
            and all(_shape(a.kind) == _shape(b.kind) for a, b in zip(fn.params, core.params))
            and _shape(registry.kind_of_type(fn.return_type)) == _shape(registry.kind_of_type(core.return_type)))


def cores(model: registry.Model, path: str) -> dict[str, str]:
    """Every function's core when it has one: its registry alias, or the `like=` of function_traits.txt."""
    out = {}
    for name, line in _read(path).items():
        if line.like is not None:
            out[name] = line.like
    for fn in model.functions:
        if fn.alias is not None and fn.name not in out:
            out[fn.name] = fn.alias
    return out


def _read(path: str) -> dict[str, _Line]:
    """Each function's line; its lines in several sections as one (the first one's place for messages)."""
    words_of: dict[str, tuple[list[str], str]] = {}
    for where, text in data_file.lines(path):
        name, *words = text.split()
        if name in words_of:
            earlier, first_where = words_of[name]
            if any(w.startswith("like=") for w in earlier + words):
                raise ValueError(f"{where}: second line for {name}, which has a like= line")
            earlier += words
            words_of[name] = (earlier, f"{first_where} and {where}")
        else:
            words_of[name] = (words, where)
    return {name: _parse_line(name, words, where) for name, (words, where) in words_of.items()}


def load(path: str, model: registry.Model) -> dict[str, Traits]:
    """The traits of every function of the model (an empty Traits for those with none)."""
    lines = _read(path)
    by_name = model.by_name()
    known = {**model.cores, **by_name}
    for name, line in lines.items():
        fn = known.get(name)
        if fn is None:
            raise ValueError(f"{line.where}: {name} is neither a GLES/EGL function of the registry nor one "
                             "that such a function is an alias of")
        if line.like is not None:
            core = by_name.get(line.like)
            if core is None:
                raise ValueError(f"{line.where}: like={line.like}: not a GLES/EGL function of the registry")
            if not same_shape(fn, core):
                raise ValueError(f"{line.where}: {name} is not like {line.like}: their parameters differ")
            if fn.alias is not None:
                raise ValueError(f"{line.where}: {name} is already the registry's alias of {fn.alias}")
        else:
            _check_parts(name, fn, line.traits, line.where)
    result = {}
    for fn in model.functions:
        line = lines.get(fn.name)
        core_name = line.like if line is not None and line.like else (fn.alias if line is None else None)
        core = known.get(core_name) if core_name else None
        core_line = lines.get(core_name) if core_name else None
        if core is not None and core_line is not None and core_line.like is None and same_shape(fn, core):
            result[fn.name] = _renamed(core_line.traits, core, fn)
        elif core is not None and same_shape(fn, core):
            result[fn.name] = Traits(core=core.name)  # an alias of a function with no traits: the same
        else:
            result[fn.name] = dataclasses.replace(line.traits) if line is not None and line.like is None else Traits()
        if fn.name.startswith("glGet") and result[fn.name].query is None:
            result[fn.name].query = "other"
    return result


def check_consistent(model: registry.Model, traits: dict[str, Traits]) -> None:
    """What the data must not say: a state setter with a pointer or a result."""
    for fn in model.functions:
        t = traits[fn.name]
        if t.has("sets-state") and (fn.return_type != "void"
                                    or any(p.kind in ("kPointer", "kString") for p in fn.params)):
            raise ValueError(f"api/function_traits.txt: {fn.name} has sets-state, but takes a pointer or returns")
