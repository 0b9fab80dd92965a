#!/usr/bin/env bash
# usage: compilers_cases.sh <case> <tessera build dir> <this source dir>
# What build systems see of Tessera MPI (docs/compilers.md): the feature macros of tessera_features.h
# against `tessera_info --coverage --parsable` and against the calls themselves, the compiler wrappers'
# options and variables, and pkg-config from an install prefix. Private HOME and scratch directory,
# removed on exit.
set -uo pipefail
case=$1 build=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
unset $(env | sed -n 's/^\(TESSERA_[A-Z_]*\)=.*/\1/p') 2>/dev/null || true
unset PKG_CONFIG_PATH PKG_CONFIG_LIBDIR
fail() { echo "FAIL [$case]: $*" >&2; exit 1; }

# check_macros <mpicc> <parsable coverage file>: a C file made of one #if per fact of the coverage,
# compiled through mpi.h: the preprocessor sees what tessera_info says, function by function.
check_macros() {
  local mpicc=$1 cov=$2 n
  {
    echo '#include <mpi.h>'
    sed -n 's/^coverage:function:\(MPI_[A-Za-z0-9_]*\):\(implemented\|missing\)$/\1 \2/p' "$cov" |
      while read -r name state; do
        macro=TESSERA_HAVE_$(echo "$name" | tr a-z A-Z)
        want=0; [ "$state" = implemented ] && want=1
        printf '#if !defined(%s) || %s != %s\n#error "%s is not %s"\n#endif\n' "$macro" "$macro" "$want" "$macro" "$want"
      done
    sed -n 's/^coverage:feature:\([A-Z0-9_]*\):\([01]\)$/\1 \2/p' "$cov" | while read -r macro want; do
      printf '#if !defined(%s) || %s != %s\n#error "%s is not %s"\n#endif\n' "$macro" "$macro" "$want" "$macro" "$want"
    done
    sed -n 's/^coverage:implemented:\([0-9]*\)$/#if TESSERA_MPI_FUNCTIONS_IMPLEMENTED != \1\n#error "implemented count"\n#endif/p' "$cov"
    echo 'int main(void) { return 0; }'
  } >"$tmp/macros.c"
  n=$(grep -c '^#error' "$tmp/macros.c")
  [ "$n" -ge 664 ] || fail "only $n facts in the coverage: $(head "$cov")"
  "$mpicc" -std=c99 -Wall -Werror "$tmp/macros.c" -o "$tmp/macros" 2>"$tmp/cc" || fail "macros disagree with the coverage: $(head -20 "$tmp/cc")"
  echo "$n macros agree with tessera_info --coverage --parsable"
}

# run_call <program>: runs it as a singleton; it checks macro against call for a few functions.
run_call() {
  "$1" >"$tmp/call.out" 2>"$tmp/call.err" || fail "$1 exited $?: $(cat "$tmp/call.out" "$tmp/call.err")"
  grep -q '^MPI_File_open: macro 1' "$tmp/call.out" || fail "MPI_File_open: $(cat "$tmp/call.out")"
  grep -q '^MPI_Comm_join: macro 0' "$tmp/call.out" || fail "MPI_Comm_join is implemented now? $(cat "$tmp/call.out")"
  grep -q '^MPI_Comm_rank: macro 1' "$tmp/call.out" || fail "MPI_Comm_rank: $(cat "$tmp/call.out")"
}

case $case in
features)
  TESSERA_MCA_translator=native "$build/bin/tessera_info" --coverage --parsable >"$tmp/cov" || fail "tessera_info --coverage"
  grep -q '^coverage:feature:TESSERA_HAVE_MPI_IO:1$' "$tmp/cov" || fail "no TESSERA_HAVE_MPI_IO:1 in the parsable coverage"
  grep -q '^coverage:feature:TESSERA_HAVE_MPI_DPM:0$' "$tmp/cov" || fail "no TESSERA_HAVE_MPI_DPM:0 in the parsable coverage"
  check_macros "$build/bin/mpicc" "$tmp/cov"
  "$build/bin/mpicc" -std=c99 -Wall -Wextra -Werror "$src/features_call.c" -o "$tmp/call" 2>"$tmp/cc" || fail "mpicc: $(cat "$tmp/cc")"
  run_call "$tmp/call"
  echo "build tree: every macro of tessera_features.h agrees with the coverage and with the calls" ;;

showme)
  mpicc=$build/bin/mpicc
  [ "$("$mpicc" -showme:incdirs)" = "$build/include" ] || fail "-showme:incdirs: $("$mpicc" -showme:incdirs)"
  [ "$("$mpicc" -showme:libdirs)" = "$build/lib" ] || fail "-showme:libdirs: $("$mpicc" -showme:libdirs)"
  [ "$("$mpicc" -showme:libs)" = "mpi" ] || fail "-showme:libs: $("$mpicc" -showme:libs)"
  [ "$("$mpicc" -showme:command)" = "cc" ] || fail "-showme:command: $("$mpicc" -showme:command)"
  [ "$("$build/bin/mpicxx" -showme:command)" = "c++" ] || fail "mpicxx -showme:command"
  link="-L$build/lib -Wl,-rpath,$build/lib -lmpi"
  [ "$("$mpicc" -show -O2 a.c -o a)" = "cc -I$build/include -O2 a.c -o a $link" ] || fail "-show: $("$mpicc" -show -O2 a.c -o a)"
  [ "$("$mpicc" -show -c a.c)" = "cc -I$build/include -c a.c" ] || fail "-show -c: $("$mpicc" -show -c a.c)"
  [ "$("$mpicc" -compile_info -c a.c)" = "cc -I$build/include -c a.c" ] || fail "-compile_info: $("$mpicc" -compile_info -c a.c)"
  [ "$("$mpicc" -compile_info a.c)" = "cc -I$build/include a.c" ] || fail "-compile_info links: $("$mpicc" -compile_info a.c)"
  [ "$("$mpicc" -link_info a.o -o a)" = "cc -I$build/include a.o -o a $link" ] || fail "-link_info: $("$mpicc" -link_info a.o -o a)"
  for h in --help -help -showme:help; do
    "$mpicc" $h >"$tmp/help" || fail "$h exited $?"
    for word in -showme:incdirs -showme:libdirs -showme:libs -compile_info -link_info TESSERA_CC TESSERA_CFLAGS \
        TESSERA_LDFLAGS TESSERA_LIBS docs/compilers.md; do
      grep -q -- "$word" "$tmp/help" || fail "$h does not mention $word: $(cat "$tmp/help")"
    done
  done
  grep -q TESSERA_CXXFLAGS <("$build/bin/mpicxx" --help) || fail "mpicxx --help does not name TESSERA_CXXFLAGS"
  "$mpicc" -showme:bogus 2>"$tmp/err"; [ $? = 2 ] && grep -q "unknown option" "$tmp/err" || fail "-showme:bogus accepted"
  echo "mpicc -showme:incdirs|libdirs|libs|command|help, -show, -compile_info, -link_info, --help ok" ;;

override)
  # A compiler that records how it was called, then runs the real one.
  cat >"$tmp/fakecc" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >>"$tmp/fakecc.log"
exec cc "\$@"
FAKE
  chmod +x "$tmp/fakecc"
  TESSERA_CC=$tmp/fakecc TESSERA_CPPFLAGS=-DTESSERA_TEST_CPP=1 TESSERA_CFLAGS="-DTESSERA_TEST_C=2 -O1" \
    TESSERA_LDFLAGS=-Wl,--as-needed TESSERA_LIBS=-lm \
    "$build/bin/mpicc" -std=c99 "$src/features_call.c" -o "$tmp/call" 2>"$tmp/cc" || fail "mpicc with overrides: $(cat "$tmp/cc")"
  [ -s "$tmp/fakecc.log" ] || fail "TESSERA_CC was not the compiler that ran"
  for w in -DTESSERA_TEST_CPP=1 -DTESSERA_TEST_C=2 -O1 -Wl,--as-needed -lm; do
    grep -q -- " $w\( \|$\)" "$tmp/fakecc.log" || fail "$w not passed: $(cat "$tmp/fakecc.log")"
  done
  grep -q -- "-lmpi -lm$" "$tmp/fakecc.log" || fail "TESSERA_LIBS not after -lmpi: $(cat "$tmp/fakecc.log")"
  run_call "$tmp/call"
  [ "$(TESSERA_CC=clang-x "$build/bin/mpicc" -showme:command)" = clang-x ] || fail "-showme:command ignores TESSERA_CC"
  [ "$(TESSERA_CC=clang-x TESSERA_CFLAGS=-g "$build/bin/mpicc" -show -c a.c)" = "clang-x -I$build/include -g -c a.c" ] \
    || fail "-show with overrides: $(TESSERA_CC=clang-x TESSERA_CFLAGS=-g "$build/bin/mpicc" -show -c a.c)"
  rm -f "$tmp/fakecc.log"
  TESSERA_CXX=$tmp/fakecc "$build/bin/mpicxx" -showme -c a.cpp >/dev/null
  [ "$(TESSERA_CXX=$tmp/fakecc "$build/bin/mpicxx" -showme:command)" = "$tmp/fakecc" ] || fail "TESSERA_CXX not honoured"
  echo "TESSERA_CC, TESSERA_CPPFLAGS, TESSERA_CFLAGS, TESSERA_LDFLAGS, TESSERA_LIBS, TESSERA_CXX change the command" ;;

pkgconfig_install)
  command -v pkg-config >/dev/null || fail "pkg-config is not installed (tools/install-deps installs it)"
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "install: $(tail "$tmp/install.log")"
  for p in include/mpi.h include/tessera_features.h lib/pkgconfig/mpi.pc lib/pkgconfig/tessera.pc; do
    [ -e "$prefix/$p" ] || fail "install tree lacks $p"
  done
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  for pc in mpi tessera; do
    flags=$(pkg-config --cflags --libs "$pc") || fail "pkg-config $pc"
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Werror "$src/features_call.c" -o "$tmp/call_$pc" $flags 2>"$tmp/cc" || fail "cc \$(pkg-config $pc): $(cat "$tmp/cc")"
    # ${pcfiledir}/../.. keeps the files right wherever the prefix moves: the path has ".." in it.
    lib=$(ldd "$tmp/call_$pc" | sed -n 's/^.*libmpi[^ ]* => \([^ ]*\) .*$/\1/p')
    [ "$(readlink -f "$lib")" = "$(readlink -f "$prefix/lib/libmpi.so.0")" ] || fail "$pc: libmpi not from the prefix: $lib"
    run_call "$tmp/call_$pc"
  done
  TESSERA_MCA_translator=native "$prefix/bin/tessera_info" --coverage --parsable >"$tmp/cov" || fail "installed tessera_info"
  sed -n 's/^coverage:feature:TESSERA_HAVE_\([A-Z0-9_]*\):\([01]\)$/\1 \2/p' "$tmp/cov" >"$tmp/chapters"
  [ "$(wc -l <"$tmp/chapters")" -ge 20 ] || fail "too few categories: $(cat "$tmp/chapters")"
  while read -r chapter want; do
    var=tessera_have_$(echo "$chapter" | tr A-Z a-z)
    for pc in mpi tessera; do
      [ "$(pkg-config --variable="$var" "$pc")" = "$want" ] || fail "$pc $var is not $want"
    done
  done <"$tmp/chapters"
  missing=$(sed -n 's/^coverage:function:\(MPI_[A-Za-z0-9_]*\):missing$/\1/p' "$tmp/cov" | tr '\n' ' ' | sed 's/ $//')
  [ "$(pkg-config --variable=tessera_missing mpi)" = "$missing" ] || fail "tessera_missing differs from the coverage"
  [ "$(pkg-config --variable=mpi_version mpi)" = "$(sed -n 's/^#define MPI_VERSION *//p' "$prefix/include/mpi.h")" ] || fail "mpi_version"
  check_macros "$prefix/bin/mpicc" "$tmp/cov"
  [ "$("$prefix/bin/mpicc" -showme:incdirs)" = "$prefix/include" ] || fail "installed -showme:incdirs"
  [ "$("$prefix/bin/mpicc" -showme:libdirs)" = "$prefix/lib" ] || fail "installed -showme:libdirs"
  echo "install prefix: pkg-config mpi and tessera build programs that run; variables agree with the coverage" ;;

*) fail "unknown case" ;;
esac
