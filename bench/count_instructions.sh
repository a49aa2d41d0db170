#!/usr/bin/env bash
# Exact instructions per glUniform4f call on each path (direct driver call,
# Strata's export, Strata's eglGetProcAddress pointer, and Strata's export
# traced by the trace layer), by callgrind: the difference between 200000 and
# 100000 calls, divided by 100000. For the traced path, the app thread's own
# figure and that of all threads (with the tracer's encoder and writer
# threads, which encode, compress and write the records) are given apart.
set -euo pipefail
bench=${1:-$(dirname "$0")/../build/bin/loader_call_bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() {  # total instructions executed by one run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" --calls "$1" "$2" >/dev/null 2>"$tmp/log"
  grep -m1 '^summary:' "$tmp/out" | awk '{print $2}'
}
for path in direct export proc; do
  low=$(ir 100000 "$path")
  high=$(ir 200000 "$path")
  echo "$path: $(( (high - low) / 100000 )) instructions per call"
done
traced() {  # instructions of the main thread and of all threads, traced
  rm -f "$tmp"/cg*
  STRATA_LAYERS=libstrata_trace.so STRATA_TRACE="file:$tmp/trace.strace" valgrind --tool=callgrind \
    --separate-threads=yes --callgrind-out-file="$tmp/cg" "$bench" --calls "$1" export >/dev/null 2>"$tmp/log"
  main=$(grep -m1 '^summary:' "$tmp/cg-01" | awk '{print $2}')
  all=$(cat "$tmp"/cg-* | grep '^summary:' | awk '{s += $2} END {print s}')
  echo "$main $all"
}
read -r low_main low_all < <(traced 100000)
read -r high_main high_all < <(traced 200000)
echo "traced export: $(( (high_main - low_main) / 100000 )) instructions per call on the app thread," \
  "$(( (high_all - low_all) / 100000 )) in all threads"
