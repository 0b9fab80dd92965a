#!/usr/bin/env bash
# Times tessera-trace on a synthetic archive of EVENTS events (default 10 million) and reports events per
# second and the peak resident memory (GNU time -v).
#   bash tools/trace/bench/trace_bench.sh [BUILD_DIR] [EVENTS] [RANKS] [--no-regions]
# (--no-regions: only MPI records, no Enter/Leave: every event goes through matching)
set -euo pipefail
build=${1:-build}
events=${2:-10000000}
ranks=${3:-8}
synth_flags=${4:-}
[ -x "$build/bench/trace_synth" ] && [ -x "$build/bin/tessera-trace" ] ||
  { echo "trace_bench: build trace_synth and tessera-trace in $build first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "trace_bench: needs GNU time (Debian package time)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bench/trace_synth" "$work/archive" "$events" "$ranks" $synth_flags
du -sh "$work/archive" | awk '{print "archive size " $1}'

run() {
  /usr/bin/time -v -o "$work/time" "$build/bin/tessera-trace" "$@" "$work/archive/traces.otf2" >"$work/out"
  local secs rss
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
  read -r read_events < <(awk '/^events / {sub(":", "", $2); print $2}' "$work/out")
  awk -v e="$read_events" -v s="$secs" -v r="$rss" -v what="$*" 'BEGIN {
    printf "tessera-trace %-28s %d events in %.2f s: %.2f M events/s, max RSS %.1f MB\n",
           (what == "" ? "(summary)" : what), e, s, e / s / 1e6, r / 1024 }'
}
run
run --csv "$work/messages.csv"
wc -l <"$work/messages.csv" | awk '{print "CSV rows (with header) " $1}'
grep -E '^(messages|warnings)' "$work/out"
