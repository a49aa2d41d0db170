#!/usr/bin/env bash
# Configures and builds Strata into ./build (or $STRATA_BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Two cores and generated sources with a thousand functions each: keep it to 2 jobs.
cmake --build "$build" -j "${STRATA_JOBS:-2}"
