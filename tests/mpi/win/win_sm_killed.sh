#!/usr/bin/env bash
# usage: win_sm_killed.sh <mpirun> <win_sm_locker> <who> [tries] [mpirun args...]
# A job of 4 ranks with a shared window (osc sm) whose rank 0 holds the exclusive lock of rank 1's part
# while the others wait for it is killed with SIGKILL `tries` times: <who> holder (rank 0, the lock's
# holder: mpirun tears the job down, the waiters with it) or all (mpirun, its sentinel and every rank in
# one kill(1): nobody is left to clean up). Every process of the job must be gone within 30 s, and
# nothing of it left in /dev/shm (the window's segment is an unnamed memfd).
set -uo pipefail
mpirun=$1 prog=$2 who=$3 tries=${4:-3}
shift 4 2>/dev/null || shift $#
tmp=$(mktemp -d)
procs=() jobid=
source "$(dirname "$0")/../killed_job.sh"

for try in $(seq "$tries"); do
  d=$tmp/$try
  mkdir -p "$d"
  start_job "$d" "win_sm_locker: started" "$@" -- "$prog"
  sleep 0.$((RANDOM % 5)) # the waiters spin (and yield) meanwhile
  if [ "$who" = holder ]; then
    ranks=($(cat "$d"/pid.0))
    kill_and_check "$try" rank "of the lock's holder"
  else
    ranks=($(cat "$d"/pid.*))
    kill_and_check "$try" "$who" "while rank 0 holds the lock"
  fi
  if grep -q "got a lock that was held" "$d"/out; then
    echo "try $try: a waiter was granted the lock its dead holder held:"; cat "$d"/out; exit 1
  fi
done
if [ "$failures" -gt 0 ]; then
  echo "win_sm_killed: $failures of $tries kills of $who left segments"
  exit 1
fi
echo "win_sm_killed: $tries kills of $who, nothing left"
