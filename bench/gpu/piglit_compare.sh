#!/bin/bash
# piglit's GLES and EGL tests natively, under `strata run`, traced and
# replayed (`strata replay --verify --strict`), and through a renderer of
# their own (`strata run --remote`), N at a time; one line per test whose
# result differs from the native one, with both. Made to be sent unchanged to
# a GPU machine with a copied build tree (/work/shared/GPU.md); runs on Mesa too.
set -u

usage() {
  cat <<'EOF'
usage: bench/gpu/piglit_compare.sh [options]

Runs each test of the lists natively, through `strata run`, traced with
`strata trace --capture swap,draw` and replayed with `strata replay --verify
--strict` (or `--strict` alone when the trace holds no image), and through
`strata run --remote` against a `strata serve` of its own. Prints one line per
test and way that differs from the native result:

  WAY     NATIVE -> RESULT   COMMAND LINE

WAY is run, trace (the traced run's own result), replay (the replay's first
complaint) or remote (and "closed" when the renderer closed the client).
Then one summary line per way. Logs of every run are kept under --out.

options:
  --strata PATH   the strata binary (default: build/bin/strata of this
                  checkout); its lib/strata/ must lie beside its bin/
  --piglit DIR    piglit's root, holding bin/, lib/ and tests/ (default
                  /usr/lib/x86_64-linux-gnu/piglit); DIR/lib goes on
                  LD_LIBRARY_PATH for copied test binaries
  --list FILE     a list of tests (repeatable): lines of
                  "RESULT<TAB>COMMAND LINE" (as tests/piglit/gles_tests.txt)
                  or "COMMAND LINE"; '#' comments. Default:
                  tests/piglit/gles_tests.txt and bench/gpu/piglit_more_tests.txt
  --jobs N        tests run at once (default 8)
  --timeout S     limit for each program run, in seconds (default 60)
  --ways LIST     comma-separated subset of run,trace,remote (default all)
  --out DIR       where logs and traces go (default a new directory under
                  ${TMPDIR:-/tmp}; traces are deleted once replayed)
  --needed-files  print, one a line relative to the piglit root, the files
                  the lists need (test binaries, lib/, the test files their
                  command lines name), for copying them to another machine
                  (tar -C ROOT -cf - -T LIST), and run nothing
  --help          this text

Every test runs with PIGLIT_PLATFORM=surfaceless_egl from the piglit root;
other variables (EGL_PLATFORM, __EGL_VENDOR_LIBRARY_FILENAMES) pass through.
On Mesa without an X server, EGL_PLATFORM=surfaceless gives the tests that
call eglGetDisplay(EGL_DEFAULT_DISPLAY) a display, as the test suite does.
Exit status: 0 when nothing differs, 1 when something does, 2 on bad usage.
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# One test, every way; called by the script itself through xargs.
if [ "${1:-}" = "--one" ]; then
  index=$2
  line=$(sed -n "${index}p" "$PIGLIT_COMPARE_OUT/tests.txt")
  read -r -a words <<<"$line"
  program="$PIGLIT_COMPARE_ROOT/${words[0]}"
  args=("${words[@]:1}")
  dir="$PIGLIT_COMPARE_OUT/$index"
  mkdir -p "$dir"
  exec 2>>"$dir/shell.log"  # the shell's word on programs a signal ended
  limit=$PIGLIT_COMPARE_TIMEOUT
  result_of() {  # the last result piglit printed, or what ended the program
    local log=$1 status=$2 found
    found=$(grep -o '"result": "[a-z]*"' "$log" 2>/dev/null | tail -1 | cut -d'"' -f4)
    if [ -n "$found" ]; then echo "$found"
    elif [ "$status" = 124 ] || [ "$status" = 137 ]; then echo timeout
    elif [ "$status" -gt 128 ]; then echo "crash($((status - 128)))"
    else echo none; fi
  }
  cd "$PIGLIT_COMPARE_ROOT" || exit 1
  export PIGLIT_PLATFORM=surfaceless_egl
  timeout -k 5 "$limit" "$program" "${args[@]}" >"$dir/native.log" 2>&1
  echo "native $(result_of "$dir/native.log" $?)" >"$dir/results"
  ways=",$PIGLIT_COMPARE_WAYS,"
  if [[ $ways == *,run,* ]]; then
    timeout -k 5 "$limit" "$PIGLIT_COMPARE_STRATA" run -- "$program" "${args[@]}" >"$dir/run.log" 2>&1
    echo "run $(result_of "$dir/run.log" $?)" >>"$dir/results"
  fi
  if [[ $ways == *,trace,* ]]; then
    trace="$dir/trace.strace"
    timeout -k 5 "$limit" "$PIGLIT_COMPARE_STRATA" trace -o "$trace" --capture swap,draw -- "$program" "${args[@]}" \
      >"$dir/trace.log" 2>&1
    echo "trace $(result_of "$dir/trace.log" $?)" >>"$dir/results"
    if [ -s "$trace" ]; then
      timeout -k 5 "$limit" "$PIGLIT_COMPARE_STRATA" replay --verify --strict "$trace" >"$dir/replay.log" 2>&1
      status=$?
      if grep -q 'holds no framebuffer images' "$dir/replay.log"; then
        timeout -k 5 "$limit" "$PIGLIT_COMPARE_STRATA" replay --strict "$trace" >"$dir/replay.log" 2>&1
        status=$?
      fi
      if [ $status = 0 ]; then
        verdict=same
      else
        # The first line that says what went wrong, else the first error line.
        verdict=$(grep -m1 -A1 -E 'differ from the recording|could not run|framebuffers differ' "$dir/replay.log" |
                  tr '\n' ' ' | tr -s ' ')
        [ -n "$verdict" ] || verdict=$(grep -m1 -i 'error' "$dir/replay.log")
        [ -n "$verdict" ] || verdict="exit status $status"
      fi
      rm -f "$trace"
    elif grep -q 'no trace written' "$dir/trace.log"; then
      verdict=same  # the program made no EGL or GL call: nothing to replay
    else
      verdict="no trace"
    fi
    echo "replay $verdict" >>"$dir/results"
  fi
  if [[ $ways == *,remote,* ]]; then
    address="unix:@piglit-compare-$$-$index"
    "$PIGLIT_COMPARE_STRATA" serve --listen "$address" --idle-workers 1 >"$dir/serve.log" 2>&1 &
    serve=$!
    for _ in $(seq 100); do
      grep -q 'listening on' "$dir/serve.log" 2>/dev/null && break
      kill -0 $serve 2>/dev/null || break
      sleep 0.1
    done
    timeout -k 5 "$limit" "$PIGLIT_COMPARE_STRATA" run --remote "$address" -- "$program" "${args[@]}" \
      >"$dir/remote.log" 2>&1
    remote=$(result_of "$dir/remote.log" $?)
    kill -TERM $serve 2>/dev/null
    wait $serve 2>/dev/null
    grep -q 'closing ' "$dir/serve.log" && remote="$remote(closed)"
    echo "remote $remote" >>"$dir/results"
  fi
  exit 0
fi

strata="$repo/build/bin/strata"
piglit=/usr/lib/x86_64-linux-gnu/piglit
lists=()
jobs=8
limit=60
ways=run,trace,remote
out=""
needed_files=0
while [ $# -gt 0 ]; do
  case "$1" in
    --strata) strata=$2; shift 2 ;;
    --piglit) piglit=$2; shift 2 ;;
    --list) lists+=("$2"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --ways) ways=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --needed-files) needed_files=1; shift ;;
    --help|-h) usage; exit 0 ;;
    *) echo "piglit_compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#lists[@]} -gt 0 ] || lists=("$repo/tests/piglit/gles_tests.txt" "$here/piglit_more_tests.txt")
case "$jobs$limit" in *[!0-9]*) echo "piglit_compare.sh: --jobs and --timeout take whole numbers" >&2; exit 2 ;; esac
for way in ${ways//,/ }; do
  case "$way" in run|trace|remote) ;; *) echo "piglit_compare.sh: unknown way '$way' in --ways" >&2; exit 2 ;; esac
done
[ -x "$strata" ] || { echo "piglit_compare.sh: no strata binary at $strata (--strata)" >&2; exit 2; }
[ -d "$piglit/bin" ] || { echo "piglit_compare.sh: no piglit at $piglit (--piglit)" >&2; exit 2; }
for list in "${lists[@]}"; do
  [ -r "$list" ] || { echo "piglit_compare.sh: cannot read the list $list" >&2; exit 2; }
done
if [ "$needed_files" = 1 ]; then
  (cd "$piglit" && ls -d lib/*.so* 2>/dev/null
   cat "${lists[@]}" | grep -v -E '^[[:space:]]*(#|$)' | awk -F'\t' '{ print (NF > 1) ? $2 : $1 }' | tr ' ' '\n' |
     while read -r word; do [ -f "$word" ] && echo "$word"; done) | sort -u
  exit 0
fi
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/piglit-compare.XXXXXX")
mkdir -p "$out" || exit 2
strata=$(cd "$(dirname "$strata")" && pwd)/$(basename "$strata")
piglit=$(cd "$piglit" && pwd)

# The command lines, in list order, once each.
cat "${lists[@]}" | sed -e 's/\r$//' | grep -v -E '^[[:space:]]*(#|$)' |
  awk -F'\t' '{ line = (NF > 1) ? $2 : $1; if (!seen[line]++) print line }' >"$out/tests.txt"
count=$(wc -l <"$out/tests.txt")
echo "piglit_compare: $count tests, $jobs at a time, ways: native,$ways; logs in $out" >&2

export PIGLIT_COMPARE_OUT=$out PIGLIT_COMPARE_ROOT=$piglit PIGLIT_COMPARE_STRATA=$strata
export PIGLIT_COMPARE_TIMEOUT=$limit PIGLIT_COMPARE_WAYS=$ways
export LD_LIBRARY_PATH="$piglit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
started=$(date +%s)
seq "$count" | xargs -P "$jobs" -I{} "$0" --one {}

declare -A differ
differ_any=0
for i in $(seq "$count"); do
  line=$(sed -n "${i}p" "$out/tests.txt")
  results="$out/$i/results"
  native=$(awk '$1 == "native" { print $2 }' "$results" 2>/dev/null)
  [ -n "$native" ] || native=missing
  for way in run trace remote; do
    [[ ",$ways," == *,$way,* ]] || continue
    got=$(awk -v w="$way" '$1 == w { print $2 }' "$results" 2>/dev/null)
    if [ "$got" != "$native" ]; then
      printf '%-7s %s -> %s\t%s\n' "$way" "$native" "${got:-missing}" "$line"
      differ[$way]=$((${differ[$way]:-0} + 1))
      differ_any=1
    fi
  done
  if [[ ",$ways," == *,trace,* ]]; then
    verdict=$(sed -n 's/^replay //p' "$results" 2>/dev/null)
    if [ "$verdict" != same ]; then
      printf '%-7s %s -> %s\t%s\n' replay "$native" "${verdict:-missing}" "$line"
      differ[replay]=$((${differ[replay]:-0} + 1))
      differ_any=1
    fi
  fi
done
for way in run trace replay remote; do
  [[ ",$ways," == *,${way/replay/trace},* ]] || continue
  echo "piglit_compare: $way: ${differ[$way]:-0} of $count differ from native"
done
echo "piglit_compare: $(($(date +%s) - started)) s" >&2
exit $differ_any
