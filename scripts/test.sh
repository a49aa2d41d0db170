#!/usr/bin/env bash
# Quick start, part 2: installs what Strata needs, builds it, and runs the
# whole test suite (unit, generator, loader, sample apps, piglit, X11 programs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$root/build}

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${STRATA_JOBS:-2}" "$@"
