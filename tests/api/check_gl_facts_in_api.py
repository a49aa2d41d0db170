#!/usr/bin/env python3
"""Checks that no hand-written list of GL or EGL function names is left
outside api/: what a function does is its traits (api/function_traits.txt),
which the generated table strata/api/traits.h gives every part of Strata.

Catches, in src/:
  * a string literal naming a function, or a prefix of function names
    ("glDraw", "eglSwapBuffers"), unless the line looks a symbol up by name
    (dlsym, eglGetProcAddress, a layer's next-proc lookup);
  * a function compared or switched on beside another name of it (a
    registry alias, or a like= of function_traits.txt): such code follows
    aliases by hand and misses the ones it does not list; it switches on
    api::CoreOf(slot) instead;
  * a classification written as a list: a `switch` on functions (cases
    api::NAME) whose every case only returns true or false, or a value
    compared with two or more functions joined by || (`slot == api::glA ||
    slot == api::glB`): what such a list says of its functions is a trait.
    A switch whose cases run code of their own is the hand-written
    semantics of those functions, and is left alone.

usage: check_gl_facts_in_api.py GL_XML EGL_XML API_DIR SRC_DIR
       check_gl_facts_in_api.py GL_XML EGL_XML API_DIR --self-test
(--self-test: runs the check on made-up sources, some of which it must
refuse and some not.)
"""

import os
import re
import sys

# A line that looks a symbol up by its name may spell it.
SYMBOL_LOOKUP = re.compile(r"dlsym\(|Symbol\(|Proc<|proc_address|GetProcAddress")
LITERAL = re.compile(r'"(e?gl[A-Z][A-Za-z0-9_]*)"')
SLOT_NAME = re.compile(r"\bapi::(e?gl[A-Z][A-Za-z0-9_]*)\b")
SOURCE_SUFFIXES = (".cpp", ".h", ".c", ".inc")
SWITCH = re.compile(r"\bswitch\s*\(")
CASE = re.compile(r"\bcase\s+api::(e?gl[A-Z]\w*)\s*:")
DEFAULT = re.compile(r"\bdefault\s*:")
# What a case of a classification switch does: answer, and nothing else.
ANSWER = re.compile(r"(return\s+(true|false)\s*;|break\s*;)")
# `x == api::glA || x == api::glB`, the same x.
COMPARED_LIST = re.compile(r"([\w.>\-\[\]()]+)\s*==\s*api::e?gl[A-Z]\w*\s*\|\|\s*\1\s*==\s*api::e?gl[A-Z]\w*")


def without_comments(text: str) -> str:
    """The code with // comments blanked (lines kept, for line numbers)."""
    return "\n".join(line.split("//", 1)[0] for line in text.split("\n"))


def classification_switches(code: str) -> list[tuple[int, int]]:
    """(line, cases) of each switch on functions whose cases only return a bool."""
    found = []
    for match in SWITCH.finditer(code):
        open_brace = code.find("{", match.end())
        if open_brace < 0:
            continue
        depth, at = 0, open_brace
        while at < len(code):
            depth += {"{": 1, "}": -1}.get(code[at], 0)
            if depth == 0:
                break
            at += 1
        body = code[open_brace + 1:at]
        cases = CASE.findall(body)
        rest = DEFAULT.sub(" ", CASE.sub(" ", body))
        if len(cases) >= 2 and not ANSWER.sub(" ", rest).strip() and "return true" in rest:
            found.append((code.count("\n", 0, match.start()) + 1, len(cases)))
    return found


def problems_in(src_dir: str, names: set, cores: dict) -> list[str]:
    problems = []
    for root, _, files in os.walk(src_dir):
        for file in sorted(files):
            if not file.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(root, file)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            lines = text.split("\n")
            where = os.path.relpath(path, os.path.dirname(os.path.abspath(src_dir)))
            named = {}
            for number, line in enumerate(lines, 1):
                code = line.split("//", 1)[0]
                for literal in LITERAL.findall(code):
                    full = literal in names
                    prefix = not full and any(n.startswith(literal) for n in names)
                    if (full or prefix) and not SYMBOL_LOOKUP.search(code):
                        kind = "names" if full else "is a prefix of the names of"
                        problems.append(f'{where}:{number}: "{literal}" {kind} GL/EGL functions: ask their traits '
                                        "(strata/api/traits.h) or use the slot api::NAME")
                for name in SLOT_NAME.findall(code):
                    named.setdefault(name, number)
            code = without_comments(text)
            for number, cases in classification_switches(code):
                problems.append(f"{where}:{number}: a switch that sorts {cases} functions into true and false: "
                                "a classification of functions, which is a trait (api/function_traits.txt)")
            for match in COMPARED_LIST.finditer(code):
                number = code.count("\n", 0, match.start()) + 1
                problems.append(f"{where}:{number}: a list of functions compared one by one: what it says of "
                                "them is a trait (api/function_traits.txt)")
            for alias, core in sorted(cores.items()):
                if alias in named and core in named:
                    problems.append(f"{where}:{named[alias]}: api::{alias} beside api::{core} (line {named[core]}), "
                                    f"another name of the same function: switch on api::CoreOf(slot)")
    return problems


# Made-up sources for --self-test: the name of each says whether the check must refuse it.
SAMPLES = {
    "refused_classification_switch.cpp": """
bool ChangesArrays(int slot) {
  switch (api::CoreOf(slot)) {
    case api::glEnableVertexAttribArray:  // a comment
    case api::glVertexAttribPointer:
      return true;
    default:
      return false;
  }
}
""",
    "refused_compared_list.cpp": """
bool Waits(int slot) {
  return slot == api::glFinish ||
         slot == api::glClientWaitSync;
}
""",
    "refused_literal.cpp": 'const char* kName = "glDrawArrays";\n',
    "kept_dispatch_switch.cpp": """
void Follow(Context& context, int core, uint64_t first) {
  switch (core) {
    case api::glBindVertexArray:
      context.vertex_array = first;
      break;
    case api::glUseProgram:
      context.program = first;
      break;
    default:
      break;
  }
}
""",
    "kept_role_switch.cpp": """
Role RoleOf(int slot) {
  switch (api::CoreOf(slot)) {
    case api::glGetError: return Role::kGlError;
    case api::glLinkProgram: return Role::kLink;
    default: return Role::kOther;
  }
}
""",
    "kept_one_function.cpp": """
bool Special(const Call& call) {
  if (call.slot != api::eglInitialize && call.slot != api::eglTerminate) return false;
  return call.slot == api::glFinish || call.args.empty();
}
""",
}


def self_test(names: set, cores: dict) -> int:
    import tempfile
    failures = []
    with tempfile.TemporaryDirectory(prefix="strata-gl-facts-check-") as scratch:
        src = os.path.join(scratch, "src")
        os.mkdir(src)
        for file, text in SAMPLES.items():
            with open(os.path.join(src, file), "w", encoding="utf-8") as f:
                f.write(text)
        problems = problems_in(src, names, cores)
    for file in SAMPLES:
        found = [p for p in problems if p.startswith(f"src/{file}:")]
        if file.startswith("refused_") and len(found) != 1:
            failures.append(f"{file}: refused {len(found)} times, not once: {found}")
        if file.startswith("kept_") and found:
            failures.append(f"{file}: refused, though it lists no functions that share a fact: {found}")
    for failure in failures:
        print(f"check_gl_facts_in_api --self-test: {failure}")
    if failures:
        return 1
    print(f"check_gl_facts_in_api --self-test: refused and kept the {len(SAMPLES)} made-up sources as it should")
    return 0


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    gl_xml, egl_xml, api_dir, src_dir = sys.argv[1:]
    sys.path.insert(0, api_dir)
    import registry  # noqa: E402  (api/, found at run time)
    import traits  # noqa: E402

    model = registry.load(gl_xml, egl_xml)
    names = {f.name for f in model.functions} | set(model.cores)
    cores = traits.cores(model, os.path.join(api_dir, "function_traits.txt"))
    if src_dir == "--self-test":
        return self_test(names, cores)
    problems = problems_in(src_dir, names, cores)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_gl_facts_in_api: {len(problems)} hand-written lists of function names outside api/",
              file=sys.stderr)
        return 1
    print("check_gl_facts_in_api: no GL/EGL function names listed outside api/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
