#!/usr/bin/env bash
# usage: coll_sm_killed.sh <mpirun> <coll_sm_churn> <who> [tries] [mpirun args...]
# A job making coll sm segments one after the other (coll_sm_churn, 4 ranks) is killed with SIGKILL
# `tries` times, each at another moment: the moment one of its segments is seen in /dev/shm, or a
# random moment within a second when none is. <who>: mpirun (its ranks die with it, its sentinel
# cleans up), rank (one rank at random: mpirun tears the job down), all (mpirun, its sentinel and
# every rank in one kill(1), as when a whole process tree is killed: nobody is left to clean up).
# Once every process of the job is gone, nothing of it may be left in /dev/shm: no entry
# tessera-<jobid>-*, with the job id the ranks were given (only this job's entries are looked at,
# and removed if found).
set -uo pipefail
mpirun=$1 prog=$2 who=$3 tries=${4:-4}
shift 4 2>/dev/null || shift $#
tmp=$(mktemp -d)
procs=() jobid=
source "$(dirname "$0")/../killed_job.sh"

for try in $(seq "$tries"); do
  d=$tmp/$try
  mkdir -p "$d"
  # Its own session: nothing of the job is in this script's process group.
  setsid "$mpirun" -np 4 --oversubscribe "$@" sh -c \
    'echo $TESSERA_JOBID > '"$d"'/jobid.$TESSERA_RANK; echo $$ > '"$d"'/pid.$TESSERA_RANK; exec "$0"' "$prog" \
    > "$d"/out 2>&1 &
  mp=$!
  for _ in $(seq 600); do
    grep -q "coll_sm_churn: started" "$d"/out 2>/dev/null && break
    sleep 0.05
  done
  if ! grep -q "coll_sm_churn: started" "$d"/out; then
    echo "try $try: the job did not start within 30 s:"; cat "$d"/out
    procs=("$mp" $(pgrep -P "$mp")); exit 1
  fi
  jobid=$(cat "$d"/jobid.0)
  ranks=($(cat "$d"/pid.*))
  procs=("$mp" $(pgrep -P "$mp") "${ranks[@]}") # mpirun, its sentinel, the ranks
  # The moment: a segment of the job is in /dev/shm, or a random one within a second.
  moment="at random"
  for _ in $(seq $((RANDOM % 100))); do
    compgen -G "/dev/shm/tessera-$jobid-coll-*" > /dev/null && { moment="with a segment in /dev/shm"; break; }
    sleep 0.01
  done
  kill_and_check "$try" "$who" "$moment"
done
if [ "$failures" -gt 0 ]; then
  echo "coll_sm_killed: $failures of $tries kills of $who left segments"
  exit 1
fi
echo "coll_sm_killed: $tries kills of $who, nothing left"
