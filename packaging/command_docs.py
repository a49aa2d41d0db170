#!/usr/bin/env python3
"""Man pages and bash completion for `strata`, made at build time from the
`--help` texts of the built command, so that they cannot drift from it.

  command_docs.py man STRATA HELP2MAN VERSION OUTDIR
      strata.1 and strata-COMMAND.1 for every command `strata --help` lists,
      written by help2man into OUTDIR (pages of commands that are gone are
      deleted).
  command_docs.py completion STRATA OUTFILE
      a bash completion script: commands, each command's options and the
      values of options whose help lists them, files and programs.
  command_docs.py help-text STRATA [COMMAND]
      the help text as help2man reads it ("Usage:", "or:", "Options:"); what
      the wrappers help2man runs print.

Python 3 standard library only.
"""

import gzip
import os
import re
import shlex
import subprocess
import sys
import tempfile


def fail(message):
    sys.exit(f"command_docs.py: error: {message}")


def help_text(strata, command=None):
    args = [strata] + ([command] if command else []) + ["--help"]
    result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0 or not result.stdout.startswith("usage: "):
        fail(f"'{' '.join(args)}' exited {result.returncode} without a usage text:\n{result.stderr}")
    return result.stdout


def commands(strata):
    """[(name, summary)] from the 'commands:' list of `strata --help`."""
    found, listing = [], False
    for line in help_text(strata).splitlines():
        if line == "commands:":
            listing = True
        elif listing and not line.strip():
            break
        elif listing:
            match = re.match(r"^  (\S+) +(\S.*)$", line)
            if not match:
                fail(f"cannot read the command line '{line}' of 'strata --help'")
            found.append((match.group(1), match.group(2)))
    if not found:
        fail("'strata --help' lists no commands")
    return found


def usage_lines(text):
    """The usage lines: the first, and the indented 'strata ...' lines after it."""
    lines = text.splitlines()
    usage = [lines[0][len("usage: "):]]
    for line in lines[1:]:
        if not re.match(r"^ +strata ", line):
            break
        usage.append(line.strip())
    return usage


def normalized_help(text):
    """The help text with the headings help2man knows: Usage/or, Options, Commands."""
    usage = usage_lines(text)
    rest = text.splitlines()[len(usage):]
    out = ["Usage: " + usage[0]] + ["  or:  " + line for line in usage[1:]]
    for line in rest:
        out.append({"options:": "Options:", "commands:": "Commands:"}.get(line, line))
    return "\n".join(out) + "\n"


# --- man pages -------------------------------------------------------------

def write_man_pages(strata, help2man, version, outdir):
    listed = commands(strata)
    os.makedirs(outdir, exist_ok=True)
    wanted = {"strata.1.gz"} | {f"strata-{name}.1.gz" for name, _ in listed}
    for stale in set(os.listdir(outdir)) - wanted:
        if stale.endswith(".1") or stale.endswith(".1.gz"):
            os.remove(os.path.join(outdir, stale))
    with tempfile.TemporaryDirectory() as work:
        pages = [(None, "the command line of the Strata GLES toolkit: layers, tracing, replay, remote rendering",
                  "[SEE ALSO]\n" + "\n".join(f".BR strata\\-{name} (1)," for name, _ in listed[:-1]) +
                  f"\n.BR strata\\-{listed[-1][0]} (1).\n.PP\nThe documentation in /usr/share/doc/strata "
                  "(README.md, docs/), or under the install prefix's share/doc/strata.\n")]
        pages += [(name, summary, "[SEE ALSO]\n.BR strata (1)\n") for name, summary in listed]
        for name, summary, include in pages:
            page = "strata" + (f"-{name}" if name else "")
            # help2man names the page after the program it runs: a wrapper of that name.
            wrapper = os.path.join(work, page)
            with open(wrapper, "w") as f:
                f.write("#!/bin/sh\nexec " + " ".join(shlex.quote(a) for a in
                        [sys.executable, os.path.abspath(__file__), "help-text", strata] + ([name] if name else [])) + "\n")
            os.chmod(wrapper, 0o755)
            include_file = os.path.join(work, page + ".h2m")
            with open(include_file, "w") as f:
                f.write(include)
            output = os.path.join(outdir, page + ".1")
            result = subprocess.run([help2man, "--no-info", "--no-discard-stderr", "--version-string", version,
                                     "--name", summary, "--include", include_file, "--output", output, wrapper],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if result.returncode != 0:
                fail(f"help2man failed for {page}:\n{result.stdout}")
            with open(output, "rb") as f:
                text = f.read()
            if b".SH SYNOPSIS" not in text:
                fail(f"{output} has no SYNOPSIS: help2man did not read the usage lines")
            # Installed compressed, as Debian policy asks; mtime 0, so the same
            # page makes the same bytes.
            with open(output + ".gz", "wb") as f:
                f.write(gzip.compress(text, compresslevel=9, mtime=0))
            os.remove(output)


# --- bash completion -------------------------------------------------------

def strip_parentheses(text):
    while True:
        stripped = re.sub(r"\([^()]*\)", "", text)
        if stripped == text:
            return text
        text = stripped


def listed_values(description):
    """The values an option's help lists: 'error, warning (default), info, debug',
    'lz4 (default), zstd (smaller) or none', 'gltrace or chrome-json (...)'."""
    text = strip_parentheses(" ".join(description.split()))
    text = text.rsplit(":", 1)[-1].strip().rstrip(".")
    items = [item for item in re.split(r"\s*,\s+|\s+or\s+", text) if item]
    if len(items) >= 2 and all(re.fullmatch(r"[a-z][a-z0-9-]*(,[a-z][a-z0-9-]*)*", item) for item in items):
        return items
    return []


FILE_ARGUMENTS = {"FILE", "PATH", "OUT", "TRACE"}
DIRECTORY_ARGUMENTS = {"DIR", "DIRS"}


class Option:
    def __init__(self, names, argument="", description=""):
        self.names, self.argument, self.description = names, argument, description

    def completion(self):
        """What completes this option's value: 'files', 'dirs', 'words:a b c', or '' (nothing)."""
        if not self.argument:
            return None
        if "|" in self.argument:
            return "words:" + " ".join(self.argument.split("|"))
        if re.fullmatch(r"[a-z][a-z0-9-]*", self.argument):
            return "words:" + self.argument
        values = listed_values(self.description)
        if values:
            return "words:" + " ".join(values)
        if self.argument in FILE_ARGUMENTS:
            return "files"
        if self.argument in DIRECTORY_ARGUMENTS:
            return "dirs"
        return ""


def command_options(text):
    """Options of a command: its 'options:' list, and those its usage lines name."""
    options, current = {}, None
    lines = text.splitlines()
    in_options = False
    for line in lines:
        if line == "options:":
            in_options = True
            continue
        if in_options and not line.strip():
            in_options = False
        if not in_options:
            continue
        # "  -o, --output FILE   text": the argument is one word after one space.
        match = re.match(r"^  (-\w, )?(--[a-z][a-z0-9-]*)(?: (\S+))?(?:\s+(.*))?$", line)
        if match:
            names = [match.group(2)] + ([match.group(1)[:2]] if match.group(1) else [])
            current = Option(names, match.group(3) or "", match.group(4) or "")
            options[match.group(2)] = current
        elif current is not None and line.startswith("   "):
            current.description += " " + line.strip()
    for usage in usage_lines(text):
        for match in re.finditer(r"(--[a-z][a-z0-9-]*)(?: ([A-Z][A-Z0-9_]*|[a-z]+(?:\|[a-z]+)+))?", usage):
            if match.group(1) not in options:
                options[match.group(1)] = Option([match.group(1)], match.group(2) or "")
    return list(options.values())


def verbs(text, command):
    """Sub-commands a command's usage lines name: 'strata layers enable ...'."""
    found = []
    for usage in usage_lines(text):
        words = usage.split()
        if len(words) > 2 and words[0] == "strata" and words[1] == command and re.fullmatch(r"[a-z]+", words[2]):
            found.append((words[2], usage))
    return found


def bash_words(words):
    return shlex.quote(" ".join(words))


def write_completion(strata, outfile):
    listed = commands(strata)
    cases = []
    for name, _ in listed:
        text = help_text(strata, name)
        options = command_options(text)
        actions, takes = {}, []
        for option in options:
            completion = option.completion()
            if completion is None:
                continue
            takes.extend(option.names)
            if completion.startswith("words:"):
                action = f"COMPREPLY=($(compgen -W {bash_words(completion[6:].split())} -- \"$cur\"))"
            elif completion == "files":
                action = "COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null"
            elif completion == "dirs":
                action = "COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null"
            else:
                action = "COMPREPLY=()"
            actions.setdefault(action, []).extend(option.names)
        values = [f"        {'|'.join(names)}) {action}; return ;;" for action, names in actions.items()]
        names = [n for option in options for n in option.names]
        sub = verbs(text, name)
        usage = " ".join(usage_lines(text))
        positional = "program" if "PROGRAM" in usage else "files" if re.search(r"\bTRACE\b", usage) else "none"
        body = [f"    {name})"]
        if values:
            body += ["      case \"$prev\" in"] + values + ["      esac"]
        if sub:
            # Options per sub-command, from its own usage line.
            body.append(f"      if (( COMP_CWORD == 2 )); then COMPREPLY=($(compgen -W {bash_words([v for v, _ in sub] + ['--help'])} -- \"$cur\")); return; fi")
            body.append("      case \"${COMP_WORDS[2]}\" in")
            for verb, usage in sub:
                verb_options = sorted(set(re.findall(r"--[a-z][a-z0-9-]*", usage)) | {"--help"})
                body.append(f"        {verb}) COMPREPLY=($(compgen -W {bash_words(verb_options)} -- \"$cur\")) ;;")
            body.append("      esac")
        else:
            body.append(f"      _strata_positional {positional} {bash_words(takes)} {bash_words(names)}")
        body.append("      ;;")
        cases.append("\n".join(body))

    script = f"""# bash completion for strata. Generated at build time by packaging/command_docs.py
# from the --help texts of `strata` and its commands: do not edit.

# Words after the command: options, then PROGRAM and its arguments (run,
# trace), files (dump, stats, ...) or nothing more (info, serve).
# $1: program|files|none; $2: the options that take a value; $3: all options.
_strata_positional() {{
  local i word after=
  for (( i = 2; i < COMP_CWORD; i++ )); do
    word=${{COMP_WORDS[i]}}
    if [[ "$word" == -- ]]; then after=$i; break; fi
    if [[ " $2 " == *" $word "* ]]; then (( i++ )); continue; fi
    if [[ "$1" == program && "$word" != -* ]]; then after=$(( i - 1 )); break; fi
  done
  if [[ -n "$after" && "$1" == program ]]; then
    # The program and its own arguments: complete them as bash would.
    if declare -F _command_offset >/dev/null; then _command_offset $(( after + 1 )); return; fi
    if (( COMP_CWORD == after + 1 )); then COMPREPLY=($(compgen -c -- "$cur")); return; fi
    COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return
  fi
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$3" -- "$cur")); return; fi
  if [[ "$1" == program ]]; then COMPREPLY=($(compgen -c -- "$cur")); return; fi
  if [[ "$1" == none ]]; then COMPREPLY=($(compgen -W "$3" -- "$cur")); return; fi
  COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null
}}

_strata() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  COMPREPLY=()
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W {bash_words([n for n, _ in listed] + ['--help', '--version'])} -- "$cur"))
    return
  fi
  case "${{COMP_WORDS[1]}}" in
{chr(10).join(cases)}
  esac
}}
complete -F _strata strata
"""
    with open(outfile, "w") as f:
        f.write(script)


def main(argv):
    if len(argv) == 6 and argv[1] == "man":
        write_man_pages(*argv[2:])
    elif len(argv) == 4 and argv[1] == "completion":
        write_completion(argv[2], argv[3])
    elif len(argv) in (3, 4) and argv[1] == "help-text":
        sys.stdout.write(normalized_help(help_text(*argv[2:])))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
