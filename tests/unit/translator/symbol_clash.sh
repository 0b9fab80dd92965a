#!/bin/bash
# Names our libraries export that the runtime's own objects also define. Our libmpi is in the process's
# global scope and the runtime's library is loaded RTLD_LOCAL, so every reference the runtime (or a
# plugin it dlopens) makes to such a name binds to OUR definition: Open MPI's bml calling our
# mca_btl_base_select, its btl framework reading our mca_btl_self_component. Only the MPI API itself
# may be shared (MPI_x/PMPI_x: the runtime calling them is the re-entrancy the bindings handle).
# Usage: symbol_clash.sh <ompi|mpich> <our lib dir>; exit 77 when the runtime is not installed.
set -u
rt=$1 libdir=$2
lib=/usr/lib/x86_64-linux-gnu
case $rt in
ompi) files="$lib/libmpi.so.40 $lib/libopen-rte.so.40 $lib/libopen-pal.so.40 $(ls $lib/openmpi/lib/openmpi3/*.so $lib/openmpi/lib/pmix/*.so 2>/dev/null)" ;;
mpich) files="$lib/libmpich.so.12" ;;
*) echo "unknown runtime $rt"; exit 2 ;;
esac
for f in $files; do [ -e "$f" ] || { echo "SKIP: $f not installed"; exit 77; }; done
exports() { for f in "$@"; do nm -D --defined-only "$f" 2>/dev/null | awk '{print $3}'; done | sed 's/@.*//' | sort -u; }
ours=$(exports "$libdir"/libmpi.so "$libdir"/libtessera-*.so)
theirs=$(exports $files)
clash=$(comm -12 <(echo "$ours") <(echo "$theirs") | grep -Ev '^(P?MPIX?_|_init$|_fini$)')
if [ -n "$clash" ]; then
  echo "FAIL: our libraries export names the $rt runtime defines (its references would bind to ours):"
  echo "$clash" | sed 's/^/  /'
  exit 1
fi
echo "ok: no name shared with $rt besides the MPI API"
