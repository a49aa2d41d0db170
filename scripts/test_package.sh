#!/usr/bin/env bash
# Installs the Debian package that scripts/package.sh built (or DEB) on this
# machine with dpkg and checks the installed Strata from /usr:
# - the package's files are where they belong, all under /usr;
# - /usr/bin/strata finds its libraries and built-in layers under /usr;
# - `strata run es2_info` (in an Xvfb display) goes through Strata's loader
#   and a built-in layer to the system's driver;
# - `strata trace` of es2_info writes a trace `strata stats` and `strata dump` read;
# - the example layers build against /usr with pkg-config and
#   find_package(Strata) (tests/packaging/build_example_layers.sh) and load;
# - man pages and bash completion are installed;
# - lintian finds no error and no warning in it;
# then purges the package and checks that none of its files or directories
# are left. The package is purged however the checks end. Needs root or sudo.
#   bash scripts/test_package.sh [DEB]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_PACKAGE_BUILD_DIR:-$root/build-package}

fail() { echo "test_package: error: $*" >&2; exit 1; }
step() { echo "test_package: $*"; }

deb=${1:-}
if [[ -z "$deb" ]]; then
  debs=("$build"/strata_*.deb)
  deb=${debs[0]}
fi
[[ -f "$deb" ]] || fail "no package at '$deb': run bash scripts/package.sh first"
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
name=$(dpkg-deb --field "$deb" Package) || fail "$deb is not a Debian package"
version=$(dpkg-deb --field "$deb" Version)
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || fail "installing a package needs root, or sudo"
  sudo=(sudo)
fi
if state=$(dpkg-query --show --showformat='${db:Status-Status}' "$name" 2>/dev/null) && [[ "$state" != not-installed ]]; then
  fail "$name is already on this machine ($state): remove it first (dpkg --purge $name), so this test leaves the machine as it found it"
fi
for tool in xvfb-run es2_info lintian; do
  command -v "$tool" >/dev/null || fail "$tool not found: run bash scripts/setup.sh"
done
multiarch=$(dpkg-architecture --query DEB_HOST_MULTIARCH)
lib_dir=/usr/lib/$multiarch/strata

work=$(mktemp -d)
installed=0
cleanup() {
  local rc=$?
  if [[ $installed == 1 ]]; then
    echo "test_package: purging $name (a check failed or the run was stopped)" >&2
    "${sudo[@]}" dpkg --purge "$name" >/dev/null || { echo "test_package: error: dpkg --purge $name failed: remove it by hand" >&2; rc=1; }
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Debian's own checks of a package: no errors, no warnings (lintian does not
# want to run as root, and says so; it runs all the same).
lintian --fail-on error,warning "$deb" >"$work/lintian.log" 2>&1 ||
  { cat "$work/lintian.log" >&2; fail "lintian finds errors or warnings in $deb (above)"; }
step "lintian: no errors, no warnings"

# What the package holds, and which of those paths exist before it is installed.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/\?$' >"$work/contents"
grep -qv '^/usr\(/\|$\)' "$work/contents" && fail "the package has files outside /usr: $(grep -v '^/usr\(/\|$\)' "$work/contents" | head -3 | tr '\n' ' ')"
: >"$work/existed"
while read -r path; do
  if [[ -e "$path" || -L "$path" ]]; then
    [[ -d "$path" && ! -L "$path" ]] || fail "$path, which the package installs, is already on this machine"
    echo "$path" >>"$work/existed"
  fi
done <"$work/contents"

step "installing $deb"
installed=1
"${sudo[@]}" dpkg --install "$deb" >"$work/dpkg.log" 2>&1 ||
  { cat "$work/dpkg.log" >&2; fail "dpkg --install $deb failed (log above; missing dependencies? run bash scripts/setup.sh)"; }

commands=$(/usr/bin/strata --help | sed -n '/^commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p')
[[ -n "$commands" ]] || fail "/usr/bin/strata --help lists no commands"
expected=(/usr/bin/strata /usr/include/strata/gles_layer.h /usr/share/pkgconfig/strata.pc
  /usr/share/cmake/Strata/StrataConfig.cmake /usr/share/cmake/Strata/StrataConfigVersion.cmake
  /usr/share/cmake/Strata/StrataTargets.cmake /usr/share/bash-completion/completions/strata
  /usr/share/doc/strata/README.md /usr/share/doc/strata/LICENSE /usr/share/doc/strata/docs/writing-layers.md
  /usr/share/strata/glvnd/egl_vendor.d/10_strata_remote.json /usr/share/strata/glvnd/egl_vendor.d/05_strata_loader.json
  "$lib_dir/glvnd_loader_vendor.json" /usr/share/man/man1/strata.1.gz
  /usr/share/doc/strata/copyright /usr/share/doc/strata/changelog.gz)
for library in libEGL.so.1 libGLESv2.so.2 libGLESv1_CM.so.1 libGL.so.1 libstrata_loader.so libstrata_remote.so \
    layers/libstrata_trace.so layers/libstrata_call_counter.so layers/libstrata_error_check.so; do
  expected+=("$lib_dir/$library")
done
for command in $commands; do expected+=("/usr/share/man/man1/strata-$command.1.gz"); done
dpkg --listfiles "$name" >"$work/listed"
for path in "${expected[@]}"; do
  grep -qxF "$path" "$work/listed" || fail "the package does not install $path"
  [[ -e "$path" ]] || fail "$path is not on this machine after dpkg --install"
done
grep -qF "\"$lib_dir/libstrata_remote.so\"" /usr/share/strata/glvnd/egl_vendor.d/10_strata_remote.json ||
  fail "the remote driver's glvnd vendor JSON does not name $lib_dir/libstrata_remote.so"
for json in /usr/share/strata/glvnd/egl_vendor.d/05_strata_loader.json "$lib_dir/glvnd_loader_vendor.json"; do
  grep -qF "\"$lib_dir/libstrata_loader.so\"" "$json" || fail "$json does not name $lib_dir/libstrata_loader.so"
done
/usr/bin/strata --version | grep -qx "strata $version" || fail "/usr/bin/strata --version does not say $version"
step "files in place (${#expected[@]} checked)"

# /usr/bin/strata finds its libraries next to it, in /usr/lib/MULTIARCH/strata.
info=$(/usr/bin/strata info --json) || fail "/usr/bin/strata info failed"
used=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["library_directory"])' <<<"$info") ||
  fail "strata info --json gave no library_directory"
[[ "$used" == "$lib_dir" ]] || fail "/usr/bin/strata uses the libraries in '$used', not $lib_dir"
step "strata info: libraries in $lib_dir"

x11() { xvfb-run --auto-servernum --server-args="-screen 0 1280x1024x24" "$@"; }
log=$work/run.log
x11 /usr/bin/strata run --log info --layers libstrata_call_counter.so -- es2_info >"$log" 2>&1 ||
  { cat "$log" >&2; fail "strata run es2_info failed (log above)"; }
# Layer 1 is the switched-off trace layer every `strata run` puts in front (unless --no-attach).
for expect in "layer 1: $lib_dir/layers/libstrata_trace.so (from Strata's layer directory)" \
    "layer 2: $lib_dir/layers/libstrata_call_counter.so (from Strata's layer directory)" \
    "loader ready in process" "GL_RENDERER:" "glGetString"; do
  grep -qF "$expect" "$log" || { cat "$log" >&2; fail "strata run es2_info: no '$expect' in its output (above)"; }
done
step "strata run es2_info: $(grep -m1 -F 'GL_RENDERER:' "$log"), through the loader and the call counter"

trace=$work/es2_info.strace
x11 /usr/bin/strata trace -o "$trace" -- es2_info >"$work/trace.log" 2>&1 ||
  { cat "$work/trace.log" >&2; fail "strata trace es2_info failed (log above)"; }
[[ -s "$trace" ]] || fail "strata trace wrote no trace at $trace"
stats=$(/usr/bin/strata stats --json "$trace") || fail "strata stats cannot read the trace"
calls=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["calls"])' <<<"$stats") ||
  fail "strata stats --json gave no call count"
[[ "$calls" -gt 0 ]] || fail "the trace of es2_info holds no calls"
/usr/bin/strata dump --grep glGetString "$trace" | grep -qF "glGetString(name=GL_RENDERER)" ||
  fail "strata dump shows no glGetString(name=GL_RENDERER) in the trace of es2_info"
step "strata trace es2_info: $calls calls, read back by strata stats and strata dump"

# Through glvnd, as docs/architecture.md tells a user to: no LD_LIBRARY_PATH, the loader's vendor file first.
mesa_vendor=/usr/share/glvnd/egl_vendor.d/50_mesa.json
__EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/strata/glvnd/egl_vendor.d/05_strata_loader.json:$mesa_vendor \
  STRATA_LOG=info STRATA_LAYERS=libstrata_call_counter.so x11 es2_info >"$log" 2>&1 ||
  { cat "$log" >&2; fail "es2_info through glvnd with Strata's loader vendor failed (log above)"; }
for expect in "(through glvnd)" "layer 1: $lib_dir/layers/libstrata_call_counter.so" "GL_RENDERER:"; do
  grep -qF "$expect" "$log" || { cat "$log" >&2; fail "es2_info through glvnd: no '$expect' in its output (above)"; }
done
step "es2_info through glvnd: the installed loader vendor and the call counter"

bash "$root/tests/packaging/build_example_layers.sh" /usr "$work/layers" || fail "the example layers do not build against /usr"
x11 /usr/bin/strata run --log info --layer-path "$work/layers/pkg-config" --layers libpassive_layer.so -- es2_info \
  >"$log" 2>&1 || { cat "$log" >&2; fail "strata run es2_info with the example layer failed (log above)"; }
grep -qF "layer 2: $work/layers/pkg-config/libpassive_layer.so" "$log" ||
  { cat "$log" >&2; fail "the example layer built against /usr did not load (log above)"; }
step "the example layers built against /usr load"

if command -v man >/dev/null; then
  [[ "$(man -w strata-trace)" == /usr/share/man/man1/strata-trace.1* ]] || fail "man does not find strata-trace(1)"
fi
offered=$(bash -c 'source /usr/share/bash-completion/completions/strata; COMP_WORDS=(strata tra); COMP_CWORD=1; _strata
  printf "%s\n" "${COMPREPLY[@]}"')
[[ "$offered" == trace ]] || fail "the installed completion completes 'strata tra' to '$offered', not trace"
step "man pages and completion for: $(tr '\n' ' ' <<<"$commands")"

"${sudo[@]}" dpkg --purge "$name" >"$work/dpkg.log" 2>&1 ||
  { cat "$work/dpkg.log" >&2; fail "dpkg --purge $name failed (log above)"; }
installed=0
left=()
while read -r path; do
  if [[ -e "$path" || -L "$path" ]] && ! grep -qxF "$path" "$work/existed"; then left+=("$path"); fi
done <"$work/contents"
[[ ${#left[@]} -eq 0 ]] || fail "left behind after dpkg --purge $name: ${left[*]}"
step "purged: none of its $(wc -l <"$work/contents") paths left"
step "passed"
