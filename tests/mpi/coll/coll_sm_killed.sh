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
  start_job "$d" "coll_sm_churn: started" "$@" -- "$prog"
  ranks=($(cat "$d"/pid.*))
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
