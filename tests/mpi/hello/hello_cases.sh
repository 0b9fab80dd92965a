#!/usr/bin/env bash
# usage: hello_cases.sh <case> <tessera build dir> <dir of the built test programs> <this source dir>
# One behaviour of the MPI skeleton per case, checked the way a user would notice it: exit status,
# what is printed, how long the job took to end. Runs with a private HOME and scratch directory,
# removed on exit.
set -uo pipefail
case=$1 build=$2 progs=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
unset $(env | sed -n 's/^\(TESSERA_[A-Z_]*\)=.*/\1/p' | grep -v '^TESSERA_CC$\|^TESSERA_CXX$') 2>/dev/null || true

mpicc=$build/bin/mpicc
mpicxx=$build/bin/mpicxx
mpirun=$build/bin/mpirun
fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
# run <command...>: stdout, stderr, exit status and seconds taken into $tmp/{out,err,rc,secs}.
run() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$tmp/out" 2>"$tmp/err"
  echo $? >"$tmp/rc"
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.1f\n", $2 - $1}' >"$tmp/secs"
}
rc() { cat "$tmp/rc"; }
secs() { cat "$tmp/secs"; }
both() { cat "$tmp/out" "$tmp/err"; }
# A failing rank ends the job: the waiting ranks (60 s) must be gone long before.
ended_quickly() {
  awk -v s="$(secs)" 'BEGIN { exit !(s < 20) }' || fail "the job took $(secs) s to end: $(both)"
}
expect_hellos() { # <n>: one line per rank 0..n-1, each with size n
  local n=$1 r
  for ((r = 0; r < n; ++r)); do
    grep -q "^Hello from rank $r of $n on " "$tmp/out" || fail "no hello from rank $r of $n: $(both)"
  done
  [ "$(grep -c '^Hello from rank' "$tmp/out")" = "$n" ] || fail "not exactly $n hellos: $(cat "$tmp/out")"
}

case $case in
mpicc_hello)
  # The issue's "done when": hello built with build/bin/mpicc, run with mpirun -np 4 and alone.
  "$mpicc" -Wall -Wextra -Werror -std=c99 "$src/hello.c" -o "$tmp/hello" 2>"$tmp/cc" || fail "mpicc: $(cat "$tmp/cc")"
  run "$mpirun" -np 4 --oversubscribe --timeout 60 "$tmp/hello" 4
  [ "$(rc)" = 0 ] || fail "mpirun -np 4 exited $(rc): $(both)"
  expect_hellos 4
  run "$tmp/hello" 1
  [ "$(rc)" = 0 ] || fail "singleton exited $(rc): $(both)"
  expect_hellos 1
  # mpicxx compiles the same program as C++.
  cp "$src/hello.c" "$tmp/hello.cpp"
  "$mpicxx" -Wall -Wextra -Werror -std=c++17 "$tmp/hello.cpp" -o "$tmp/hello_cxx" 2>"$tmp/cc" \
    || fail "mpicxx: $(cat "$tmp/cc")"
  run "$mpirun" -np 2 --oversubscribe --timeout 60 "$tmp/hello_cxx" 2
  [ "$(rc)" = 0 ] || fail "C++ hello exited $(rc): $(both)"
  expect_hellos 2
  echo "hello built with mpicc and mpicxx ran with -np 4, -np 2 and as a singleton" ;;

showme)
  [ "$("$mpicc" -showme:compile)" = "-I$build/include" ] || fail "-showme:compile: $("$mpicc" -showme:compile)"
  [ -f "$build/include/mpi.h" ] || fail "no mpi.h where -showme:compile points"
  [ "$("$mpicc" -showme:link)" = "-L$build/lib -Wl,-rpath,$build/lib -lmpi" ] \
    || fail "-showme:link: $("$mpicc" -showme:link)"
  [ "$("$mpicc" -showme -O2 a.c -o 'a b')" = "cc -I$build/include -O2 a.c -o a b -L$build/lib -Wl,-rpath,$build/lib -lmpi" ] \
    || fail "-showme: $("$mpicc" -showme -O2 a.c -o 'a b')"
  [ "$("$mpicc" -showme -c a.c)" = "cc -I$build/include -c a.c" ] || fail "-showme -c links: $("$mpicc" -showme -c a.c)"
  [ "$("$mpicxx" -showme -c a.cpp)" = "c++ -I$build/include -c a.cpp" ] || fail "mpicxx -showme: $("$mpicxx" -showme -c a.cpp)"
  [ "$(TESSERA_CC=gcc-custom "$mpicc" -showme -c a.c)" = "gcc-custom -I$build/include -c a.c" ] \
    || fail "TESSERA_CC not honoured"
  [ "$(TESSERA_CXX=g++-custom "$mpicxx" -showme -c a.cpp)" = "g++-custom -I$build/include -c a.cpp" ] \
    || fail "TESSERA_CXX not honoured"
  "$mpicc" -showme:version | grep -q "Tessera MPI" || fail "-showme:version"
  run "$mpicc" -showme:nonsense
  [ "$(rc)" = 2 ] && grep -q "unknown option" "$tmp/err" || fail "unknown -showme: option accepted ($(rc)): $(both)"
  # Called through a symbolic link in another directory, or through PATH, it still finds its prefix.
  mkdir -p "$tmp/links"
  ln -s "$mpicc" "$tmp/links/mpicc"
  [ "$("$tmp/links/mpicc" -showme:compile)" = "-I$build/include" ] || fail "through a symlink: $("$tmp/links/mpicc" -showme:compile)"
  [ "$(PATH=$build/bin:$PATH mpicc -showme:compile)" = "-I$build/include" ] || fail "through PATH"
  # The compiler's own errors and exit status come through.
  echo 'int main(void) { return undeclared; }' >"$tmp/bad.c"
  run "$mpicc" "$tmp/bad.c" -o "$tmp/bad"
  [ "$(rc)" != 0 ] && grep -q undeclared "$tmp/err" || fail "a compile error was not passed on ($(rc))"
  echo "mpicc/mpicxx -showme, -showme:compile, -showme:link, TESSERA_CC/CXX, symlinks ok" ;;

install_prefix)
  # The wrappers from an install prefix: nothing of the build tree is used, and a moved prefix works.
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "install: $(tail "$tmp/install.log")"
  for p in bin/mpicc bin/mpicxx include/mpi.h lib/libmpi.so; do
    [ -e "$prefix/$p" ] || fail "install tree lacks $p"
  done
  [ "$("$prefix/bin/mpicc" -showme:compile)" = "-I$prefix/include" ] || fail "installed -showme:compile: $("$prefix/bin/mpicc" -showme:compile)"
  "$prefix/bin/mpicc" -Wall -Werror "$src/hello.c" -o "$tmp/hello" 2>"$tmp/cc" || fail "installed mpicc: $(cat "$tmp/cc")"
  readelf -d "$tmp/hello" | grep -q "$prefix/lib" || fail "no run path to $prefix/lib: $(readelf -d "$tmp/hello" | grep -i path)"
  run "$tmp/hello" 1
  [ "$(rc)" = 0 ] || fail "singleton from the prefix exited $(rc): $(both)"
  expect_hellos 1
  ldd "$tmp/hello" | grep libmpi | grep -q "$prefix/lib/libmpi" || fail "libmpi not from the prefix: $(ldd "$tmp/hello" | grep libmpi)"
  if [ -x "$prefix/bin/mpirun" ]; then
    run "$prefix/bin/mpirun" -np 2 --oversubscribe --timeout 60 "$tmp/hello" 2
    [ "$(rc)" = 0 ] || fail "installed mpirun -np 2 exited $(rc): $(both)"
    expect_hellos 2
  fi
  mv "$prefix" "$tmp/moved"
  [ "$("$tmp/moved/bin/mpicc" -showme:compile)" = "-I$tmp/moved/include" ] || fail "moved prefix not followed"
  "$tmp/moved/bin/mpicc" "$src/hello.c" -o "$tmp/hello2" 2>"$tmp/cc" || fail "moved mpicc: $(cat "$tmp/cc")"
  run "$tmp/hello2" 1
  [ "$(rc)" = 0 ] || fail "hello from the moved prefix exited $(rc): $(both)"
  echo "installed and moved prefixes: mpicc builds hello, which runs against the prefix's libmpi" ;;

abort)
  run "$mpirun" -np 4 --oversubscribe --timeout 60 "$progs/failures" abort
  [ "$(rc)" = 7 ] || fail "mpirun exited $(rc), expected MPI_Abort's 7: $(both)"
  grep -q "rank 3 .*MPI_Abort(MPI_COMM_WORLD, 7)" "$tmp/err" || fail "no MPI_Abort message naming rank 3: $(both)"
  [ "$(grep -c 'MPI_Abort' "$tmp/err")" = 1 ] || fail "the MPI_Abort message is not printed exactly once: $(both)"
  ended_quickly
  run "$progs/failures" abort
  [ "$(rc)" = 7 ] || fail "singleton MPI_Abort exited $(rc): $(both)"
  grep -q "MPI_Abort(MPI_COMM_WORLD, 7) called by rank 0" "$tmp/err" || fail "singleton prints no MPI_Abort message: $(both)"
  echo "MPI_Abort(MPI_COMM_WORLD, 7) in rank 3 of 4: mpirun exited 7 after $(secs) s" ;;

unsupported_notice)
  # Under MPI_ERRORS_RETURN the error class alone would not say which call is missing.
  run "$progs/errors"
  [ "$(rc)" = 0 ] || fail "errors exited $(rc): $(both)"
  line="MPI_Get_hw_resource_info is not implemented by Tessera's native engine; see tessera_info --coverage"
  [ "$(grep -c -F "$line" "$tmp/err")" = 1 ] || fail "the notice is not printed exactly once: $(both)"
  echo "one notice for two calls of a missing function under MPI_ERRORS_RETURN" ;;

unsupported_fatal)
  run "$mpirun" -np 4 --oversubscribe --timeout 60 "$progs/failures" unsupported
  [ "$(rc)" = 55 ] || fail "mpirun exited $(rc), expected MPI_ERR_UNSUPPORTED_OPERATION (55): $(both)"
  grep -q "MPI_Get_hw_resource_info is not implemented yet by Tessera's native engine" "$tmp/err" || fail "message does not name MPI_Get_hw_resource_info: $(both)"
  grep -q "MPI_ERRORS_ARE_FATAL" "$tmp/err" || fail "message does not name the handler: $(both)"
  [ "$(grep -c 'MPI_Get_hw_resource_info is not implemented' "$tmp/err")" = 1 ] || fail "the message is not printed exactly once: $(both)"
  ended_quickly
  run "$progs/failures" unsupported
  [ "$(rc)" = 55 ] && grep -q "MPI_Get_hw_resource_info is not implemented yet" "$tmp/err" || fail "singleton: $(rc): $(both)"
  echo "an unimplemented MPI_Get_hw_resource_info under MPI_ERRORS_ARE_FATAL ends the job (55), naming it" ;;

errors_abort)
  run "$mpirun" -np 2 --oversubscribe --timeout 60 "$progs/failures" errors_abort
  [ "$(rc)" = 13 ] || fail "mpirun exited $(rc), expected MPI_ERR_ARG (13): $(both)"
  grep -q "MPI_Comm_rank: MPI_ERR_ARG: argument 'rank' is NULL" "$tmp/err" || fail "no argument-check message: $(both)"
  grep -q "MPI_ERRORS_ABORT" "$tmp/err" || fail "message does not name MPI_ERRORS_ABORT: $(both)"
  ended_quickly
  echo "MPI_ERRORS_ABORT ends the job with the error class" ;;

call_errhandler_fatal)
  run "$mpirun" -np 2 --oversubscribe --timeout 60 "$progs/failures" call_errhandler
  [ "$(rc)" = 16 ] || fail "mpirun exited $(rc), expected MPI_ERR_OTHER (16): $(both)"
  grep -q "MPI_Comm_call_errhandler: MPI_ERR_OTHER" "$tmp/err" || fail "no message: $(both)"
  grep -q "MPI_ERRORS_ARE_FATAL of a communicator of 1 process ends the job" "$tmp/err" ||
    fail "the message does not describe the unnamed communicator: $(both)"
  ended_quickly
  echo "MPI_Comm_call_errhandler under MPI_ERRORS_ARE_FATAL ends the job" ;;

user_error_fatal)
  run "$mpirun" -np 2 --oversubscribe --timeout 60 "$progs/failures" user_error
  [ "$(rc)" = 1 ] || fail "mpirun exited $(rc), expected 1 for an error class of 16384 and up: $(both)"
  grep -q "user-defined error code [0-9]* (the frobnicator jammed) of user-defined error class" "$tmp/err" ||
    fail "the message does not carry the application's text: $(both)"
  ended_quickly
  echo "an application's error class under MPI_ERRORS_ARE_FATAL ends the job with status 1, with its text" ;;

bad_mca_rank)
  # mpirun never sees this value (-x passes it to the ranks only): MPI_Init in each rank refuses it.
  run "$mpirun" -np 2 --oversubscribe --timeout 60 -x TESSERA_MCA_btl_base_verbose=bogus "$progs/hello_world" 2
  [ "$(rc)" != 0 ] || fail "a bad MCA value in the ranks did not fail the job: $(both)"
  grep -q 'bad value "bogus" for parameter "btl_base_verbose" from environment' "$tmp/err" || fail "no message naming value, parameter and source: $(both)"
  grep -q "MPI_Init: MPI_ERR_OTHER: 1 bad MCA parameter setting" "$tmp/err" || fail "MPI_Init does not say why it fails: $(both)"
  grep -q "^Hello" "$tmp/out" && fail "a rank went past MPI_Init: $(both)"
  ended_quickly
  echo "a bad MCA value makes MPI_Init fail the job (mpirun exit $(rc))" ;;

bad_mca_singleton)
  run env TESSERA_MCA_btl_base_verbose=bogus "$progs/hello_world" 1
  [ "$(rc)" = 16 ] || fail "singleton with a bad MCA value exited $(rc): $(both)"
  grep -q 'bad value "bogus" for parameter "btl_base_verbose"' "$tmp/err" || fail "no message: $(both)"
  echo "a singleton with a bad MCA value stops in MPI_Init (exit 16)" ;;

mca_sources)
  # --mca reaches the ranks as "command line" (not "environment"), -x VAR=value and -x VAR as given.
  export TESSERA_TEST_PLAIN=from-mpirun-env
  run "$mpirun" -np 2 --oversubscribe --timeout 60 --mca btl_base_verbose 5 -x TESSERA_TEST_GREETING=hello \
      -x TESSERA_TEST_PLAIN "$progs/mca_probe" btl_base_verbose 5 "command line" \
      TESSERA_TEST_GREETING hello TESSERA_TEST_PLAIN from-mpirun-env
  [ "$(rc)" = 0 ] || fail "--mca / -x: exit $(rc): $(both)"
  [ "$(grep -c 'btl_base_verbose = 5 (source: command line)' "$tmp/out")" = 2 ] || fail "not every rank saw --mca: $(both)"
  run "$mpirun" -np 2 --oversubscribe --timeout 60 -x TESSERA_MCA_btl_base_verbose=3 \
      "$progs/mca_probe" btl_base_verbose 3 environment
  [ "$(rc)" = 0 ] || fail "-x TESSERA_MCA_: exit $(rc): $(both)"
  # The command line wins over the environment, in the ranks as in mpirun.
  run "$mpirun" -np 2 --oversubscribe --timeout 60 -x TESSERA_MCA_btl_base_verbose=3 --mca btl_base_verbose 4 \
      "$progs/mca_probe" btl_base_verbose 4 "command line"
  [ "$(rc)" = 0 ] || fail "--mca over -x TESSERA_MCA_: exit $(rc): $(both)"
  # --tune files reach the ranks in order, a later one winning, with file and line as the source.
  printf 'btl_base_verbose = 6\n' >"$tmp/first.conf"
  printf '# second\n[btl_base]\nverbose = 2\n' >"$tmp/second.conf"
  run "$mpirun" -np 2 --oversubscribe --timeout 60 --tune "$tmp/first.conf" --tune "$tmp/second.conf" \
      "$progs/mca_probe" btl_base_verbose 2 "file:$tmp/second.conf:3"
  [ "$(rc)" = 0 ] || fail "--tune: exit $(rc): $(both)"
  echo "--mca reaches the ranks with source 'command line', --tune with file:line, -x TESSERA_MCA_ with 'environment', -x VAR[=val] as given" ;;

bind_to_core)
  # MPI_Init binds the rank to the PUs mpirun chose (TESSERA_BIND); without --bind-to it stays free.
  expand() { # "0-2,5" -> "0 1 2 5"
    local part out=""
    for part in ${1//,/ }; do
      if [[ $part == *-* ]]; then out+=" $(seq -s ' ' "${part%-*}" "${part#*-}")"; else out+=" $part"; fi
    done
    echo $out
  }
  run "$mpirun" -np 3 --oversubscribe --timeout 60 --bind-to core "$progs/binding_probe"
  [ "$(rc)" = 0 ] || fail "--bind-to core: exit $(rc): $(both)"
  [ "$(grep -c '^rank [0-9]*: allowed ' "$tmp/out")" = 3 ] || fail "not every rank reported: $(both)"
  while read -r _ r _ allowed _ bind; do
    [ "$bind" != none ] && [ "$bind" != "(unset)" ] || fail "rank $r got no PUs to bind to: $(both)"
    [ "$(expand "$allowed")" = "$(expand "$bind")" ] || fail "rank $r runs on PUs $allowed, mpirun chose $bind"
  done <"$tmp/out"
  bound=$(tr '\n' ';' <"$tmp/out")
  run "$mpirun" -np 2 --oversubscribe --timeout 60 --bind-to none "$progs/binding_probe"
  [ "$(rc)" = 0 ] || fail "--bind-to none: exit $(rc): $(both)"
  grep -q "bind none$" "$tmp/out" || fail "--bind-to none still binds: $(both)"
  echo "MPI_Init binds each rank to the PUs mpirun chose: $bound" ;;

*)
  fail "unknown case" ;;
esac
