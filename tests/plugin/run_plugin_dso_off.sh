#!/usr/bin/env bash
# usage: run_plugin_dso_off.sh <tessera source dir> <tests/plugin source dir> <scratch dir> [compiler launcher]
# Builds Tessera with TESSERA_DSO=OFF, then runs the out-of-tree plugin test on that build: its install
# must be a package find_package(Tessera) accepts, and third-party DSOs must still load into it.
set -euo pipefail
src=$1 here=$2 work=$3 launcher=${4:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work"
build=$work/build
args=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DTESSERA_DSO=OFF -DTESSERA_BUILD_TESTS=OFF
      -DTESSERA_WITH_LLVM=OFF -DTESSERA_WITH_OTF2=OFF)
if [ -n "$launcher" ]; then
  args+=(-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
fi
# The build tree is kept between runs: only what changed is rebuilt.
cmake -S "$src" -B "$build" "${args[@]}" >"$work/configure.log" 2>&1 || fail "configure: $(tail -20 "$work/configure.log")"
start=$SECONDS
nice -n 15 cmake --build "$build" -j2 >"$work/build.log" 2>&1 || fail "build: $(tail -30 "$work/build.log")"
echo "TESSERA_DSO=OFF build: $((SECONDS - start)) s"
grep -q '^TESSERA_DSO:BOOL=OFF$' "$build/CMakeCache.txt" || fail "the scratch build is not TESSERA_DSO=OFF"

# No built-in component is a DSO here; the SDK must not need one.
info=$("$build/bin/tessera_info" --parsable)
grep -q '^mca:btl:shm:origin:static' <<<"$info" || fail "btl shm is not linked in: $(grep '^mca:btl' <<<"$info")"
bash "$here/run_plugin_test.sh" "$build" "$here/example" "$work/plugin"

# What the consumer was told: a DSO=OFF package, its component directory present and empty.
prefix=$work/plugin/prefix
grep -q '^set(Tessera_DSO OFF)$' "$prefix/lib/cmake/Tessera/TesseraConfig.cmake" \
  || fail "the installed TesseraConfig.cmake does not say Tessera_DSO OFF"
[ -z "$(ls -A "$prefix/lib/tessera")" ] || fail "a TESSERA_DSO=OFF install has DSOs in lib/tessera: $(ls "$prefix/lib/tessera")"
echo "TESSERA_DSO=OFF package: Tessera_DSO OFF, lib/tessera empty, out-of-tree plugins built and loaded"
