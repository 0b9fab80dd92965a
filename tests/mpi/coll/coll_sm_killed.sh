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
failures=0
# The job's processes still alive (a zombie is not: its parent is gone and it creates nothing).
alive() {
  local p state
  for p in "$@"; do
    if read -r _ _ state _ 2>/dev/null < /proc/"$p"/stat && [ "$state" != Z ] && [ "$state" != X ]; then
      echo "$p"
    fi
  done
}
cleanup() {
  [ ${#procs[@]} -gt 0 ] && kill -KILL "${procs[@]}" 2>/dev/null
  [ -n "$jobid" ] && rm -f /dev/shm/tessera-"$jobid"-* /dev/shm/sem.tessera-"$jobid"-* 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

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
  case $who in
    mpirun) kill -KILL "$mp" ;;
    rank) kill -KILL "${ranks[RANDOM % ${#ranks[@]}]}" ;;
    all) kill -KILL "${procs[@]}" ;;
    *) echo "unknown <who>: $who"; exit 2 ;;
  esac
  wait "$mp" 2>/dev/null
  # mpirun's teardown and its sentinel's sweep end within a few seconds.
  for _ in $(seq 300); do
    [ -z "$(alive "${procs[@]}")" ] && break
    sleep 0.1
  done
  if [ -n "$(alive "${procs[@]}")" ]; then
    echo "try $try (job $jobid): processes of the job still alive 30 s after the kill: $(alive "${procs[@]}")"
    exit 1
  fi
  left=$(compgen -G "/dev/shm/tessera-$jobid-*")
  if [ -n "$left" ]; then
    echo "try $try (job $jobid, kill of $who $moment): left in /dev/shm: $left"
    failures=$((failures + 1))
    rm -f /dev/shm/tessera-"$jobid"-*
  else
    echo "try $try (job $jobid, kill of $who $moment): nothing left"
  fi
  procs=() jobid=
done
if [ "$failures" -gt 0 ]; then
  echo "coll_sm_killed: $failures of $tries kills of $who left segments"
  exit 1
fi
echo "coll_sm_killed: $tries kills of $who, nothing left"
