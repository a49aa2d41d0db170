#!/usr/bin/env bash
# Builds the example layers of examples/layers against the Strata installed at
# PREFIX, as a layer author would: with pkg-config (examples/layers/Makefile)
# and with CMake's find_package(Strata) (examples/layers/CMakeLists.txt), each
# in a directory of its own under WORK_DIR. Checks that each build used
# PREFIX's files and that every layer exports the two entry points of the
# layer ABI. Exits non-zero, naming the step, when anything fails.
#   build_example_layers.sh PREFIX WORK_DIR
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 PREFIX WORK_DIR" >&2
  exit 2
fi
prefix=$1 work=$2
layers_src=$(cd "$(dirname "$0")/../../examples/layers" && pwd)
layers=(passive_layer active_layer)
entry_points=(AndroidGLESLayer_Initialize AndroidGLESLayer_GetProcAddress)

fail() { echo "build_example_layers: error: $*" >&2; exit 1; }

check_exports() {  # DIR HOW
  local layer so symbols
  for layer in "${layers[@]}"; do
    so=$1/lib$layer.so
    [[ -f "$so" ]] || fail "$2: $so was not built"
    symbols=$(nm -D --defined-only "$so") || fail "$2: nm -D cannot read $so"
    for entry in "${entry_points[@]}"; do
      grep -qE " T $entry\$" <<<"$symbols" || fail "$2: $so does not export $entry"
    done
  done
  echo "build_example_layers: $2: ${layers[*]} built, entry points exported"
}

# pkg-config: the Makefile of examples/layers, copied next to the sources.
pc_dir=$work/pkg-config
rm -rf "$pc_dir" && mkdir -p "$pc_dir"
cp "$layers_src"/Makefile "$layers_src"/*.cpp "$pc_dir"/
export PKG_CONFIG_PATH=$prefix/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
found=$(pkg-config --variable=prefix strata 2>&1) || fail "pkg-config finds no strata in $prefix/share/pkgconfig: $found"
[[ "$found" == "$prefix" ]] || fail "strata.pc says its prefix is '$found', not '$prefix'"
cflags=$(pkg-config --cflags strata) || fail "pkg-config --cflags strata failed"
# A system prefix's include directory is one pkg-config leaves out.
if [[ "$prefix" != /usr ]]; then
  [[ " $cflags " == *" -I$prefix/include "* ]] || fail "pkg-config --cflags strata gives '$cflags', not -I$prefix/include"
fi
make -C "$pc_dir" >"$pc_dir/build.log" 2>&1 || { cat "$pc_dir/build.log" >&2; fail "make with pkg-config failed (log above)"; }
check_exports "$pc_dir" "pkg-config"

# CMake: examples/layers/CMakeLists.txt, built out of the source tree.
cm_dir=$work/cmake
rm -rf "$cm_dir"
cmake -S "$layers_src" -B "$cm_dir" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  >"$work/cmake-configure.log" 2>&1 || { cat "$work/cmake-configure.log" >&2; fail "cmake could not configure examples/layers against $prefix (log above)"; }
strata_dir=$(sed -n 's/^Strata_DIR:PATH=//p' "$cm_dir/CMakeCache.txt")
[[ "$strata_dir" == "$prefix/share/cmake/Strata" ]] || fail "find_package(Strata) found '$strata_dir', not $prefix/share/cmake/Strata"
cmake --build "$cm_dir" >"$work/cmake-build.log" 2>&1 || { cat "$work/cmake-build.log" >&2; fail "building examples/layers with CMake failed (log above)"; }
check_exports "$cm_dir" "find_package(Strata)"
