#!/usr/bin/env bash
# usage: man_pages_cases.sh <build dir>
# Installs the build to a temporary prefix and reads each man page there with man -l (as a user would
# with MANPATH=<prefix>/share/man), checking that it names its program and holds what its --help says.
set -uo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [man_pages]: $*" >&2; exit 1; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "install: $(tail "$tmp/install.log")"
man1=$prefix/share/man/man1
page() { MANWIDTH=100 man -P cat -l "$man1/$1.1" 2>"$tmp/man.err"; }

# page, then text each must hold (options, environment, exit status)
check() {
  local name=$1
  shift
  [ -s "$man1/$name.1" ] || fail "$man1/$name.1 was not installed"
  page "$name" >"$tmp/$name.txt" || fail "man -l $name.1 failed: $(cat "$tmp/man.err")"
  grep -q "^NAME" "$tmp/$name.txt" && grep -qE "^ +$name - " "$tmp/$name.txt" || fail "$name.1 has no NAME line"
  grep -q "^SYNOPSIS" "$tmp/$name.txt" || fail "$name.1 has no SYNOPSIS"
  for text in "$@"; do
    grep -qF -- "$text" "$tmp/$name.txt" || fail "$name.1 lacks: $text"
  done
}
check mpirun -np --output-filename --stdin --display-map -wdir -genv MPIEXEC_TIMEOUT "Exit status" 124
check tessera_info --param --coverage TESSERA_MCA_ "Exit status"
check mpicc -showme:compile TESSERA_CC "Exit status"
check mpicxx -showme:link TESSERA_CXX
if [ -e "$build/bin/tessera-trace" ]; then
  check tessera-trace --csv --png "Exit status"
fi
# mpiexec is mpirun: its page is mpirun's (".so man1/mpirun.1", resolved from the man tree's top, as man
# does for a page it finds in MANPATH)
(cd "$prefix/share/man" && MANWIDTH=100 man -P cat -l man1/mpiexec.1) >"$tmp/mpiexec.txt" 2>"$tmp/man.err" || fail "man -l mpiexec.1 failed: $(cat "$tmp/man.err")"
grep -qE "^ +mpirun - " "$tmp/mpiexec.txt" || fail "mpiexec.1 does not show mpirun's page"
echo "man pages of mpirun, mpiexec, tessera_info, mpicc, mpicxx, tessera-trace installed and readable"
