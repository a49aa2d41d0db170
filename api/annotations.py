"""Capture rules: what lies behind each pointer parameter, for the codec.

The registry says a pointer's type; a codec also needs how many bytes are
behind it, in which direction they travel, and when they are not data at all
(an offset into a bound buffer, a client-side vertex array read at draw time).
Rules come from `annotations.txt` (ours, reviewed like code), from the core
function's rule for an alias (gl.xml's <alias>, or like= in
function_traits.txt; parameters matched by position, renamed in the rule),
and, where none of these has a rule, from gl.xml's `len` attribute when that
is a plain expression. A rule's SIZE is parsed once, here (Rule); emitters
read its parts, never its text.

Rule syntax, one per line ('#' comments):
    FUNCTION PARAM DIRECTION SIZE [FLAG...]
DIRECTION: in | out | inout
SIZE: a C++ expression giving the byte count, with the function's parameters
      in scope and the helpers of src/stream/capture_sizes.h;
      or strings(COUNT, LENGTHS) for an array of COUNT strings (LENGTHS: a
      parameter holding their lengths, or nullptr for NUL-terminated ones);
      or none: only the pointer value is recorded (callbacks, user data).
FLAGS: buffer=TARGET      the pointer is an offset into the buffer bound to
                          TARGET when one is bound (then nothing is captured)
       deferred=vertex_attrib  a client-side vertex array, captured at draw time
       null=ok            a null pointer means something (no data: storage
                          left undefined, a texel of zeros, no attributes,
                          no label); elsewhere an executor refuses a null
                          pointer where the call's arguments need bytes, or
                          a string (the driver would read from address 0)
"""

from __future__ import annotations

import dataclasses
import re

import data_file
import registry

DIRECTIONS = ("in", "out", "inout")

# The helpers a SIZE expression may call: the methods of capture::CaptureSizes
# (src/stream/capture_sizes.h). Generated code calls them on an object named
# `strata_sizes` that it declares, bound to its user's CaptureState.
HELPERS = (
    "c_string_bytes", "counted_string_bytes", "out_string_bytes", "out_elements", "unpack_image_bytes",
    "pack_image_bytes", "unpack_image_2d_bytes", "pixel_bytes", "bounded_bytes", "index_bytes", "get_value_count",
    "get_indexed_value_count", "get_value_bytes", "get_indexed_value_bytes", "gles1_value_count",
    "uniform_value_count", "uniform_block_value_count",
    "bounded_count", "egl_attrib_list_bytes", "egl_attrib64_list_bytes", "gl_attrib_list_bytes", "count_bytes",
    "path_list_bytes", "path_transform_values", "path_value_count", "perf_monitor_counter_info_bytes",
    "coverage_modulation_table_bytes", "shading_rate_sample_locations",
)
_HELPER_CALL = re.compile(r"(?<![\w.])(" + "|".join(HELPERS) + r")\(")


def size_expression(size: str) -> str:
    """A rule's SIZE as C++ calling the helpers on `strata_sizes`."""
    return _HELPER_CALL.sub(r"strata_sizes.\1(", size)


# Helpers that read the data they size: its bytes must end where a scan stops.
READING_HELPERS = ("c_string_bytes", "counted_string_bytes", "egl_attrib_list_bytes", "egl_attrib64_list_bytes",
                   "gl_attrib_list_bytes", "path_list_bytes")
STRING_HELPERS = ("c_string_bytes", "counted_string_bytes")


@dataclasses.dataclass
class Rule:
    """A capture rule, its SIZE parsed once: a byte count (`size`), an array
    of strings (`strings`), or nothing (`size` "none")."""
    direction: str
    size: str  # C++ expression of the byte count, or "none" (for strings, the rule as written)
    buffer_target: str | None = None
    deferred: str | None = None
    source: str = "annotation"  # or "registry"
    strings: tuple[str, str] | None = None  # strings(COUNT, LENGTHS): the two expressions
    null_ok: bool = False  # null=ok

    @property
    def is_strings(self) -> bool:
        return self.strings is not None

    @property
    def captures(self) -> bool:
        return self.size != "none"

    @property
    def sized(self) -> bool:
        """Its bytes are a count the arguments imply (not strings, not a client array)."""
        return self.captures and not self.is_strings and not self.deferred

    @property
    def carries_in(self) -> bool:
        """The call record carries bytes of it: its size's, or its strings."""
        return self.captures and not self.deferred and self.direction in ("in", "inout")

    @property
    def carries_out(self) -> bool:
        """The reply carries bytes of it, its size's."""
        return self.sized and self.direction in ("out", "inout")

    @property
    def size_cpp(self) -> str:
        """The byte count as C++ calling the helpers on `strata_sizes`."""
        return size_expression(self.size)

    @property
    def reads_data(self) -> bool:
        """Its size is found by reading the bytes themselves (a string, an attribute list)."""
        return any(h + "(" in self.size for h in READING_HELPERS)

    @property
    def is_string(self) -> bool:
        """One string, NUL-terminated or counted: null is no string at all
        (sized 0), where an attribute list's null is an empty list."""
        return any(h + "(" in self.size for h in STRING_HELPERS)


def make_rule(direction: str, size: str, where: str = "", **flags) -> Rule:
    """A rule from its SIZE as written: strings(COUNT, LENGTHS) is split here, once."""
    match = re.fullmatch(r"strings\(([^,]+),([^,]+)\)", size.strip())
    if size.startswith("strings(") and not match:
        raise ValueError(f"{where}: strings(COUNT, LENGTHS) takes two expressions")
    strings = (match.group(1).strip(), match.group(2).strip()) if match else None
    return Rule(direction, size, strings=strings, **flags)


def parse(path: str, model: registry.Model) -> dict[tuple[str, str], Rule]:
    # A core outside the selection (glMultiDrawElements) carries the rules of its aliases.
    functions = {**model.cores, **model.by_name()}
    rules = {}
    for where, line in data_file.lines(path):
        match = re.match(r"(\S+)\s+(\S+)\s+(\S+)\s+(.+)$", line)
        if not match:
            raise ValueError(f"{where}: expected 'FUNCTION PARAM DIRECTION SIZE [FLAGS]'")
        name, param, direction, rest = match.groups()
        flags = re.findall(r"\s(buffer|deferred|null)=(\S+)", " " + rest)
        size = re.sub(r"\s(buffer|deferred|null)=\S+", "", " " + rest).strip()
        fn = functions.get(name)
        if fn is None:
            raise ValueError(f"{where}: unknown function {name}")
        if param not in [p.name for p in fn.params]:
            raise ValueError(f"{where}: {name} has no parameter {param}")
        if direction not in DIRECTIONS:
            raise ValueError(f"{where}: direction must be one of {DIRECTIONS}")
        if (name, param) in rules:
            raise ValueError(f"{where}: second rule for {name} {param}")
        rule = make_rule(direction, size, where)
        for key, value in flags:
            if key == "null":
                if value != "ok" or direction != "in":
                    raise ValueError(f"{where}: null=ok is the one null flag, for input pointers")
                rule.null_ok = True
            else:
                setattr(rule, "buffer_target" if key == "buffer" else "deferred", value)
        rules[(name, param)] = rule
    return rules


def _pointee(param: registry.Param) -> str:
    t = param.type.replace("const", "").replace("*", "").strip()
    return "char" if t == "void" else t


def registry_rule(param: registry.Param, length: str | None) -> Rule | None:
    """A rule from gl.xml's len attribute when it is a plain expression."""
    if length is None or "COMPSIZE" in length or "*" in param.type.replace(" ", "").split("*", 1)[1]:
        return None  # no length, a computed one, or a pointer to pointers
    if not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*|\d+|[A-Za-z_][A-Za-z_0-9]*\s*[*/]\s*\d+", length.strip()):
        return None
    direction = "in" if param.type.startswith("const") else "out"
    return Rule(direction, f"count_bytes({length}, sizeof({_pointee(param)}))", source="registry")


def renamed(rule: Rule, names: dict[str, str]) -> Rule:
    """`rule` with the parameters it names called by `names` (an alias's names for its core's parameters)."""
    if not names:
        return rule
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b")
    rename = lambda text: pattern.sub(lambda m: names[m.group(1)], text)  # noqa: E731
    strings = tuple(rename(part) for part in rule.strings) if rule.strings else None
    return dataclasses.replace(rule, size=rename(rule.size), strings=strings)


def inherited(model: registry.Model, annotated: dict[tuple[str, str], Rule],
              cores: dict[str, str]) -> dict[tuple[str, str], Rule]:
    """The annotated rules, with an alias's parameter that has none taking its
    core's (`cores`: function -> core, traits.cores), parameters matched by position."""
    known = {**model.cores, **model.by_name()}
    rules = dict(annotated)
    for fn in model.functions:
        core = known.get(cores.get(fn.name, ""))
        if core is None or len(core.params) != len(fn.params):
            continue
        names = {c.name: p.name for c, p in zip(core.params, fn.params) if c.name != p.name}
        for c, p in zip(core.params, fn.params):
            rule = annotated.get((core.name, c.name))
            if rule is not None and (fn.name, p.name) not in annotated:
                rules[(fn.name, p.name)] = renamed(rule, names)
    return rules


def resolve(model: registry.Model, annotated: dict[tuple[str, str], Rule],
            lengths: dict[tuple[str, str], str | None]) -> dict[tuple[str, str], Rule]:
    """The rule for every pointer parameter that has one."""
    rules = {}
    for fn in model.functions:
        for p in fn.params:
            if p.kind not in ("kPointer", "kString"):
                continue
            rule = annotated.get((fn.name, p.name))
            if rule is None and p.kind == "kString":
                # A NUL-terminated string argument.
                direction = "in" if p.type.startswith("const") else "out"
                if direction == "in":
                    rule = Rule("in", f"c_string_bytes({p.name})", source="registry")
            if rule is None:
                rule = registry_rule(p, lengths.get((fn.name, p.name)))
            if rule is not None:
                rules[(fn.name, p.name)] = rule
    return rules


def uncovered(model: registry.Model, rules: dict[tuple[str, str], Rule]) -> list[str]:
    """Functions with a pointer parameter that has no rule."""
    return [fn.name for fn in model.functions
            if any(p.kind in ("kPointer", "kString") and (fn.name, p.name) not in rules for p in fn.params)]
