#!/usr/bin/env python3
"""Golden copies of the code the generator writes for a few representative
functions (a draw, an alias of one, a state query, a pointer upload, a
uniform array, an EGL call): each emitter's output for them, as tests/api/golden/FUNCTION.txt
holds it. A change to the data (api/function_traits.txt, annotations.txt,
parameters.txt) or to an emitter that changes this code fails here until its
golden copy is updated (--update) and the diff reviewed with the change.

Catches: a data or template change that alters generated code unseen (a
draw that loses its client-array capture, a query whose reply changes, an
alias that stops sharing its core's rules, an array that leaves word runs).

usage: check_generated_golden.py GENERATED_DIR GOLDEN_DIR [--update]
"""

import difflib
import os
import re
import sys

FUNCTIONS = ("glDrawArrays", "glDrawElementsBaseVertexOES", "glGetIntegerv", "glTexImage2D", "glUniformMatrix4fv",
             "eglCreateWindowSurface")

# Each generated file, and how a function's part of it is found there: the
# paragraphs (blank-line separated) defining functions of these prefixes,
# and the lines of its table rows.
SOURCES = {
    "src/trace_wrappers.cpp": (("Trace_", "Record_"), ()),
    "src/remote_functions.cpp": (("Remote_", "Send_"), ()),
    "src/host_sizers.cpp": (("Size_",), (r"&Size_{name},", r"// {name}$")),
    "src/codec.cpp": ((), (r"kCaptures_{name}\[\]",)),
    "src/replay.cpp": ((), (r"kParams_{name}\[\]", r"// {name}$")),
    "src/traits.cpp": ((), (r"// {name}$",)),
    "src/call_handlers.cpp": (("void Run_",), (r"\bRun_{name}\(c, ", r"// {name}(: .*)?$")),
    "src/word_readers.cpp": ((), (r"// {name}$",)),
}


def part_of(text: str, name: str, prefixes: tuple, rows: tuple) -> str:
    out = []
    definition = re.compile(r"^[^\n]*\b(" + "|".join(prefixes) + r")" + re.escape(name) + r"\(", re.M) if prefixes else None
    if definition is not None:
        for paragraph in text.split("\n\n"):
            if definition.search(paragraph) and "{" in paragraph:
                out.append(paragraph.strip("\n") + "\n")
    for pattern in rows:
        row = re.compile(pattern.format(name=re.escape(name)))
        out += [line + "\n" for line in text.split("\n") if row.search(line)]
    return "".join(out)


def golden_text(generated: str, name: str) -> str:
    sections = []
    for source, (prefixes, rows) in SOURCES.items():
        with open(os.path.join(generated, source), encoding="utf-8") as f:
            text = f.read()
        sections.append(f"== {source}\n{part_of(text, name, prefixes, rows)}")
    return "\n".join(sections)


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--update"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    generated, golden = args
    update = "--update" in sys.argv
    failures = 0
    for name in FUNCTIONS:
        now = golden_text(generated, name)
        path = os.path.join(golden, name + ".txt")
        if update:
            with open(path, "w", encoding="utf-8") as f:
                f.write(now)
            continue
        try:
            with open(path, encoding="utf-8") as f:
                then = f.read()
        except OSError as error:
            print(f"check_generated_golden: {error}")
            failures += 1
            continue
        if now != then:
            failures += 1
            sys.stdout.writelines(difflib.unified_diff(then.splitlines(True), now.splitlines(True),
                                                       f"golden/{name}.txt", f"generated {name}"))
    if failures:
        print(f"check_generated_golden: the generated code of {failures} function(s) differs from its golden copy; "
              f"if the change is meant, run {sys.argv[0]} {generated} {golden} --update and review the diff",
              file=sys.stderr)
        return 1
    print(f"check_generated_golden: {'updated' if update else 'the same as'} the golden copies of "
          f"{', '.join(FUNCTIONS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
