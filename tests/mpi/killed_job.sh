# What the killed-job tests share (sourced): a job of 4 ranks started in its own session, killed with
# SIGKILL, and the checks that every process of it is gone and nothing of it is left in /dev/shm.
# The caller sets mpirun, tmp, procs=() and jobid= before sourcing, and mp, ranks, procs, jobid per try
# (start_job sets all but ranks).
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

# start_job <dir> <marker> <mpirun args...> -- <program>: starts the job of 4 ranks in its own session
# (nothing of it is in the caller's process group), each rank writing its job id and pid to <dir>,
# and waits until the job prints <marker>; sets mp, jobid and procs (mpirun, its sentinel, the ranks).
# Exits 1 when the marker does not come within 30 s.
start_job() {
  local d=$1 marker=$2
  shift 2
  local args=()
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  local prog=$2
  setsid "$mpirun" -np 4 --oversubscribe "${args[@]}" sh -c \
    'echo $TESSERA_JOBID > '"$d"'/jobid.$TESSERA_RANK; echo $$ > '"$d"'/pid.$TESSERA_RANK; exec "$0"' "$prog" \
    > "$d"/out 2>&1 &
  mp=$!
  for _ in $(seq 600); do
    grep -q "$marker" "$d"/out 2>/dev/null && break
    sleep 0.05
  done
  if ! grep -q "$marker" "$d"/out; then
    echo "the job did not start within 30 s:"; cat "$d"/out
    procs=("$mp" $(pgrep -P "$mp")); exit 1
  fi
  jobid=$(cat "$d"/jobid.0)
  procs=("$mp" $(pgrep -P "$mp") $(cat "$d"/pid.*))
}

# kill_and_check <try> <who> <moment>: kills mpirun, one rank or all of the job, waits until all of it
# is gone (exits 1 after 30 s) and counts a failure when something of it is left in /dev/shm.
kill_and_check() {
  local try=$1 who=$2 moment=$3
  case $who in
    mpirun) kill -KILL "$mp" ;;
    rank) kill -KILL "${ranks[RANDOM % ${#ranks[@]}]}" ;;
    all) kill -KILL "${procs[@]}" 2>/dev/null ;;
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
  local left
  left=$(compgen -G "/dev/shm/tessera-$jobid-*")
  if [ -n "$left" ]; then
    echo "try $try (job $jobid, kill of $who $moment): left in /dev/shm: $left"
    failures=$((failures + 1))
    rm -f /dev/shm/tessera-"$jobid"-*
  else
    echo "try $try (job $jobid, kill of $who $moment): nothing left"
  fi
  procs=() jobid=
}
