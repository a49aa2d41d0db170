#!/usr/bin/env bash
# Installs every Debian package Strata needs to build, test, benchmark and run
# its demo. Safe to run again: it only installs what is missing.
# Works as root on a fresh Debian 12 machine, or as a user with sudo.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ python3 pkg-config binutils
  # installing: man pages written from the --help texts (help2man); the
  # example layers' Makefile (make); the Debian package's dependencies,
  # found by CPack with dpkg-shlibdeps (dpkg-dev)
  help2man make dpkg-dev
  # Debian's checks of the package (scripts/test_package.sh)
  lintian
  # the API registries the generator reads (gl.xml, egl.xml)
  khronos-api librust-khronos-api-dev
  # headers and the system EGL/GLES (glvnd) with Mesa's llvmpipe
  libegl-dev libgles-dev libegl1 libgles1 libgles2 libegl-mesa0 libgl1-mesa-dri
  # the system's libGL (glvnd), which Strata's libGL.so.1 stands in front of
  libgl1
  # glvnd's EGL vendor ABI (libeglabi.h), which libstrata_remote.so also speaks
  libglvnd-core-dev
  # sample apps
  libx11-dev libxext-dev libpng-dev
  # trace compression
  liblz4-dev libzstd-dev
  # strata export: Android's gltrace format (protobuf, LZF-compressed images)
  libprotobuf-dev protobuf-compiler liblzf-dev
  # the hardening run (scripts/sanitize.sh): clang's AddressSanitizer,
  # UndefinedBehaviorSanitizer and libFuzzer
  clang libclang-rt-14-dev
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  # real programs tested through Strata
  mesa-utils glmark2-es2-x11 piglit xvfb xauth
  # real applications on GLES over EGL (tests/apps/real_apps_test.cpp): a
  # video player, GTK 4's demos, GStreamer's GL elements
  mpv gtk-4-examples gstreamer1.0-tools gstreamer1.0-gl gstreamer1.0-plugins-base
  # the peers benchmarks compare against: a tracer, and a remote renderer
  # (virglrenderer's vtest server, bench/remote_speed.py)
  apitrace virgl-server
  # strata view's reports opened in a real browser (tests/view): headless
  # Chromium driven through chromedriver from Debian's python3
  chromium chromium-driver python3-selenium python3-pil
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: error: not root and no sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
