#!/bin/bash
# tessera_info --coverage --mca translator X: the translator a process would select fills a table and
# tessera_info counts its entries. Usage: coverage_cases.sh <case> <tessera_info> <fake component dir>
set -u
case_name=$1 info=$2 fakert_dir=$3
tmp=$(mktemp -d /tmp/tessera-coverage-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$case_name]: $*"; exit 1; }
run() { "$info" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }
field() { sed -n "s/^coverage:$1://p" "$tmp/out"; }
# A launcher's environment around the test must not change the choice.
unset OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK PMI_FD PMI_PORT TESSERA_MCA_translator

case $case_name in
native)
  run --coverage --parsable
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  [ "$(field translator)" = native ] || fail "default translator: $(field translator)"
  default_impl=$(field implemented)
  run --coverage --parsable --mca translator native
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  [ "$(field translator)" = native ] && [ "$(field runtime)" = "Tessera's native engine" ] || fail "$(head -3 "$tmp/out")"
  impl=$(field implemented)
  [ "$impl" = "$default_impl" ] || fail "explicit native $impl != default $default_impl"
  [ "$impl" -ge 21 ] || fail "native implements $impl functions, expected at least 21"
  [ "$(grep -c ':implemented$' "$tmp/out")" = "$impl" ] || fail "list != count"
  run --coverage --mca translator native
  grep -q "Translator: native (Tessera's native engine)" "$tmp/out" || fail "text view: $(head -3 "$tmp/out")"
  echo "native: $impl functions" ;;
fakert)
  run --coverage --json --mca mca_component_path "$fakert_dir" --mca translator fakert
  [ "$(rc)" = 0 ] || fail "exit $(rc): $(cat "$tmp/err")"
  # Its 2 functions, and the ABI's 6 questions about itself, which Tessera answers for every runtime.
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["coverage"]; assert c["translator"]=="fakert" and c["implemented"]==8 and c["total"]==664, c' \
    "$tmp/out" || fail "JSON: $(head -c 300 "$tmp/out")"
  # Under its launcher's environment it is chosen without being named, as in a process.
  OMPI_COMM_WORLD_SIZE=2 run --coverage --parsable --mca mca_component_path "$fakert_dir"
  [ "$(field translator)" = fakert ] && [ "$(field implemented)" = 8 ] || fail "launcher: $(head -4 "$tmp/out")"
  echo "fakert: 2 functions and the ABI's 6" ;;
unknown)
  run --coverage --parsable --mca translator nosuch
  [ "$(rc)" = 1 ] || fail "exit $(rc) for an unknown translator"
  grep -q 'no translator could be selected' "$tmp/err" || fail "$(cat "$tmp/err")"
  echo "unknown translator refused" ;;
*) fail "unknown case" ;;
esac
