#!/usr/bin/env bash
# Quick start, part 1: installs what Strata needs, builds it, and runs the
# sample GLES 1.1, 2.0 and 3.x apps unmodified through Strata's loader.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$root/build}
frames_dir=${STRATA_DEMO_DIR:-$build/demo}

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
strata="$build/bin/strata"

echo
echo "== strata info =="
"$strata" info
mkdir -p "$frames_dir"
echo
echo "== the sample apps, through 'strata run' =="
for app in gles1_cube gles2_shaders gles3_instanced; do
  "$strata" run --log info -- "$build/bin/$app" --frames 120 --size 640x480 --output "$frames_dir/$app.png"
done
echo
echo "Frames saved (the last frame of each app, rendered through Strata):"
for app in gles1_cube gles2_shaders gles3_instanced; do echo "  $frames_dir/$app.png"; done
echo "Run any GLES program the same way:  $strata run -- PROGRAM ARGS..."
