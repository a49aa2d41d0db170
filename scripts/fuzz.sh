#!/usr/bin/env bash
# Runs one fuzz target of fuzz/ for SECONDS over its corpus (the seeds made at
# build time plus what earlier runs found), in the sanitizer build
# ($STRATA_SANITIZE_BUILD_DIR, default ./build-san; scripts/sanitize.sh makes it).
#   bash scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   bash scripts/fuzz.sh --list
# A finding (crash, sanitizer report, leak, timeout) leaves its input in
# fuzz-findings/TARGET/ and exits non-zero; add it to fuzz/regressions/TARGET/
# once fixed, so every later run replays it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_SANITIZE_BUILD_DIR:-$root/build-san}
targets=(trace_file call_decoder executor renderer client_replies ring control)

usage() {
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  echo "targets: ${targets[*]}"
}
if [[ $# -ge 1 && ( "$1" == "--help" || "$1" == "-h" ) ]]; then usage; exit 0; fi
if [[ $# -ge 1 && "$1" == "--list" ]]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [[ $# -lt 2 ]]; then usage >&2; exit 2; fi
target=$1 seconds=$2
shift 2
if [[ ! " ${targets[*]} " == *" $target "* ]]; then
  echo "fuzz.sh: error: unknown target '$target' (one of: ${targets[*]})" >&2
  exit 2
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [[ "$seconds" -eq 0 ]]; then
  echo "fuzz.sh: error: SECONDS must be a positive whole number, not '$seconds'" >&2
  exit 2
fi
binary=$build/bin/fuzz_$target
if [[ ! -x "$binary" ]]; then
  echo "fuzz.sh: error: $binary is not built; run: bash scripts/sanitize.sh --build-only" >&2
  exit 1
fi

# The working corpus grows with what libFuzzer finds; the build's seeds and the
# checked-in regressions are read too but never written.
corpus=$root/fuzz-corpus/$target
findings=$root/fuzz-findings/$target
mkdir -p "$corpus" "$findings"
inputs=("$corpus" "$build/fuzz/corpus/$target")
[[ -d "$root/fuzz/regressions/$target" ]] && inputs+=("$root/fuzz/regressions/$target")

# Mesa's own allocations outlive each input by design (driver caches): leaks
# are checked in Strata's frames only, through the suppressions.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/fuzz/lsan.supp:print_suppressions=0}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export EGL_PLATFORM=${EGL_PLATFORM:-surfaceless}
export MALLOC_TOP_PAD_=${MALLOC_TOP_PAD_:-268435456}
exec "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
  -dict="$root/fuzz/records.dict" -artifact_prefix="$findings/" -print_final_stats=1 "$@" "${inputs[@]}"
