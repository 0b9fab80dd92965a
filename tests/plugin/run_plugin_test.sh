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

# Every installed SDK header is plain C on its own: components may be written in C against any framework.
cc=${CC:-cc}
n=0
while IFS= read -r h; do
  rel=${h#"$prefix/include/tessera/"}
  printf '#include "%s"\n' "$rel" | "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c \
    -I"$prefix/include/tessera" -I"$prefix/include" - || fail "$rel does not compile as C on its own"
  n=$((n + 1))
done < <(find "$prefix/include/tessera" -name '*.h' | sort)
for h in frameworks/btl/btl.h frameworks/coll/coll.h frameworks/coll/coll_services.h frameworks/dte/dte.h \
         frameworks/trace/trace.h mca/report.h ompi/proc/modex.h; do
  [ -f "$prefix/include/tessera/$h" ] || fail "install tree lacks include/tessera/$h"
done
echo "$n installed SDK headers compile as C11 on their own"

# The plugin sees only the installed SDK: no path into the source or build tree.
cmake -S "$src" -B "$work/plugin" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/plugin" >/dev/null
cmake -S "$src" -B "$work/foreign" -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLE_FOREIGN_BUILD_ID=ON >/dev/null
cmake --build "$work/foreign" >/dev/null
for f in mca_trace_example.so mca_btl_usock.so mca_coll_example.so pingpong; do
  [ -f "$work/plugin/$f" ] || fail "plugin build lacks $f"
done

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
# The out-of-tree transport alone (with self): every byte between the two ranks went through it.
mpirun=$prefix/bin/mpirun
run() { "$mpirun" -np 2 --oversubscribe --timeout 120 --mca mca_component_path "$path" "$@" "$work/plugin/pingpong"; }
counted() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
out=$(run --mca btl self,usock --mca btl_usock_counts_file "$work/alone" 2>&1) || fail "ping-pong over usock: $out"
grep -q 'all bytes arrived intact' <<<"$out" || fail "ping-pong over usock: $out"
for r in 0 1; do
  sent=$(counted "$work/alone.$r" sent_bytes) || fail "rank $r wrote no usock counts"
  # Each rank sends 20 messages of each ping-pong size (300704 bytes in all) and one 4 MiB message.
  [ "${sent:-0}" -ge $((20 * 300704 + 4194304)) ] || fail "usock carried $sent bytes from rank $r, less than the traffic"
done
echo "usock alone: rank 0 sent $(counted "$work/alone.0" sent_bytes) bytes, rank 1 $(counted "$work/alone.1" sent_bytes)"

# With shm at the same exclusivity: a large message is striped over both, and still arrives intact.
out=$(run --mca btl self,shm,usock --mca btl_usock_exclusivity 1024 --mca btl_usock_counts_file "$work/striped" \
      2>&1) || fail "striped ping-pong: $out"
grep -q 'all bytes arrived intact' <<<"$out" || fail "striped ping-pong: $out"
for r in 0 1; do
  sent=$(counted "$work/striped.$r" sent_bytes) || fail "rank $r wrote no usock counts"
  [ "${sent:-0}" -ge 524288 ] || fail "striping gave usock only ${sent:-0} bytes of rank $r's traffic"
  [ "$sent" -lt $((20 * 300704 + 4194304)) ] || fail "usock carried all of rank $r's traffic: shm took no stripe"
done
echo "usock striped with shm: rank 0 sent $(counted "$work/striped.0" sent_bytes) bytes, rank 1 $(counted "$work/striped.1" sent_bytes)"

# A bad parameter value is refused with the parameter, the value and where it came from.
set +e
out=$(run --mca btl self,usock --mca btl_usock_exclusivity 7 2>&1)
set -e
grep -q 'btl_usock_exclusivity: value 7 from command line' <<<"$out" || fail "bad exclusivity not reported: $out"
echo "plugin SDK test passed"
