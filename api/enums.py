"""Names for the values of parameters and results, for printing (strata dump,
the report, error messages): which enum group each parameter's values come
from, and each group's names.

gl.xml tags most parameters with a group ("PrimitiveType", "ClearBufferMask")
and most enums with the groups they belong to; a bitmask group's values print
as their bits joined by " | ". A GLenum the registry leaves without a group,
or whose value its group does not list, falls back to the one preferred GLES
name of the value.

egl.xml has no parameter groups. EGL's values share one namespace
(0x3000 and up), so an EGLenum, the EGLint parameters that hold such values
(EGL_NAMED_PARAMS) and attribute-list keys print by that namespace's name. An
attribute whose value is a set of bits is named by the comment of its bitmask
block ("EGL_SURFACE_TYPE bits").

The preferred name of a value is the first one GLES (or EGL) itself
requires, in the order of its versions, then its extensions: core names
before suffixed ones.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import registry

FEATURE_ORDER = [("gles2", "2.0"), ("gles2", "3.0"), ("gles2", "3.1"), ("gles2", "3.2"), ("gles1", "1.0")]
EGL_FEATURE_ORDER = [("egl", v) for v in ("1.0", "1.1", "1.2", "1.3", "1.4", "1.5")]

# Fixed group numbers the C++ side uses by name (kNoEnumGroup, kEglNames, kGlNames).
NO_GROUP, EGL_NAMES, GL_NAMES = 0, 1, 2

# EGLint parameters whose values are EGL tokens (the rest are counts, sizes, ...).
EGL_NAMED_PARAMS = {"attribute", "name", "readdraw", "buffer", "engine"}
# EGLint results that are EGL tokens: an error code, or a wait's outcome.
EGL_NAMED_RESULTS = {"eglGetError", "eglClientWaitSync", "eglClientWaitSyncKHR", "eglClientWaitSyncNV",
                     "eglDebugMessageControlKHR"}
# A parameter that holds the value of whatever its function's pname names
# (glTexParameteri's param): a GL token when the value is one, unless the
# pname is one whose values are numbers (NUMERIC_PNAMES, and every pname of
# these groups). gl.xml does not say which pnames take tokens.
PNAME_VALUE_PARAMS = {"param"}
NUMERIC_PNAME_GROUPS = {"PixelStoreParameter"}
NUMERIC_PNAMES = {
    "GL_TEXTURE_BASE_LEVEL", "GL_TEXTURE_MAX_LEVEL", "GL_TEXTURE_MIN_LOD", "GL_TEXTURE_MAX_LOD",
    "GL_TEXTURE_MAX_ANISOTROPY_EXT", "GL_TEXTURE_LOD_BIAS_EXT", "GL_GENERATE_MIPMAP",
    "GL_PATCH_VERTICES", "GL_FRAMEBUFFER_DEFAULT_WIDTH", "GL_FRAMEBUFFER_DEFAULT_HEIGHT",
    "GL_FRAMEBUFFER_DEFAULT_LAYERS", "GL_FRAMEBUFFER_DEFAULT_SAMPLES", "GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS",
    "GL_PROGRAM_BINARY_RETRIEVABLE_HINT", "GL_PROGRAM_SEPARABLE",
    # GLES 1.1: point sizes, fog, lights, materials, texture environment scales.
    "GL_POINT_SIZE_MIN", "GL_POINT_SIZE_MAX", "GL_POINT_FADE_THRESHOLD_SIZE", "GL_FOG_DENSITY", "GL_FOG_START",
    "GL_FOG_END", "GL_SPOT_EXPONENT", "GL_SPOT_CUTOFF", "GL_CONSTANT_ATTENUATION", "GL_LINEAR_ATTENUATION",
    "GL_QUADRATIC_ATTENUATION", "GL_SHININESS", "GL_RGB_SCALE", "GL_ALPHA_SCALE",
}


@dataclasses.dataclass
class Group:
    name: str
    bitmask: bool
    members: list[tuple[int, str]]  # (value, preferred name), sorted by value


@dataclasses.dataclass
class Naming:
    groups: list[Group]  # index = group number; 0, 1, 2 as above
    param_groups: dict[tuple[str, str], int]  # (function, parameter) -> group
    return_groups: dict[str, int]  # function -> group of its result
    egl_attribute_groups: list[tuple[int, int]]  # (attribute value, group of its values), sorted
    numeric_pnames: list[int]  # pnames whose values are numbers, sorted
    egl_errors: list[tuple[int, str]]  # what eglGetError can answer, by value


def _int(text: str | None) -> int | None:
    try:
        return int(text, 0) & 0xFFFFFFFF if text is not None else None
    except ValueError:
        return None


def _ordered_gles_names(root: ET.Element) -> list[str]:
    features = {(f.get("api"), f.get("number")): f for f in root.findall("feature")}
    names = []
    for key in FEATURE_ORDER:
        names += [e.get("name") for e in features[key].iter("enum")]
    for ext in root.find("extensions").findall("extension"):
        if {"gles1", "gles2"} & set(ext.get("supported", "").split("|")):
            names += [e.get("name") for e in ext.iter("enum")]
    return names


def _preferred(ordered_names: list[str], values: dict[str, int], keep) -> dict[int, str]:
    chosen: dict[int, str] = {}
    for name in ordered_names:
        value = values.get(name)
        if value is not None and keep(name, value) and value not in chosen:
            chosen[value] = name
    return chosen


def _gl_groups(root: ET.Element, model: registry.Model) -> tuple[list[Group], dict[str, int]]:
    """The global GLES names (group 2), then each registry group the model's parameters use, with
    their numbers."""
    values: dict[str, int] = {}
    groups_of: dict[str, list[str]] = {}
    bitmask_groups: set[str] = set()
    bitmask_names: set[str] = set()
    for enums in root.findall("enums"):
        for e in enums.findall("enum"):
            if e.get("api") not in (None, "gles2", "gles1"):
                continue
            value = _int(e.get("value"))
            if value is None:
                continue
            values[e.get("name")] = value
            groups = [g for g in (e.get("group") or "").split(",") if g]
            groups_of[e.get("name")] = groups
            if enums.get("type") == "bitmask":
                bitmask_groups.update(groups)
                bitmask_names.add(e.get("name"))
    ordered = _ordered_gles_names(root)
    # Small values (0, 1, 2, ...) mean different things per parameter: without a group they print as numbers.
    # Bits overlap real enum values: they print only where a bitmask group asks for them.
    global_names = _preferred(ordered, values, lambda n, v: 0x100 <= v and n not in bitmask_names)
    out = [Group("GL", False, sorted(global_names.items()))]
    index: dict[str, int] = {}
    used = sorted({p.group for f in model.functions for p in f.params if p.group and f.is_gl()}
                  | {f.return_group for f in model.functions if f.return_group and f.is_gl()})
    for group in used:
        members = _preferred(ordered, values, lambda n, v, g=group: g in groups_of.get(n, ()))
        if members:
            index[group] = GL_NAMES + len(out)
            out.append(Group(group, group in bitmask_groups, sorted(members.items())))
    return out, index


def _egl_groups(root: ET.Element) -> tuple[Group, list[tuple[int, Group]]]:
    """EGL's names, and a group per attribute whose value is a set of bits."""
    values: dict[str, int] = {}
    bit_blocks: list[tuple[str, list[tuple[int, str]]]] = []  # (attribute its comment names, bits)
    for enums in root.findall("enums"):
        members = [(_int(e.get("value")), e.get("name")) for e in enums.findall("enum")]
        members = [(v, n) for v, n in members if v is not None]
        if enums.get("type") != "bitmask":
            values.update((n, v) for v, n in members)
            continue
        match = re.fullmatch(r"(EGL_\w+) bits", enums.get("comment", ""))
        if match:
            bit_blocks.append((match.group(1), members))
    features = {(f.get("api"), f.get("number")): f for f in root.findall("feature")}
    ordered = [e.get("name") for key in EGL_FEATURE_ORDER for e in features[key].iter("enum")]
    ordered += [e.get("name") for ext in root.find("extensions").findall("extension") for e in ext.iter("enum")]
    ordered += sorted(values)  # names no version or extension requires come last
    # Values below 0x3000 are booleans and special numbers (EGL_DONT_CARE): not tokens.
    tokens = _preferred(ordered, values, lambda n, v: 0x3000 <= v <= 0xFFFF)
    attribute_groups = []
    for attribute, members in bit_blocks:
        bits: dict[int, str] = {}
        for value, name in members:
            bits.setdefault(value, name)
        if attribute in values and bits:
            attribute_groups.append((values[attribute], Group(attribute + " bits", True, sorted(bits.items()))))
    return Group("EGL", False, sorted(tokens.items())), sorted(attribute_groups, key=lambda a: a[0])


def _numeric_pnames(root: ET.Element) -> list[int]:
    values = set()
    for e in root.iter("enum"):
        groups = set((e.get("group") or "").split(","))
        if e.get("name") in NUMERIC_PNAMES or groups & NUMERIC_PNAME_GROUPS:
            value = _int(e.get("value"))
            if value is not None:
                values.add(value)
    missing = NUMERIC_PNAMES - {e.get("name") for e in root.iter("enum")}
    if missing:
        raise ValueError(f"NUMERIC_PNAMES names what gl.xml does not define: {sorted(missing)}")
    return sorted(values)


def load(gl_xml: str, egl_xml: str, model: registry.Model) -> Naming:
    gl_root = ET.parse(gl_xml).getroot()
    egl_root = ET.parse(egl_xml).getroot()
    gl_groups, gl_index = _gl_groups(gl_root, model)
    egl_tokens, egl_bits = _egl_groups(egl_root)
    # Layout: 0 none, 1 EGL, 2 GL, then the GL registry groups, then the EGL attributes' bits.
    groups = [Group("", False, []), egl_tokens] + gl_groups
    attribute_groups = [(attribute, len(groups) + i) for i, (attribute, _) in enumerate(egl_bits)]
    groups += [group for _, group in egl_bits]
    param_groups: dict[tuple[str, str], int] = {}
    return_groups: dict[str, int] = {}
    for f in model.functions:
        if f.is_gl():
            has_pname = any(p.name == "pname" for p in f.params)
            for p in f.params:
                kind = p.kind
                if p.group in gl_index and kind in ("kEnum", "kBitfield", "kInt", "kUInt"):
                    param_groups[(f.name, p.name)] = gl_index[p.group]
                elif kind == "kEnum" or (has_pname and p.name in PNAME_VALUE_PARAMS and kind in ("kInt", "kFloat")):
                    param_groups[(f.name, p.name)] = GL_NAMES
            if f.return_group in gl_index:
                return_groups[f.name] = gl_index[f.return_group]
            elif registry.kind_of_type(f.return_type) == "kEnum":
                return_groups[f.name] = GL_NAMES
        else:
            for p in f.params:
                if p.kind == "kEnum" or (p.type == "EGLint" and p.name in EGL_NAMED_PARAMS):
                    param_groups[(f.name, p.name)] = EGL_NAMES
            if registry.kind_of_type(f.return_type) == "kEnum" or f.name in EGL_NAMED_RESULTS:
                return_groups[f.name] = EGL_NAMES
    return Naming(groups, param_groups, return_groups, attribute_groups, _numeric_pnames(gl_root),
                  _egl_errors(egl_root))


def _egl_errors(root: ET.Element) -> list[tuple[int, str]]:
    """Every error eglGetError can answer, core and extensions: egl.xml gives
    them no group, but their names say it (EGL_BAD_*, EGL_NOT_INITIALIZED,
    EGL_CONTEXT_LOST). The first name of a value wins."""
    chosen: dict[int, str] = {}
    for enums in root.findall("enums"):
        for e in enums.findall("enum"):
            name = e.get("name", "")
            if not (name.startswith("EGL_BAD_") or name in ("EGL_NOT_INITIALIZED", "EGL_CONTEXT_LOST")):
                continue
            try:
                chosen.setdefault(int(e.get("value"), 0), name)
            except (TypeError, ValueError):
                continue
    return sorted(chosen.items())
