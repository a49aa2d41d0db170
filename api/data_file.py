"""The line format of the API model's data files (annotations.txt,
function_traits.txt, hot_functions.txt, parameters.txt): one entry a line,
'#' starts a comment, blank lines are skipped."""

from __future__ import annotations

from typing import Iterator


def lines(path: str) -> Iterator[tuple[str, str]]:
    """(where, text) per entry: "path:line" for error messages, and the line without its comment."""
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if text:
                yield f"{path}:{number}", text
