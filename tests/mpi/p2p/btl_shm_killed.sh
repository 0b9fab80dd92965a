#!/usr/bin/env bash
# usage: btl_shm_killed.sh <mpirun> <program> <who> [tries] [mpirun args...]
# A 4-rank job is killed with SIGKILL `tries` times during MPI_Init, once local rank 0 has made btl
# shm's host segment (seen in /dev/shm when it is named, in rank 0's /proc/<pid>/maps as
# memfd:tessera-btl-shm when it is not) and before the last rank has attached: rank 3 starts 0.3 s
# late, which holds the others in the wire-up fence with the segment made, and the kill comes at a
# random moment up to 0.35 s after the segment was seen.
# <who>: mpirun (its ranks die with it, its sentinel cleans up), rank (one rank at random: mpirun
# tears the job down), all (mpirun, its sentinel and every rank in one kill(1), as when a whole
# process tree is killed: nobody is left to clean up). Once every process of the job is gone, nothing
# of it may be left in /dev/shm: no entry tessera-<jobid>-*, with the job id the ranks were given
# (only this job's entries are looked at, and removed if found).
set -uo pipefail
mpirun=$1 prog=$2 who=$3 tries=${4:-4}
shift 4 2>/dev/null || shift $#
tmp=$(mktemp -d)
procs=() jobid= in_window=0
source "$(dirname "$0")/../killed_job.sh"
# Whether local rank 0 (pid $2) of job $1 has made the segment, named or not (no fork: a poll must
# take well under a millisecond to land in a window of a few).
segment_made() {
  compgen -G "/dev/shm/tessera-$1-shm-*" > /dev/null && return 0
  local line
  while read -r line; do
    [[ $line == *memfd:tessera-btl-shm* ]] && return 0
  done 2>/dev/null < /proc/"$2"/maps
  return 1
}

for try in $(seq "$tries"); do
  d=$tmp/$try
  mkdir -p "$d"
  # Its own session: nothing of the job is in this script's process group.
  setsid "$mpirun" -np 4 --oversubscribe "$@" sh -c \
    'echo $TESSERA_JOBID > '"$d"'/jobid.$TESSERA_RANK; echo $$ > '"$d"'/pid.$TESSERA_RANK
     [ "$TESSERA_RANK" = 3 ] && sleep 0.3; exec "$0"' "$prog" \
    > "$d"/out 2>&1 &
  mp=$!
  for _ in $(seq 3000); do
    [ -s "$d"/pid.0 ] && [ -s "$d"/jobid.0 ] && break
    sleep 0.01
  done
  if ! [ -s "$d"/pid.0 ]; then
    echo "try $try: the job did not start within 30 s:"; cat "$d"/out
    procs=("$mp" $(pgrep -P "$mp")); exit 1
  fi
  jobid=$(cat "$d"/jobid.0)
  rank0=$(cat "$d"/pid.0)
  # The moment: the segment is made (checked for up to 10 s), then a random pause; else at once.
  moment="before the segment was seen"
  deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ] && [ -n "$(alive "$rank0")" ]; do
    segment_made "$jobid" "$rank0" && { moment="with the segment made"; break; }
  done
  [ "$moment" = "with the segment made" ] && sleep "0.$(printf %02d $((RANDOM % 36)))"
  ranks=($(cat "$d"/pid.* 2>/dev/null))
  procs=("$mp" $(pgrep -P "$mp") "${ranks[@]}") # mpirun, its sentinel, the ranks
  [ "$moment" = "with the segment made" ] && in_window=$((in_window + 1))
  kill_and_check "$try" "$who" "$moment"
done
echo "btl_shm_killed: $in_window of $tries kills with the segment made"
if [ "$in_window" -eq 0 ]; then
  echo "btl_shm_killed: no kill came with the segment made: the test tested nothing"
  exit 1
fi
if [ "$failures" -gt 0 ]; then
  echo "btl_shm_killed: $failures of $tries kills of $who left segments"
  exit 1
fi
echo "btl_shm_killed: $tries kills of $who, nothing left"
