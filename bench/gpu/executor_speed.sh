#!/usr/bin/env bash
# The executor's speed on a machine with a real GPU (docs/benchmarks.md, "The
# executor on a GPU host"):
#   1. `strata replay --benchmark` of the call mixes' traces against the
#      programs' own frame rates, with the self-check and without it
#      (bench/replay_frame_rate.py);
#   2. trace_workload's shapes natively and through a renderer over the ring:
#      the client's default (word runs) and every call as a call record
#      (STRATA_REMOTE_WORD_RUNS=off, the path --decode-ahead serves)
#      (bench/remote_speed.py);
#   3. where a remote draw-heavy client's time goes: its CPU time and each
#      renderer thread's, with word runs, and with call records decoded
#      ahead and not (bench/remote_thread_load.py);
#   4. what the remote run loses against the program and its replay: a busy
#      CPU beside the program, client and renderer pinned apart, to SMT
#      siblings and to one CPU (bench/gpu/remote_gap.py).
# Each part runs under a time limit of its own, so that a part that hangs
# still leaves the others' figures; the runs are long enough for a GPU driver
# (a few hundred milliseconds each at least).
#
# usage: bench/gpu/executor_speed.sh BUILD [ROUNDS]
#   BUILD: a build tree, or a copy with bin/ (strata, call_mix, trace_workload)
#   and lib/strata/ as in ../shared/GPU.md. ROUNDS: 5 by default.
set -uo pipefail
bench=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: executor_speed.sh BUILD [ROUNDS]}
rounds=${2:-5}
for tool in strata call_mix trace_workload; do
  [[ -x $build/bin/$tool ]] || { echo "executor_speed: error: $build/bin/$tool is missing" >&2; exit 1; }
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "executor_speed: error: ROUNDS must be a positive number" >&2; exit 2; }
export PYTHONUNBUFFERED=1
echo "executor_speed: $(nproc) CPUs; $rounds rounds"
status=0
part() {  # SECONDS COMMAND...: one part, stopped after SECONDS; its progress lines left out
  local limit=$1; shift
  echo "== $*"
  timeout "$limit" "$@" 2>&1 | grep -v -E ': round [0-9]+ of [0-9]+$|^round [0-9]+/[0-9]+ done$'
  local rc=${PIPESTATUS[0]}
  [[ $rc -eq 124 ]] && echo "executor_speed: error: stopped after $limit s: $*"
  [[ $rc -ne 0 ]] && status=1
  return 0
}
part 120 python3 "$bench/replay_frame_rate.py" --build "$build" --rounds "$rounds" --frames 600 --modes cheap,draws
part 60 python3 "$bench/replay_frame_rate.py" --build "$build" --rounds "$rounds" --frames 600 --modes cheap --no-check
part 200 python3 "$bench/remote_speed.py" --build "$build" --rounds "$rounds" --frames 3000 \
  --workloads draws,matrices,streaming,cheap --configs native,ring,records
part 30 python3 "$bench/remote_thread_load.py" --build "$build" --mode draws --frames 3000 --runs 2
for mode in on off; do
  STRATA_REMOTE_WORD_RUNS=off part 30 python3 "$bench/remote_thread_load.py" --build "$build" --mode draws \
    --frames 3000 --runs 2 --decode-ahead "$mode"
done
part 180 python3 "$bench/gpu/remote_gap.py" --build "$build" --rounds "$rounds" --frames 3000
exit $status
