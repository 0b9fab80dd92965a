#!/usr/bin/env bash
# Runs part of MPICH's own test suite (test/mpi of Debian's mpich source package) against a Tessera
# build: the directories of the MPI functions Tessera implements (attributes, collectives,
# communicators, datatypes, error handlers, groups, info, initialization, point-to-point, topologies,
# one-sided communication, MPI-IO, the tool interface mpi_t) and their erroneous-argument tests under
# errors/, with --enable-strictmpi (no MPICH extensions). Prints a table per directory and the failures; exits 1 when
# a test fails that expected-failures.txt does not list (with the reason it fails), 0 otherwise.
#
# usage: tools/mpich-tests/run.sh [--dirs "DIR..."] [--translator NAME] [BUILD_DIR [WORK_DIR]]
#        (defaults: the directories below, build, /tmp/tessera-mpich-tests)
#   --dirs        run only these directories of test/mpi, e.g. --dirs "threads/pt2pt threads/comm"
#                 (the threads/ ones are not in the default set: they need MPI_THREAD_MULTIPLE)
#   --translator  hand the jobs to a runtime translator (mpiexec --mca translator NAME: ompi, mpich), to
#                 tell a test that cannot pass from a defect of the native engine
#
# The test suite is configured with --enable-threads=multiple, so that threads/ builds (MPICH's own
# tests of MPI_THREAD_MULTIPLE: pt2pt, comm, coll, init, perf; threads/spawn is left out: Tessera has no
# dynamic processes).
#
# The source comes from `apt-get source mpich`: this needs a deb-src line, which the script adds (as
# /etc/apt/sources.list.d/tessera-deb-src.sources, the same mirror as the system's) when apt has none.
# Not part of CI: it downloads 22 MB and runs for 10-15 minutes on 2 cores.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dirs="attr coll comm datatype errhan group info init mpi_t pt2pt topo rma io
      errors/attr errors/coll errors/comm errors/datatype errors/group errors/pt2pt errors/topo errors/io"
translator=
while [ $# -gt 0 ]; do
  case "$1" in
    --dirs) dirs="$2"; shift 2 ;;
    --translator) translator="$2"; shift 2 ;;
    --*) echo "mpich-tests: unknown option '$1' (known: --dirs, --translator)" >&2; exit 2 ;;
    *) break ;;
  esac
done
build="$(cd "${1:-build}" && pwd)"
work="${2:-/tmp/tessera-mpich-tests}"
mkdir -p "$work"

# 1. The source.
src="$(ls -d "$work"/mpich-*/test/mpi 2>/dev/null | head -1 || true)"
if [ -z "$src" ]; then
  if ! apt-get source --download-only --print-uris mpich > /dev/null 2>&1; then
    echo "mpich-tests: adding a deb-src source for apt (/etc/apt/sources.list.d/tessera-deb-src.sources)"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$(. /etc/os-release && echo "$VERSION_CODENAME")" > /etc/apt/sources.list.d/tessera-deb-src.sources
    apt-get update -qq
  fi
  (cd "$work" && apt-get source --download-only mpich > /dev/null 2>&1)
  for tarball in "$work"/mpich_*.orig.tar.*; do
    tar -xf "$tarball" -C "$work" --wildcards 'mpich-*/test/mpi'
  done
  src="$(ls -d "$work"/mpich-*/test/mpi 2>/dev/null | head -1 || true)"
  [ -n "$src" ] || { echo "mpich-tests: no test/mpi in the mpich source package" >&2; exit 1; }
fi

# 2. Configure against Tessera's compiler wrapper; mpiexec over-subscribes (tests use up to 10 ranks).
launcher="$work/mpiexec"
# (Open MPI's launcher refuses root without the two variables; they mean nothing to the others.)
printf '#!/bin/sh\nOMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 exec "%s/bin/mpiexec" --oversubscribe %s "$@"\n' \
  "$build" "${translator:+--mca translator $translator}" > "$launcher"
chmod +x "$launcher"
cd "$src"
options="--enable-strictmpi --enable-threads=multiple --disable-fortran --disable-cxx
         --disable-spawn --disable-ft-tests --disable-perftest"
if [ ! -f Makefile ] || [ "$(cat .tessera-build 2>/dev/null)" != "$build $options" ]; then
  # shellcheck disable=SC2086
  ./configure MPICC="$build/bin/mpicc" CC="$build/bin/mpicc" MPIEXEC="$launcher" $options \
    > "$work/configure.log" 2>&1
  echo "$build $options" > .tessera-build
fi
make -C util -j2 > "$work/make-util.log" 2>&1

# 3. Build and run each directory; runtests reports every program that failed to build or to run.
export MPITEST_TIMEOUT=60
printf '\n| directory | tests | passed | failed |\n|---|---|---|---|\n'
: > "$work/failures.txt"
total=0 passed=0
for d in $dirs; do
  log="${d//\//_}"
  make -k -C "$d" -j2 > "$work/make-$log.log" 2>&1 || true
  (cd "$d" && "$src/runtests" -srcdir=. -tests=testlist -mpiexec="$launcher" -xmlfile=summary.xml \
    > "$work/run-$log.log" 2>&1 || true)
  # "name np status" per test run
  results=$(python3 -c 'import sys, xml.etree.ElementTree as E
for t in E.parse(sys.argv[1]).getroot().iter("MPITEST"):
    print(t.findtext("NAME"), t.findtext("NP") or "-", t.findtext("STATUS"))' "$d/summary.xml" 2>/dev/null || true)
  n=$(printf '%s' "$results" | grep -c . || true)
  bad=$(printf '%s\n' "$results" | grep -c " fail$" || true)
  printf '%s\n' "$results" | awk -v d="$d" '$3 == "fail" {print d "/" $1, $2}' >> "$work/failures.txt"
  printf '| %s | %d | %d | %d |\n' "$d" "$n" "$((n - bad))" "$bad"
  total=$((total + n)); passed=$((passed + n - bad))
done
printf '| all | %d | %d | %d |\n\n' "$total" "$passed" "$((total - passed))"

# 4. Failures against the expected list ("dir/test reason..." lines; the process count does not matter).
unexpected=0
while read -r name np; do
  if reason=$(grep -E "^$name " "$here/expected-failures.txt"); then
    echo "expected: $name ($np ranks): ${reason#"$name "}"
  else
    dir="${name%/*}"
    echo "UNEXPECTED: $name ($np ranks): see $work/run-${dir//\//_}.log"
    unexpected=$((unexpected + 1))
  fi
done < "$work/failures.txt"
echo "mpich-tests: $passed of $total passed; $unexpected unexpected failure(s)"
[ "$unexpected" = 0 ]
