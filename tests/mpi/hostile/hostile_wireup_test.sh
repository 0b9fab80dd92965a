#!/usr/bin/env bash
# usage: hostile_wireup_test.sh <mpirun> <hostile_wireup>
set -uo pipefail
mpirun=$1 prog=$2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$mpirun" -np 3 --oversubscribe --timeout 30 "$prog" >"$out" 2>"$err"
rc=$?
cat "$out"; cat "$err" >&2
[ $rc -eq 0 ] || { echo "FAIL: job exited $rc" >&2; exit 1; }
[ "$(grep -c 'wired up$' "$out")" -eq 3 ] || { echo "FAIL: not every rank wired up" >&2; exit 1; }
n=$(grep -c 'refused a wire-up connection' "$err")
[ "$n" -eq 4 ] || { echo "FAIL: $n refusals reported, expected 4" >&2; exit 1; }
for why in 'key' '4294967295\|too large\|limit\|exceeds' 'truncat\|end of file\|closed'; do
  grep -i 'refused a wire-up connection' "$err" | grep -qi "$why" || { echo "FAIL: no refusal mentions '$why'" >&2; exit 1; }
done
echo "hostile clients refused (4), job completed"
