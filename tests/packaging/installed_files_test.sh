#!/usr/bin/env bash
# The installed files as users and layer authors get them: installs the build
# tree BUILD_DIR into a temporary prefix (`cmake --install --prefix`), then
# - builds the example layers against that prefix with pkg-config and with
#   find_package(Strata), and checks their exported entry points
#   (build_example_layers.sh);
# - runs the installed `strata`: it must find its libraries and built-in layers
#   under the prefix, and load a layer just built (with APP, a headless GLES
#   program, when given);
# - with COMMAND_DOCS=ON, checks a man page and completions for every command
#   the installed `strata --help` lists;
# - checks README, LICENSE and docs/ under share/doc/strata.
# Each failure names what is missing or wrong.
# Catches: an install rule dropped (header, strata.pc, the CMake package, a
# library, a layer, a man page, the completion, a doc); strata.pc or the
# CMake package pointing at another prefix or lacking the include directory;
# layers that build but do not export the entry points; an installed strata
# that looks for its libraries anywhere but beside its bin/; a command or an
# option of --help that the man pages or the completion leave out; the layer
# template of docs/writing-layers.md drifting from examples/layers.
#   installed_files_test.sh BUILD_DIR LIB_SUBDIR ON|OFF [APP]
set -euo pipefail
if [[ $# -lt 3 || $# -gt 4 ]]; then
  echo "usage: $0 BUILD_DIR LIB_SUBDIR ON|OFF [APP]" >&2
  exit 2
fi
build=$1 lib_subdir=$2 command_docs=$3 app=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)

fail() { echo "installed_files_test: error: $*" >&2; exit 1; }
step() { echo "installed_files_test: $*"; }

work=$(mktemp -d "$build/packaging-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install $build --prefix $prefix failed (log above)"; }
step "installed into $prefix"

for file in bin/strata include/strata/gles_layer.h share/pkgconfig/strata.pc \
    share/cmake/Strata/StrataConfig.cmake share/cmake/Strata/StrataConfigVersion.cmake \
    share/cmake/Strata/StrataTargets.cmake "$lib_subdir"/libEGL.so.1 "$lib_subdir"/libGLESv2.so.2 \
    "$lib_subdir"/libGLESv1_CM.so.1 "$lib_subdir"/libGL.so.1 "$lib_subdir"/libstrata_loader.so \
    "$lib_subdir"/libstrata_remote.so "$lib_subdir"/layers/libstrata_trace.so \
    "$lib_subdir"/layers/libstrata_call_counter.so "$lib_subdir"/layers/libstrata_error_check.so \
    share/doc/strata/README.md share/doc/strata/LICENSE share/doc/strata/copyright share/doc/strata/changelog.gz \
    share/doc/strata/docs/writing-layers.md; do
  [[ -e "$prefix/$file" ]] || fail "the install lacks $file"
done
for doc in "$source_dir"/docs/*.md; do
  cmp -s "$doc" "$prefix/share/doc/strata/docs/$(basename "$doc")" || fail "share/doc/strata/docs/$(basename "$doc") is not docs/$(basename "$doc")"
done
grep -q "^Copyright (c) 2026 The Strata authors$" "$prefix/share/doc/strata/LICENSE" || fail "share/doc/strata/LICENSE has no copyright line"
# Debian's copyright format: the LICENSE under License: Expat, a line of its text.
copyright=$prefix/share/doc/strata/copyright
grep -q "^License: Expat$" "$copyright" || fail "share/doc/strata/copyright names no License: Expat"
grep -q "^ Permission is hereby granted, free of charge" "$copyright" || fail "share/doc/strata/copyright lacks the license text"
zcat "$prefix/share/doc/strata/changelog.gz" | head -1 | grep -q "^strata ([0-9.]*) " ||
  fail "share/doc/strata/changelog.gz does not open with a Debian changelog entry"
step "files in place"

# The layer template of docs/writing-layers.md is examples/layers' build files, word for word.
for template in CMakeLists.txt Makefile; do
  python3 - "$source_dir/docs/writing-layers.md" "$source_dir/examples/layers/$template" <<'PY' ||
import sys
doc, template = (open(p).read() for p in sys.argv[1:])
sys.exit(0 if template in doc else 1)
PY
    fail "docs/writing-layers.md does not show examples/layers/$template as it is"
done

bash "$here/build_example_layers.sh" "$prefix" "$work/layers"

# The installed strata finds its libraries and layers under the prefix.
info=$("$prefix/bin/strata" info --json) || fail "the installed strata info failed"
used=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["library_directory"])' <<<"$info") ||
  fail "strata info --json gave no library_directory"
[[ "$used" == "$prefix/$lib_subdir" ]] || fail "the installed strata uses the libraries in '$used', not $prefix/$lib_subdir"
if [[ -n "$app" ]]; then
  log=$work/run.log
  "$prefix/bin/strata" run --log info --layer-path "$work/layers/cmake" \
      --layers libpassive_layer.so:libstrata_call_counter.so -- "$app" --frames 2 --size 64x48 >"$log" 2>&1 ||
    { cat "$log" >&2; fail "the installed strata could not run $app with the example layer (log above)"; }
  grep -qF "layer 1: $prefix/$lib_subdir/layers/libstrata_trace.so (from Strata's layer directory)" "$log" ||
    { cat "$log" >&2; fail "the installed strata run did not put its switched-off trace layer first (log above)"; }
  grep -qF "layer 2: $work/layers/cmake/libpassive_layer.so (from STRATA_LAYER_PATH)" "$log" ||
    { cat "$log" >&2; fail "the example layer built with find_package(Strata) did not load (log above)"; }
  grep -qF "layer 3: $prefix/$lib_subdir/layers/libstrata_call_counter.so (from Strata's layer directory)" "$log" ||
    { cat "$log" >&2; fail "the installed strata did not load its built-in layer from $prefix/$lib_subdir/layers (log above)"; }
  grep -q "eglChooseConfig" "$log" || { cat "$log" >&2; fail "the call counter saw no eglChooseConfig (log above)"; }
  step "installed strata ran $(basename "$app") with the example layer and a built-in layer"
fi

if [[ "$command_docs" == ON ]]; then
  commands=$("$prefix/bin/strata" --help | sed -n '/^commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p')
  [[ -n "$commands" ]] || fail "the installed strata --help lists no commands"
  completion=$prefix/share/bash-completion/completions/strata
  [[ -f "$completion" ]] || fail "the install lacks share/bash-completion/completions/strata"
  complete_words() {  # WORD... : what the completion offers for the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _strata; printf "%s\n" "${COMPREPLY[@]}"' \
      _ "$completion" "$@"
  }
  for page in strata $(sed 's/^/strata-/' <<<"$commands"); do
    man_page=$prefix/share/man/man1/$page.1.gz
    [[ -f "$man_page" ]] || fail "the install lacks share/man/man1/$page.1.gz"
    zcat "$man_page" | grep -q "^$page \\\\- " || fail "$page.1.gz has no NAME line for $page"
    zcat "$man_page" | grep -q "^\.SH SYNOPSIS" || fail "$page.1.gz has no SYNOPSIS"
  done
  for command in $commands; do
    # grep reads all the words: with -q it may stop first, and pipefail would see the writer's SIGPIPE.
    complete_words strata "${command:0:3}" | grep -x "$command" >/dev/null || fail "the completion does not complete 'strata ${command:0:3}' to $command"
    # Every option of the command's own --help is completed after 'strata COMMAND -'.
    options=$("$prefix/bin/strata" "$command" --help | grep -oE '^  (-[a-z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' || true)
    offered=$(if [[ "$command" == layers ]]; then complete_words strata layers enable -; else complete_words strata "$command" -; fi)
    for option in $options; do
      grep -qx -- "$option" <<<"$offered" || fail "the completion does not offer $option after 'strata $command -'"
    done
  done
  complete_words strata trace --compression "" | sort | tr '\n' ' ' | grep -qx "lz4 none zstd " ||
    fail "the completion does not offer lz4, zstd and none after 'strata trace --compression'"
  step "man pages and completion for: $(tr '\n' ' ' <<<"$commands")"
fi
step "passed"
