"""GL enum names for printing: one preferred name per value; and EGL's
error codes (what eglGetError answers) by name.

The preferred name is the first one GLES itself requires, in the order GLES
2.0, 3.0, 3.1, 3.2, GLES 1.1, then GLES extensions: core names before
suffixed ones.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

FEATURE_ORDER = [("gles2", "2.0"), ("gles2", "3.0"), ("gles2", "3.1"), ("gles2", "3.2"), ("gles1", "1.0")]


def load(gl_xml: str) -> list[tuple[int, str]]:
    root = ET.parse(gl_xml).getroot()
    values = {}
    for enums in root.findall("enums"):
        if enums.get("type") == "bitmask":
            continue  # bitfields print as hex; their bits overlap real enum values
        for e in enums.findall("enum"):
            if e.get("api") not in (None, "gles2", "gles1"):
                continue
            try:
                values[e.get("name")] = int(e.get("value"), 0)
            except (TypeError, ValueError):
                continue
    ordered_names = []
    features = {(f.get("api"), f.get("number")): f for f in root.findall("feature")}
    for key in FEATURE_ORDER:
        ordered_names += [e.get("name") for e in features[key].iter("enum")]
    for ext in root.find("extensions").findall("extension"):
        if {"gles1", "gles2"} & set(ext.get("supported", "").split("|")):
            ordered_names += [e.get("name") for e in ext.iter("enum")]
    chosen: dict[int, str] = {}
    for name in ordered_names:
        value = values.get(name)
        # Small values (0, 1, 2, ...) mean different things per parameter: print numbers.
        if value is not None and 0x100 <= value <= 0xFFFFFFFF and value not in chosen:
            chosen[value] = name
    return sorted(chosen.items())


def load_egl_errors(egl_xml: str) -> list[tuple[int, str]]:
    """Every error eglGetError can answer, core and extensions: egl.xml gives
    them no group, but their names say it (EGL_BAD_*, EGL_NOT_INITIALIZED,
    EGL_CONTEXT_LOST). The first name of a value wins."""
    root = ET.parse(egl_xml).getroot()
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
