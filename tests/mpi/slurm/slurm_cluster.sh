# A Slurm cluster of two nodes, started and stopped by a test, under one temporary directory: munged,
# slurmctld and one slurmd per node, as root, without systemd. Sourced by the Slurm tests.
#
#   slurm_cluster_start DIR logical   two logical nodes c1, c2 on this host (slurmd -N), on 127.0.0.1
#   slurm_cluster_start DIR netns     two network namespaces as two hosts, 10.77.<n>.1 and .2, joined
#                                     by a veth pair; slurmctld and c1 in the first, c2 in the second
#   slurm_cmd CMD...                  runs CMD where srun must run (the first namespace, for netns)
#   slurm_cluster_stop                SIGTERM by pid file, then SIGKILL; removes the namespaces
#
# slurm_cluster_start fails (returns 1, saying why, with the daemons' logs) when a daemon cannot
# start: a test calls it under `|| fail`, never skips. Each node has its own spool and TmpFS: with one
# shared TmpFS the second node's PMIx plugin cannot create its directory.

SLURM_CLUSTER_DIR=""
SLURM_CLUSTER_NS=()

slurm_cluster_log() { echo "slurm_cluster: $*" >&2; }

# Free TCP ports on this host (the kernel's choice, released at once).
slurm_free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

slurm_cmd() {
  if [ ${#SLURM_CLUSTER_NS[@]} -gt 0 ]; then
    nsenter --net=/run/netns/${SLURM_CLUSTER_NS[0]} "$@"
  else
    "$@"
  fi
}

slurm_cluster_dump_logs() {
  local f
  for f in "$SLURM_CLUSTER_DIR"/log/*.log "$SLURM_CLUSTER_DIR"/munge/munged.log; do
    [ -f "$f" ] || continue
    echo "---- $f (last 15 lines)" >&2
    tail -n 15 "$f" >&2
  done
}

slurm_cluster_start() {
  local dir=$1 mode=$2
  SLURM_CLUSTER_DIR=$dir
  SLURM_CLUSTER_NS=()
  for tool in munged slurmctld slurmd srun salloc scontrol sinfo; do
    command -v $tool >/dev/null || { slurm_cluster_log "$tool is not installed (tools/install-deps installs slurm-wlm and munge)"; return 1; }
  done
  mkdir -p "$dir"/{munge,state,spool,run,log,tmp/c1,tmp/c2}
  chmod 0700 "$dir/munge"
  chmod 0755 "$dir"

  # munge: a key of its own, a socket under the directory.
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
  local sockdir="$dir/run"
  munged --force --socket="$sockdir/munge.socket" --key-file="$dir/munge/munge.key" \
         --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
         --seed-file="$dir/munge/munged.seed" 2>>"$dir/log/munged.err" || {
    slurm_cluster_log "munged did not start"; slurm_cluster_dump_logs; return 1; }

  local host addr1 addr2 ctl_port p1 p2 comm=""
  host=$(hostname)
  read -r ctl_port p1 p2 < <(slurm_free_ports 3)
  if [ "$mode" = netns ]; then
    # Names and a subnet of this test's own (the pid), so that concurrent runs do not collide.
    local tag=$(( $$ % 200 + 20 ))
    SLURM_CLUSTER_NS=("tsn$$a" "tsn$$b")
    addr1=10.77.$tag.1 addr2=10.77.$tag.2
    ip netns add ${SLURM_CLUSTER_NS[0]} && ip netns add ${SLURM_CLUSTER_NS[1]} || {
      slurm_cluster_log "cannot create network namespaces (ip netns add)"; return 1; }
    ip link add "tv$$a" netns ${SLURM_CLUSTER_NS[0]} type veth peer name "tv$$b" netns ${SLURM_CLUSTER_NS[1]} || {
      slurm_cluster_log "cannot create a veth pair"; return 1; }
    ip -n ${SLURM_CLUSTER_NS[0]} addr add $addr1/24 dev "tv$$a"
    ip -n ${SLURM_CLUSTER_NS[1]} addr add $addr2/24 dev "tv$$b"
    local ns
    for ns in "${SLURM_CLUSTER_NS[@]}"; do
      ip -n $ns link set lo up
    done
    ip -n ${SLURM_CLUSTER_NS[0]} link set "tv$$a" up
    ip -n ${SLURM_CLUSTER_NS[1]} link set "tv$$b" up
  else
    addr1=127.0.0.1 addr2=127.0.0.1
    # Listening on loopback only; with namespaces the host name resolves to 127.0.0.1 there too, so
    # this would cut the nodes off from each other.
    comm="CommunicationParameters=NoCtldInAddrAny,NoInAddrAny"
  fi

  cat > "$dir/slurm.conf" <<CONF
ClusterName=tessera
SlurmctldHost=$host($addr1)
SlurmctldPort=$ctl_port
AuthType=auth/munge
AuthInfo=socket=$sockdir/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
TmpFS=$dir/tmp/%n
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
InactiveLimit=0
KillWait=2
MinJobAge=2
$comm
NodeName=c1 NodeHostname=$host NodeAddr=$addr1 Port=$p1 CPUs=4 State=UNKNOWN
NodeName=c2 NodeHostname=$host NodeAddr=$addr2 Port=$p2 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=c1,c2 Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"

  slurm_cmd slurmctld -i -f "$SLURM_CONF" 2>>"$dir/log/slurmctld.err" || {
    slurm_cluster_log "slurmctld did not start"; slurm_cluster_dump_logs; return 1; }
  if [ "$mode" = netns ]; then
    nsenter --net=/run/netns/${SLURM_CLUSTER_NS[0]} slurmd -N c1 -f "$SLURM_CONF" 2>>"$dir/log/slurmd.err" &&
      nsenter --net=/run/netns/${SLURM_CLUSTER_NS[1]} slurmd -N c2 -f "$SLURM_CONF" 2>>"$dir/log/slurmd.err"
  else
    slurmd -N c1 -f "$SLURM_CONF" 2>>"$dir/log/slurmd.err" && slurmd -N c2 -f "$SLURM_CONF" 2>>"$dir/log/slurmd.err"
  fi || { slurm_cluster_log "slurmd did not start"; slurm_cluster_dump_logs; return 1; }

  # Up when both nodes are idle (registration takes a second or so).
  local i
  for i in $(seq 1 150); do
    if [ "$(slurm_cmd sinfo -h -N -o '%t' 2>/dev/null | grep -c '^idle')" = 2 ]; then
      return 0
    fi
    sleep 0.1
  done
  slurm_cluster_log "the nodes did not become idle within 15 s:"
  slurm_cmd sinfo -N >&2 || true
  slurm_cluster_dump_logs
  return 1
}

slurm_cluster_stop() {
  local dir=$SLURM_CLUSTER_DIR
  [ -n "$dir" ] || return 0
  local f pids=()
  for f in "$dir"/run/slurmd-*.pid "$dir"/run/slurmctld.pid "$dir"/munge/munged.pid; do
    [ -f "$f" ] || continue
    local p
    p=$(cat "$f" 2>/dev/null) && [ -n "$p" ] && kill -TERM "$p" 2>/dev/null && pids+=("$p")
  done
  local i
  for i in $(seq 1 50); do
    local alive=0 p
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  # A step daemon still ending when its slurmd went stays behind, orphaned: find this cluster's by the
  # configuration in its environment.
  local e
  for e in /proc/[0-9]*/environ; do
    p=${e#/proc/}; p=${p%/environ}
    [ "$(cat /proc/$p/comm 2>/dev/null)" = slurmstepd ] || continue
    tr '\0' '\n' <"$e" 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf" && kill -KILL "$p" 2>/dev/null
  done
  local ns
  for ns in "${SLURM_CLUSTER_NS[@]}"; do
    ip netns del "$ns" 2>/dev/null || true
  done
  SLURM_CLUSTER_NS=()
  SLURM_CLUSTER_DIR=""
}
