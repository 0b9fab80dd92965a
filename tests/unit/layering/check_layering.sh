#!/usr/bin/env bash
# usage: check_layering.sh libtessera-opal.so libtessera-orte.so libmpi.so
# Fails when a layer needs, or references a symbol defined by, a layer above it.
set -u
opal=$1 orte=$2 ompi=$3
fail=0

defined() { nm -D --defined-only "$1" | awk '{print $3}' | sort -u; }
undefined() { nm -D --undefined-only "$1" | awk '{print $2}' | sort -u; }
needed() { readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'; }

check() { # lower, upper...
  local lower=$1; shift
  for upper in "$@"; do
    local up_name; up_name=$(basename "$upper" | sed 's/\.so.*//')
    if needed "$lower" | grep -q "^${up_name}\.so"; then
      echo "LAYERING: $(basename "$lower") links to the higher layer $(basename "$upper")"; fail=1
    fi
    local bad; bad=$(comm -12 <(undefined "$lower") <(defined "$upper"))
    if [ -n "$bad" ]; then
      echo "LAYERING: $(basename "$lower") references symbols of $(basename "$upper"):"; echo "$bad" | head -20; fail=1
    fi
  done
}

check "$opal" "$orte" "$ompi"
check "$orte" "$ompi"
# The undefined symbols of each layer must all come from below it or the system.
for lib in "$opal" "$orte" "$ompi"; do
  if ! ldd -r "$lib" 2>&1 | grep -q 'undefined symbol' ; then :; else
    echo "LAYERING: $(basename "$lib") has unresolved symbols:"; ldd -r "$lib" 2>&1 | grep 'undefined symbol' | head; fail=1
  fi
done
[ $fail -eq 0 ] && echo "layering ok: opal <- orte <- mpi, no upward references"
exit $fail
