#!/usr/bin/env bash
# Exact instructions per glUniform4f call on each path (direct driver call,
# Strata's export, Strata's eglGetProcAddress pointer), by callgrind: the
# difference between 200000 and 100000 calls, divided by 100000.
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
