#!/usr/bin/env bash
# usage: run_plugin_test.sh <tessera build dir> <plugin source dir> <scratch dir>
# Installs Tessera into a scratch prefix, builds the example component against that SDK only, and
# checks that the installed tessera_info finds it, selects it, and refuses a build of it made for
# another Tessera build.
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null

for p in bin/tessera_info lib/libmpi.so lib/libtessera-opal.so lib/libtessera-orte.so lib/tessera \
         include/tessera/mca/component.h include/tessera/tessera_build_id.h \
         include/tessera/frameworks/trace/trace.h etc/tessera-mca-params.conf \
         lib/cmake/Tessera/TesseraConfig.cmake; do
  [ -e "$prefix/$p" ] || fail "install tree lacks $p"
done
echo "install tree has bin/ lib/ lib/tessera/ include/ etc/ lib/cmake/Tessera/"

# The plugin sees only the installed SDK: no path into the source or build tree.
cmake -S "$src" -B "$work/plugin" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/plugin" >/dev/null
cmake -S "$src" -B "$work/foreign" -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLE_FOREIGN_BUILD_ID=ON >/dev/null
cmake --build "$work/foreign" >/dev/null
[ -f "$work/plugin/mca_trace_example.so" ] || fail "plugin not built"

info=$prefix/bin/tessera_info
path="$prefix/lib/tessera:$work/plugin"

out=$("$info" --mca mca_component_path "$path" --parsable)
grep -q "^mca:trace:example:origin:dso:$work/plugin/mca_trace_example.so$" <<<"$out" \
  || fail "tessera_info does not list the plugin: $(grep '^mca:trace' <<<"$out")"
echo "listed: $(grep '^mca:trace:example:origin' <<<"$out")"

out=$("$info" --mca mca_component_path "$path" --param trace example --level 9 --parsable)
grep -q '^mca:trace:example:param:trace_example_counts_file:source:default$' <<<"$out" \
  || fail "plugin parameter not shown: $out"

out=$("$info" --mca mca_component_path "$path" --mca trace example --select trace --parsable)
grep -q '^selected:trace:example:priority:' <<<"$out" || fail "selecting the plugin failed: $out"
echo "selected: $(grep '^selected:trace' <<<"$out" | tr '\n' ' ')"

out=$("$info" --mca mca_component_path "$path" --mca trace '^example' --select trace --parsable)
grep -q '^selected:trace:example:' <<<"$out" && fail "excluded plugin was selected"

# Built against another build identifier: refused with a reason naming both, and the process goes on.
set +e
out=$("$info" --mca mca_component_path "$prefix/lib/tessera:$work/foreign" \
      --mca mca_component_show_load_errors none --show-failed --parsable 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || fail "a refused plugin made tessera_info fail ($rc): $out"
reason=$(grep '^failed:trace:example:reason:' <<<"$out") || fail "foreign plugin not refused: $out"
grep -qi 'build' <<<"$reason" || fail "refusal does not name the build identifier: $reason"
echo "refused: $reason"
echo "plugin SDK test passed"
