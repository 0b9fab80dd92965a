#!/usr/bin/env bash
# Runs an MPI job that must end in failure under a launcher (tests/translator/CMakeLists.txt).
#
#   run_failing.sh [--expect REGEX]... -- LAUNCHER [ARGS...]
#
# Passes when the job exits with a non-zero status, within the test's timeout (a job that hangs is a
# failure by ctest's timeout), and its output matches every --expect pattern. The output is shown.
set -u
expect=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
        --expect) expect+=("$2"); shift 2 ;;
        *) echo "run_failing.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "run_failing.sh: no command" >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/tessera-failing.XXXXXX")
trap 'rm -f "$out"' EXIT
start=$(date +%s)
"$@" >"$out" 2>&1
status=$?
cat "$out"
echo "run_failing.sh: the job exited with status $status after $(( $(date +%s) - start )) s"
if [ $status -eq 0 ]; then
    echo "run_failing.sh: the job was expected to fail" >&2
    exit 1
fi
for re in "${expect[@]+"${expect[@]}"}"; do
    if ! grep -Eq -- "$re" "$out"; then
        echo "run_failing.sh: the output lacks /$re/" >&2
        exit 1
    fi
done
exit 0
