"""The facts error checks need, read from error_checks.txt, and the C++ that
checks them.

A function's errors= trait (function_traits.txt) says every GL error the call
can raise, apart from GL_OUT_OF_MEMORY and a lost context, as checks of its
arguments. A remote client that sees every check pass knows the call leaves
glGetError's answer as it was, and answers a glGetError after it without
asking the renderer (docs/remote.md, "Answers on the client").

Checks, joined by '+':
    none                  the call raises no error
    PARAM<LIMIT           PARAM is below a limit (a GL_MAX_* of `minimum` below)
    PARAM-BASE<LIMIT      PARAM minus an enum (GL_TEXTURE0) is below a limit
    PARAM>=0, PARAM>0     a signed PARAM's range
    PARAM:SET             PARAM is one of a set's values: a `set` of
                          error_checks.txt, `capability` (glEnable's, of
                          parameters.txt) or `hint-target` (glHint's)

error_checks.txt's lines:
    set NAME SINCE VALUE...         valid values of an enum parameter
    minimum PNAME SINCE:VALUE...    the least value a driver may report
SINCE is es1+es2 (GLES 1.1 on), es2 or es3.
"""

from __future__ import annotations

import dataclasses
import re

import data_file

SINCE = {"es1+es2": 1, "es2": 2, "es3": 3}
# Sets whose values another data file holds, with the C++ that tests them.
BUILT_IN_SETS = {
    "capability": "IsCapability({value}, {version})",
    "hint-target": "IsHintTarget({value}, {version})",
}


@dataclasses.dataclass(frozen=True)
class Check:
    param: str
    kind: str  # "<", ">=0", ">0", ":"
    operand: str = ""  # the limit's pname or the set's name
    base: str = ""  # an enum subtracted before a limit


@dataclasses.dataclass
class Facts:
    sets: dict[str, list[tuple[str, int, int]]]  # name -> (token, value, since)
    minimums: dict[str, list[tuple[int, int]]]  # pname -> (since, least value)


_CHECK = re.compile(r"(\w+)(?:-(GL_\w+))?(<)(GL_\w+)|(\w+)(>=0|>0)|(\w+):([\w-]+)")


def parse_checks(text: str, where: str) -> tuple[Check, ...]:
    """An errors= trait's value; () for `none`."""
    if text == "none":
        return ()
    checks = []
    for part in text.split("+"):
        m = _CHECK.fullmatch(part)
        if m is None:
            raise ValueError(f"{where}: errors={text}: '{part}' is not a check (see api/error_checks.py)")
        if m.group(3):
            checks.append(Check(m.group(1), "<", m.group(4), m.group(2) or ""))
        elif m.group(6):
            checks.append(Check(m.group(5), m.group(6)))
        else:
            checks.append(Check(m.group(7), ":", m.group(8)))
    return tuple(checks)


def load(path: str, enums: dict[str, int]) -> Facts:
    facts = Facts({}, {})
    for where, text in data_file.lines(path):
        kind, name, *rest = text.split()
        if kind == "set" and len(rest) >= 2 and rest[0] in SINCE:
            for token in rest[1:]:
                if token not in enums:
                    raise ValueError(f"{where}: {token} is not a token of the registry")
                facts.sets.setdefault(name, []).append((token, enums[token], SINCE[rest[0]]))
        elif kind == "minimum" and rest and name in enums:
            for item in rest:
                since, _, value = item.partition(":")
                if since not in SINCE or not value.isdigit():
                    raise ValueError(f"{where}: expected SINCE:VALUE, not '{item}'")
                facts.minimums.setdefault(name, []).append((SINCE[since], int(value)))
        else:
            raise ValueError(f"{where}: expected 'set NAME SINCE VALUE...' or 'minimum PNAME SINCE:VALUE...'")
    return facts


def check_known(checks: tuple[Check, ...], params: list[str], facts: Facts, enums: dict[str, int], where: str) -> None:
    for c in checks:
        if c.param not in params:
            raise ValueError(f"{where}: errors=: no parameter {c.param}")
        if c.kind == "<" and c.operand not in facts.minimums:
            raise ValueError(f"{where}: errors=: {c.operand} has no `minimum` line in api/error_checks.txt")
        if c.base and c.base not in enums:
            raise ValueError(f"{where}: errors=: {c.base} is not a token of the registry")
        if c.kind == ":" and c.operand not in facts.sets and c.operand not in BUILT_IN_SETS:
            raise ValueError(f"{where}: errors=: no set {c.operand} in api/error_checks.txt")


def set_function(name: str) -> str:
    return "InSet_" + name.replace("-", "_")


def minimum_function(pname: str) -> str:
    return "SpecMinimum_" + pname


def _set_signature(name: str) -> str:
    return f"bool {set_function(name)}(uint64_t value, int version)"


def _minimum_signature(pname: str) -> str:
    return f"int64_t {minimum_function(pname)}(int version)"


def declarations(facts: Facts) -> list[str]:
    """The helpers' declarations, for the hand-written client code that checks calls too."""
    return ([_set_signature(name) + ";  // generated" for name in sorted(facts.sets)] +
            [_minimum_signature(pname) + ";  // generated" for pname in sorted(facts.minimums)])


def emit_helpers(facts: Facts) -> str:
    """The sets and minimums as C++ functions of a context's major version (1, 2 or 3)."""
    out = ["// api/error_checks.txt: the values of each enum set by the GLES version\n"
           "// from which every driver takes them, and the least value of each limit.\n"]
    for name, members in sorted(facts.sets.items()):
        cases = "".join(f"    case 0x{value:04X}: return version >= {since};  // {token}\n"
                        for token, value, since in members)
        out.append(f"{_set_signature(name)} {{\n  switch (value) {{\n{cases}    default: return false;\n  }}\n}}\n")
    for pname, levels in sorted(facts.minimums.items()):
        body = "".join(f"  if (version >= {since}) return {value};\n" for since, value in sorted(levels, reverse=True))
        out.append(f"{_minimum_signature(pname)} {{\n{body}  return 0;\n}}\n")
    return "\n".join(out) + "\n"


def condition(checks: tuple[Check, ...], connection: str) -> str:
    """The C++ that is true when every check passes, for a call on `connection`."""
    if not checks:
        return "true"
    version = f"{connection}->shadow().client_version()"
    parts = []
    for c in checks:
        if c.kind == "<":
            value = f"static_cast<uint64_t>({c.param})" + (f" - {c.base}" if c.base else "")
            parts.append(f"({value} < KnownLimit(*{connection}, {c.operand}, {minimum_function(c.operand)}({version})))")
        elif c.kind in (">=0", ">0"):
            parts.append(f"({c.param} {c.kind[:-1]} 0)")
        elif c.operand in BUILT_IN_SETS:
            parts.append(BUILT_IN_SETS[c.operand].format(value=c.param, version=version))
        else:
            parts.append(f"{set_function(c.operand)}({c.param}, {version})")
    return " && ".join(parts)
