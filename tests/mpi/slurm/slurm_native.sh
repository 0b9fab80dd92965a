#!/usr/bin/env bash
# The native engine under srun --mpi=pmix, on a two-node Slurm cluster this test starts and stops
# (slurm_cluster.sh): logical nodes on this host, or two network namespaces as two hosts.
#   slurm_native.sh logical|netns <slurm_probe> <hello_world>
# Every step runs inside one allocation (a new job may wait seconds for the previous one to complete)
# and under a timeout. Fails, never skips, when the cluster cannot start; tears it down on any exit.
set -uo pipefail
mode=$1 probe=$2 hello=$3
here=$(cd "$(dirname "$0")" && pwd)
source "$here/slurm_cluster.sh"

dir=$(mktemp -d /tmp/tessera-slurm-XXXXXX)
cleanup() {
  [ -n "${job:-}" ] && slurm_cmd scancel "$job" 2>/dev/null
  slurm_cluster_stop
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "FAIL ($mode): $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root: it starts munged, slurmctld and slurmd (and network namespaces)"
slurm_cluster_start "$dir/cluster" "$mode" || fail "cannot start the Slurm cluster (see above)"

job=$(slurm_cmd timeout 30 salloc --no-shell -N2 -n8 2>&1 | sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p')
[ -n "$job" ] || fail "salloc gave no allocation"

# step SECONDS srun-options... : runs one step; its output in $dir/out, $dir/err, status in $rc.
rc=0
step() {
  local limit=$1; shift
  local t0=$SECONDS
  slurm_cmd timeout "$limit" srun --jobid="$job" "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  took=$((SECONDS - t0))
  [ $rc = 124 ] && fail "srun $* did not end within $limit s: $(cat "$dir/out" "$dir/err")"
}
both() { cat "$dir/out" "$dir/err"; }

# check_probe N NODES: N probe lines, all native over ess pmix with one shared key, each peer reached
# over shm when on the same node and over tcp otherwise, ranks spread over NODES nodes.
check_probe() {
  local n=$1 nodes=$2
  [ $rc = 0 ] || fail "probe on $n ranks exited $rc: $(both)"
  [ "$(grep -c '^probe ' "$dir/out")" = "$n" ] || fail "expected $n probe lines: $(both)"
  grep -q 'WRONG-RESULTS' "$dir/out" && fail "wrong results: $(both)"
  [ "$(grep -c "size=$n .*ess=pmix library=Tessera key=shared " "$dir/out")" = "$n" ] ||
    fail "not every rank runs the native engine over ess pmix with the job key shared: $(both)"
  awk -v nodes="$nodes" '
    /^probe / {
      for (i = 2; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = kv[2] }
      node[f["rank"]] = f["node"]; peers[f["rank"]] = f["peers"]; seen[f["node"]] = 1
    }
    END {
      n = 0; for (x in seen) ++n
      if (n != nodes) { print "ranks on " n " nodes, expected " nodes; exit 1 }
      for (r in peers) {
        m = split(peers[r], list, ",")
        for (i = 1; i <= m; ++i) {
          split(list[i], pt, ":")
          want = node[r] == node[pt[1]] ? "shm" : "tcp"
          if (pt[2] != want) { print "rank " r " reaches rank " pt[1] " over " pt[2] ", expected " want; exit 1 }
        }
      }
    }' "$dir/out" || fail "transport choice: $(both)"
  # A connection with a wrong key is refused wherever tcp is used (rank 0 tries the last rank).
  if [ "$nodes" = 2 ]; then
    grep -q '^probe rank=0 .* stranger=refused ' "$dir/out" || fail "a stranger with a wrong key was not refused: $(both)"
  fi
}

step 60 --mpi=pmix -N1 -n2 "$probe"; check_probe 2 1
echo "ok: 2 ranks on one node, native engine, shm ($took s)"
step 60 --mpi=pmix -N1 -n4 "$probe"; check_probe 4 1
echo "ok: 4 ranks on one node, native engine, shm ($took s)"
step 60 --mpi=pmix -N2 -n2 "$probe"; check_probe 2 2
echo "ok: 2 ranks on two nodes, native engine, tcp, a stranger refused ($took s)"
step 60 --mpi=pmix -N2 -n4 "$probe"; check_probe 4 2
echo "ok: 4 ranks on two nodes, shm within a node, tcp between ($took s)"

step 60 --mpi=pmix -N1 -n1 "$hello" 1
[ $rc = 0 ] && grep -q '^Hello from rank 0 of 1' "$dir/out" || fail "hello on 1 rank: exit $rc: $(both)"
echo "ok: hello_world on 1 rank"

step 60 --mpi=pmix -N2 -n4 "$hello" 4
[ $rc = 0 ] && [ "$(grep -c '^Hello from rank [0-3] of 4' "$dir/out")" = 4 ] || fail "hello on 4 ranks: exit $rc: $(both)"
echo "ok: hello_world on 4 ranks over two nodes"

step 60 --mpi=pmix -N2 -n4 "$probe" abort 7
[ $rc = 7 ] || fail "MPI_Abort(MPI_COMM_WORLD, 7): srun exited $rc, expected 7: $(both)"
grep -q 'passed the barrier' "$dir/out" && fail "a rank went on after MPI_Abort: $(both)"
grep -q 'MPI_Abort(MPI_COMM_WORLD, 7) called by rank 1 ' "$dir/err" || fail "MPI_Abort's message does not say which rank called it: $(both)"
echo "ok: MPI_Abort(7) ends the step, srun exits 7 ($took s)"

step 60 --mpi=pmix -N2 -n4 "$probe" die
[ $rc != 0 ] || fail "a rank killed by SIGKILL: srun exited 0: $(both)"
grep -q 'passed the barrier' "$dir/out" && fail "ranks went on after a rank died: $(both)"
echo "ok: a killed rank ends the step (srun exit $rc, $took s)"

step 60 -N1 -n2 "$hello" 2
[ $rc != 0 ] || fail "srun without --mpi: exit 0: $(both)"
grep -q -- '--mpi=pmix' "$dir/err" || fail "srun without --mpi: no message naming --mpi=pmix: $(both)"
grep -q '^Hello' "$dir/out" && fail "srun without --mpi ran singletons: $(both)"
echo "ok: srun without --mpi is refused naming --mpi=pmix (exit $rc)"

step 60 -N1 -n1 "$hello" 1
[ $rc = 0 ] && grep -q '^Hello from rank 0 of 1' "$dir/out" || fail "one task without --mpi is a singleton: exit $rc: $(both)"
echo "ok: one task without --mpi runs as a singleton"
