#!/usr/bin/env bash
# Direct stores into a shared window (MPI_Win_allocate_shared, osc sm) against memcpy, in the same
# process and interleaved (shared_store.c prints the table). With Open MPI installed the same program
# runs over its osc sm too, after Tessera's, for reference. Prints the load average before and after.
# usage: tools/bench/osc/shared_store.sh [build dir] [rounds] [sizes in KiB...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
rounds=${2:-9}
shift 2 2>/dev/null || shift $#
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build"/bin/mpicc -O2 -o "$tmp"/tessera "$here"/shared_store.c
echo "== Tessera (osc sm)"
"$build"/bin/mpirun -np 2 --bind-to core "$tmp"/tessera "$rounds" "$@"
if command -v mpicc.openmpi > /dev/null; then
  mpicc.openmpi -O2 -o "$tmp"/openmpi "$here"/shared_store.c
  echo "== Open MPI"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np 2 --bind-to core \
    "$tmp"/openmpi "$rounds" "$@"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
