#!/usr/bin/env bash
# Strata's own instructions per replayed call, by callgrind, for call_mix
# workloads: each is traced for 5 and for 10 frames; per call of the 5 frames
# between them (start-up, shader compiles and exit drop out):
#   native   the program itself (call_mix under callgrind, 5 and 10 frames)
#   file     `strata replay --no-check`, records read from the trace file, all
#            threads; "thread": the replaying thread's share (the rest is
#            reading ahead: decompressing, ordering, and decoding the chunks
#            the reading thread takes, which depends on which thread waits
#            for the other: under callgrind, which runs one thread at a time,
#            it varies from run to run)
#   memory   one loop from memory, calls kept decoded: `--preload --loop 3`
#            less `--preload --loop 2` (the preloading drops out)
#   prepare  once per replay: reading the trace into memory and decoding its
#            calls (`--preload --loop 2` less two loops from memory)
# and Strata's own: each replay's figure less the native one.
# usage: replay_instructions.sh [--build DIR] [--modes cheap,draws,...]
set -euo pipefail
build=$(dirname "$0")/../build
modes=cheap,draws
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "replay_instructions.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
strata=$build/bin/strata
call_mix=$build/bin/call_mix
for tool in "$strata" "$call_mix"; do
  [ -x "$tool" ] || { echo "replay_instructions.sh: $tool is not built" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "replay_instructions.sh: valgrind is not installed" >&2; exit 2; }
export MALLOC_TOP_PAD_=268435456 LP_NUM_THREADS=0
tmp=$(mktemp -d -t strata-replay-instructions-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ir() {  # instructions of one whole run, all threads
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>"$tmp/log" ||
    { echo "replay_instructions.sh: failed: $*" >&2; cat "$tmp/log" >&2; exit 1; }
  grep -m1 '^summary:' "$tmp/cg" | awk '{print $2}'
}
ir_threads() {  # "all threads, the main thread" of one whole run
  rm -f "$tmp"/cgt*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cgt" "$@" >/dev/null 2>"$tmp/log" ||
    { echo "replay_instructions.sh: failed: $*" >&2; cat "$tmp/log" >&2; exit 1; }
  awk '/^summary:/ { total += $2; if (FILENAME ~ /-01$/) main = $2 } END { print total, main }' "$tmp"/cgt-*
}
printf '%-8s %10s %10s %8s %8s %10s %8s %8s\n' mode native file own thread memory own prepare
for mode in ${modes//,/ }; do
  declare -A n l1 m1 l2 l3
  for f in 5 10; do
    "$strata" trace -o "$tmp/$mode$f.strace" -- "$call_mix" --mode "$mode" --frames "$f" >/dev/null 2>"$tmp/log" ||
      { echo "replay_instructions.sh: tracing call_mix --mode $mode failed" >&2; cat "$tmp/log" >&2; exit 1; }
    n[$f]=$(ir "$call_mix" --mode "$mode" --frames "$f")
    read -r l1[$f] m1[$f] < <(ir_threads "$strata" replay --no-check --loop 1 "$tmp/$mode$f.strace")
    l2[$f]=$(ir "$strata" replay --no-check --preload --loop 2 "$tmp/$mode$f.strace")
    l3[$f]=$(ir "$strata" replay --no-check --preload --loop 3 "$tmp/$mode$f.strace")
  done
  # The calls of 5 frames: what call_mix says it made in its timed loop.
  made() { "$call_mix" --mode "$mode" --frames "$1" | awk '{for (i = 2; i <= NF; ++i) if ($i == "calls") { print $(i - 1); exit }}'; }
  calls=$(( $(made 10) - $(made 5) ))
  awk -v mode="$mode" -v c="$calls" -v n5="${n[5]}" -v n10="${n[10]}" -v a5="${l1[5]}" -v a10="${l1[10]}" \
      -v m5="${m1[5]}" -v m10="${m1[10]}" \
      -v b5="${l2[5]}" -v b10="${l2[10]}" -v d5="${l3[5]}" -v d10="${l3[10]}" 'BEGIN {
    native = (n10 - n5) / c; file = (a10 - a5) / c; thread = (m10 - m5) / c; memory = ((d10 - b10) - (d5 - b5)) / c
    prepare = (b10 - b5) / c - 2 * memory
    printf "%-8s %10.0f %10.0f %8.0f %8.0f %10.0f %8.0f %8.0f\n", mode, native, file, file - native, thread - native,
           memory, memory - native, prepare
  }'
  unset n l1 m1 l2 l3
done
