#!/bin/bash
# build/bin/mpirun --mca translator ompi|mpich: the job is handed to the runtime's own launcher and its
# ranks, served by that runtime through the translator, report the right size.
# Usage: delegation_cases.sh <case> <mpirun> <hello_world> <component dir>
set -u
case_name=$1 mpirun=$2 hello=$3 compdir=$4
tmp=$(mktemp -d /tmp/tessera-delegation-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$case_name]: $*"; exit 1; }
skip() { echo "SKIP [$case_name]: $*"; exit 77; }
timeout_cmd=$(command -v timeout) # resolved before a case empties PATH
run() { "$timeout_cmd" 100 "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }
both() { cat "$tmp/out" "$tmp/err"; }
need_component() { [ -e "$compdir/mca_translator_$1.so" ] || skip "translator $1 is not built (no $compdir/mca_translator_$1.so)"; }
unset OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK PMI_FD PMI_PORT TESSERA_MCA_translator

case $case_name in
ompi_hello)
  need_component ompi
  command -v mpirun.openmpi >/dev/null || skip "mpirun.openmpi not installed"
  run "$mpirun" -np 2 --mca translator ompi "$hello" 2
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(both)"
  for r in 0 1; do
    grep -q "Hello from rank $r of 2" "$tmp/out" || fail "rank $r did not report size 2: $(both)"
  done
  echo "2 ranks over Open MPI report size 2" ;;
mpich_hello)
  need_component mpich
  command -v mpiexec.hydra >/dev/null || command -v mpirun.mpich >/dev/null || skip "hydra not installed"
  run "$mpirun" -np 2 --mca translator mpich "$hello" 2
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(both)"
  for r in 0 1; do
    grep -q "Hello from rank $r of 2" "$tmp/out" || fail "rank $r did not report size 2: $(both)"
  done
  echo "2 ranks over MPICH report size 2" ;;
no_launcher)
  need_component ompi
  PATH=/nonexistent run "$mpirun" -np 2 --mca translator ompi "$hello" 2
  [ "$(rc)" = 1 ] || fail "exit $(rc) without a launcher in PATH: $(both)"
  grep -q "mpirun.openmpi" "$tmp/err" || fail "the message does not name the launcher: $(both)"
  echo "no launcher: refused naming mpirun.openmpi" ;;
*) fail "unknown case" ;;
esac
