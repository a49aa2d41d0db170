#!/usr/bin/env bash
# Several remote clients on one renderer against as many native processes, on
# a machine with a real GPU (docs/benchmarks.md, "Several clients on one
# renderer"): the draw call mix (bench/workloads/call_mix --mode draws) run
# N times at once natively, then N times at once through one `strata serve`,
# each side's calls per second summed; then N clients of trace_workload's draw
# shape at once, each client's last frame compared with the native one.
#
# usage: bench/gpu/renderer_scaling.sh BUILD [CLIENTS] [FRAMES]
#   BUILD: a build tree, or a copy with bin/ (strata, call_mix, trace_workload)
#   and lib/strata/ as in ../shared/GPU.md. Prints one line per measurement.
set -uo pipefail
build=${1:?usage: renderer_scaling.sh BUILD [CLIENTS] [FRAMES]}
clients=${2:-8}
frames=${3:-300}
strata=$build/bin/strata
for tool in "$strata" "$build/bin/call_mix" "$build/bin/trace_workload"; do
  [[ -x $tool ]] || { echo "renderer_scaling: error: $tool is missing" >&2; exit 1; }
done
export MALLOC_TOP_PAD_=268435456
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-scaling-XXXXXX")
serve_pid=
cleanup() {
  [[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Sums the "N M calls/s" figures of the call_mix outputs given.
sum_rates() { grep -ho '[0-9.]* M calls/s' "$@" | awk '{s += $1} END {printf "%.3f", s}'; }

run_at_once() {  # PREFIX COMMAND...: N copies at once, outputs in $work/PREFIX-i.txt
  local prefix=$1; shift
  local pids=()
  for i in $(seq 1 "$clients"); do "$@" >"$work/$prefix-$i.txt" 2>&1 & pids+=($!); done
  local failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  return $failed
}

address=unix:@strata-scaling-$$
"$strata" serve --listen "$address" --idle-workers "$clients" >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 200); do grep -q "listening on" "$work/serve.log" && break; sleep 0.1; done
grep -q "listening on" "$work/serve.log" || { echo "renderer_scaling: error: strata serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
sleep 3  # the idle workers start their drivers

for round in 1 2 3; do
  run_at_once native "$build/bin/call_mix" --mode draws --frames "$frames" || { cat "$work"/native-*.txt; exit 1; }
  native=$(sum_rates "$work"/native-*.txt)
  run_at_once remote "$strata" run --remote "$address" -- "$build/bin/call_mix" --mode draws --frames "$frames" ||
    { cat "$work"/remote-*.txt; tail -20 "$work/serve.log"; exit 1; }
  remote=$(sum_rates "$work"/remote-*.txt)
  echo "round $round: $clients native processes $native M calls/s; $clients clients on one renderer $remote M calls/s;" \
       "ratio $(awk -v a="$remote" -v b="$native" 'BEGIN {printf "%.3f", a / b}')"
  sleep 2  # the renderer starts its idle workers again
done

"$build/bin/trace_workload" --mode draws --frames 20 --output "$work/native.ppm" >/dev/null || exit 1
pids=()
for i in $(seq 1 "$clients"); do
  "$strata" run --remote "$address" -- "$build/bin/trace_workload" --mode draws --frames 20 \
    --output "$work/pixels-$i.ppm" >"$work/pixels-$i.txt" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { cat "$work"/pixels-*.txt; exit 1; }; done
equal=0
for i in $(seq 1 "$clients"); do cmp -s "$work/native.ppm" "$work/pixels-$i.ppm" && equal=$((equal + 1)); done
echo "pixels: $equal of $clients clients' last frames equal the native one"
[[ $equal -eq $clients ]]
