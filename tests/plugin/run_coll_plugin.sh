#!/usr/bin/env bash
# usage: run_coll_plugin.sh <tessera build dir> <plugin build dir> <pass regex> <needed> <np> <program> [args...]
# Runs one of tests/mpi's collective programs with the out-of-tree coll component (built by the
# plugin_sdk test) selected above every other, and checks that the program passed and that on every
# rank the component's own functions listed in <needed> (comma-separated: barrier, bcast, ibarrier,
# ibcast — those the program calls) ran.
set -euo pipefail
build=$1 plugin=$2 pass=$3 needed=$4 np=$5 prog=$6
shift 6
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$plugin/mca_coll_example.so" ] || fail "the plugin_sdk test did not build $plugin/mca_coll_example.so"

counts=$(mktemp -d "${TMPDIR:-/tmp}/coll-example.XXXXXX")
trap 'rm -rf "$counts"' EXIT
out=$("$build/bin/mpirun" -np "$np" --oversubscribe --timeout 120 \
      --mca mca_component_path "$build/lib/tessera:$plugin" --mca coll_example_priority 100 \
      --mca coll_example_counts_file "$counts/calls" --mca coll_base_verbose 1 \
      "$build/tests/mpi/$prog" "$@" 2>&1) || fail "$prog failed: $out"
grep -Eq "$pass" <<<"$out" || fail "$prog did not pass: $out"
# coll_base_verbose 1: what MPI_COMM_WORLD's table took from the example component.
grep -Eq 'MPI_COMM_WORLD: 4 collectives from example' <<<"$out" \
  || fail "MPI_COMM_WORLD did not take barrier, bcast, ibarrier and ibcast from the example component: $out"
for ((r = 0; r < np; ++r)); do
  [ -f "$counts/calls.$r" ] || fail "rank $r: the example component wrote no counts"
  for f in ${needed//,/ }; do
    n=$(awk -v f="$f" '$1 == f { print $2 }' "$counts/calls.$r")
    [ "${n:-0}" -gt 0 ] || fail "rank $r: the example component's $f never ran: $(tr '\n' ' ' <"$counts/calls.$r")"
  done
  echo "rank $r: $(tr '\n' ' ' <"$counts/calls.$r")"
done
grep -E "$pass" <<<"$out" | head -1
