# Sourced by mpirun_cases.sh and launch_cases.sh after they set $tmp and $case: running mpirun and
# checking what it did. run() keeps stdout, stderr and the status in $tmp/out, $tmp/err and $tmp/rc.
fail() { echo "FAIL [$case]: $*" >&2; echo "--- stdout" >&2; cat "$tmp/out" >&2 2>/dev/null;
         echo "--- stderr" >&2; head -c 20000 "$tmp/err" >&2 2>/dev/null; exit 1; }
run() { "$mpirun" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
expect_rc() { [ "$(rc)" = "$1" ] || fail "exit status $(rc), expected $1"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks: $1"; }
expect_out() { grep -qE -- "$1" "$tmp/out" || fail "stdout lacks a line matching: $1"; }
within_ms() { [ "$2" -le "$1" ] || fail "took $2 ms, more than $1 ms"; }
