#!/usr/bin/env bash
# Builds Strata's Debian package, strata_VERSION_ARCH.deb, in ./build-package
# (or $STRATA_PACKAGE_BUILD_DIR): installs what the build needs
# (scripts/setup.sh), configures a build of its own for the prefix /usr with
# tests, benchmarks, sample apps and fuzzing off, builds it and runs CPack's
# DEB generator (its settings: packaging/CMakeLists.txt). The package holds
# `strata`, the loader libraries, the layers, the remote driver, the layer
# header with its pkg-config file and CMake package, man pages, bash
# completion and the docs. Prints the package's path last.
#   bash scripts/package.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_PACKAGE_BUILD_DIR:-$root/build-package}

fail() { echo "package: error: $*" >&2; exit 1; }

bash "$root/scripts/setup.sh"
mkdir -p "$build"
# The glvnd vendor files of the remote driver and the loader go to
# /usr/share/strata, not to /usr/share/glvnd/egl_vendor.d, where every EGL
# program would load them: users name them in __EGL_VENDOR_LIBRARY_FILENAMES
# (docs/remote.md, docs/architecture.md) or copy them to /etc/glvnd/egl_vendor.d.
# Debian's hardening for what it installs: fortified libc calls, symbols
# bound at load and read-only relocations.
hardened="-Wl,-z,relro,-z,now"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_CXX_FLAGS="-D_FORTIFY_SOURCE=2" -DCMAKE_C_FLAGS="-D_FORTIFY_SOURCE=2" \
  -DCMAKE_EXE_LINKER_FLAGS="$hardened" -DCMAKE_SHARED_LINKER_FLAGS="$hardened" -DCMAKE_MODULE_LINKER_FLAGS="$hardened" \
  -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCH=OFF -DSTRATA_BUILD_EXAMPLES=OFF \
  -DSTRATA_SANITIZE=OFF -DSTRATA_FUZZ=OFF -DSTRATA_COMMAND_DOCS=ON \
  -DSTRATA_GLVND_VENDOR_DIR=share/strata/glvnd/egl_vendor.d >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; fail "configuring $build failed (log above)"; }
cmake --build "$build" -j "${STRATA_JOBS:-2}" || fail "building $build failed"
rm -f "$build"/strata_*.deb
(cd "$build" && cpack -G DEB >cpack.log 2>&1) || { cat "$build/cpack.log" >&2; fail "cpack -G DEB failed in $build (log above)"; }
debs=("$build"/strata_*.deb)
[[ -f "${debs[0]}" ]] || fail "cpack made no strata_*.deb in $build (log: $build/cpack.log)"
dpkg-deb --field "${debs[0]}" Package Version Architecture Installed-Size Depends Recommends
echo "package: $(dpkg-deb --contents "${debs[0]}" | grep -vc '/$') files"
echo "${debs[0]}"
