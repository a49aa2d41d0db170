#!/bin/bash
# Exact instructions of a remote client per call it sent, by callgrind.
#
# For each trace_workload mode, the program runs under `strata run --remote`
# against a renderer of its own (`strata serve`, not under valgrind), with
# callgrind following the client (`--trace-children=yes`: strata run execs
# the program), for a low and a high number of frames; the figure is the
# difference in the client process's instructions divided by the difference
# in calls it sent (its STRATA_REMOTE_STATS line), so that start-up, shader
# compiles and exit drop out. It counts all the client does a call: the
# program's own loop, Strata's generated functions, the calls held back and
# the encoder.
#
# usage: bench/client_instructions.sh [--build DIR] [--modes draws,cheap,...] [--frames LOW,HIGH]
#   --build   the build tree whose strata and trace_workload run (default: build/ beside bench/)
#   --modes   trace_workload modes (default: draws)
#   --frames  LOW,HIGH (default 4,24)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build="$here/../build"
modes=draws
frames=4,24

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "client_instructions.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --build) [ $# -ge 2 ] || fail "--build needs a directory"; build=$2; shift 2 ;;
    --modes) [ $# -ge 2 ] || fail "--modes needs a list"; modes=$2; shift 2 ;;
    --frames) [ $# -ge 2 ] || fail "--frames needs LOW,HIGH"; frames=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown argument '$1' (--help)" ;;
  esac
done

strata="$build/bin/strata"
workload="$build/bin/trace_workload"
for tool in "$strata" "$workload"; do
  [ -x "$tool" ] || fail "$tool is not built"
done
command -v valgrind > /dev/null || fail "valgrind is not installed (scripts/setup.sh)"
IFS=, read -r low high <<< "$frames"
[[ "$low" =~ ^[0-9]+$ && "$high" =~ ^[0-9]+$ && "$low" -gt 0 && "$high" -gt "$low" ]] ||
  fail "--frames needs LOW,HIGH with 0 < LOW < HIGH"

export MALLOC_TOP_PAD_=268435456
tmp=$(mktemp -d /tmp/strata-client-instructions-XXXXXX)
address="unix:@strata-client-instructions-$$"
serve_pid=
cleanup() {
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" 2> /dev/null || true
    wait "$serve_pid" 2> /dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$strata" serve --listen "$address" --idle-workers 0 > "$tmp/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$tmp/serve.log" && break
  kill -0 "$serve_pid" 2> /dev/null || fail "the renderer did not start: $(cat "$tmp/serve.log")"
  sleep 0.1
done
grep -q "listening on" "$tmp/serve.log" || fail "the renderer did not start within 10 s"

# Instructions and calls sent of one client run: "INSTRUCTIONS CALLS".
measure() {
  local mode=$1 n=$2 dir="$tmp/$1-$2"
  mkdir "$dir"
  STRATA_REMOTE_STATS=1 valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$dir/cg.%p" \
    "$strata" run --remote "$address" -- "$workload" --mode "$mode" --frames "$n" > "$dir/out" 2>&1 ||
    fail "the client failed ($mode, $n frames): $(tail -5 "$dir/out")"
  local instructions calls
  instructions=$(cat "$dir"/cg.* | awk '/^summary:/ {s += $2} END {print s + 0}')
  calls=$(grep -o "[0-9]* calls sent" "$dir/out" | awk '{print $1}')
  [ -n "$calls" ] || fail "the client printed no call count ($mode): $(tail -5 "$dir/out")"
  echo "$instructions $calls"
}

printf '%-10s %14s %10s %10s\n' mode instructions calls "a call"
for mode in ${modes//,/ }; do
  read -r low_ir low_calls <<< "$(measure "$mode" "$low")"
  read -r high_ir high_calls <<< "$(measure "$mode" "$high")"
  calls=$((high_calls - low_calls))
  [ "$calls" -gt 0 ] || fail "$mode: no more calls sent in $high frames than in $low"
  printf '%-10s %14d %10d %10d\n' "$mode" $((high_ir - low_ir)) "$calls" $(((high_ir - low_ir) / calls))
done
