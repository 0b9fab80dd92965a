#!/usr/bin/env bash
# Runs one MPI program under a launcher and judges its output (tests/translator/CMakeLists.txt).
#
#   run_translated.sh [--allow REGEX]... -- LAUNCHER [ARGS...]
#
# Passes when the job exits 0, or when it exits 1 and every "FAILED" line it printed matches one of the
# --allow patterns (checks of Tessera's native engine that do not apply to a runtime translator, such
# as lifecycle's "MPI_THREAD_SERIALIZED provided"). A rank killed by a signal, an abort, or a FAILED line
# that is not allowed fails the test. The output is shown either way.
set -u
allow=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
        --allow) allow+=("$2"); shift 2 ;;
        *) echo "run_translated.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "run_translated.sh: no command" >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/tessera-translated.XXXXXX")
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
status=$?
cat "$out"

if grep -Eq 'Segmentation fault|signal [0-9]+|exited on signal|Caught signal|MPI_ABORT|Abort\(' "$out"; then
    echo "run_translated.sh: a rank crashed or aborted (status $status)" >&2
    exit 1
fi
unexpected=0
while IFS= read -r line; do
    ok=0
    for re in "${allow[@]+"${allow[@]}"}"; do
        if [[ "$line" =~ $re ]]; then
            ok=1
            break
        fi
    done
    if [ $ok -eq 0 ]; then
        echo "run_translated.sh: unexpected failure: $line" >&2
        unexpected=$((unexpected + 1))
    fi
done < <(grep 'FAILED' "$out")
[ $unexpected -eq 0 ] || exit 1
if [ $status -eq 0 ] || { [ $status -eq 1 ] && grep -q 'FAILED' "$out"; }; then
    exit 0
fi
echo "run_translated.sh: the job exited with status $status" >&2
exit 1
