#!/usr/bin/env bash
# plm ssh against a real sshd: starts /usr/sbin/sshd on a free port of 127.0.0.1-3 with generated host
# and user keys (nothing outside a temporary directory is touched, but /run/sshd, which sshd requires),
# runs DRIVER with the matching agent command and the hosts 127.0.0.2 and 127.0.0.3, and always stops
# sshd and removes the directory. With MPIRUN and PROGRAM, also runs
#   MPIRUN --host 127.0.0.2,127.0.0.3 -np 2 --mca plm_ssh_agent "..." PROGRAM
# and checks that each rank printed its host and an SSH_CONNECTION to it, that a remote exit code and
# mpirun --timeout work across ssh, and with MPI_PROGRAM (hello_world) that MPI ranks wire up from there.
# usage: sshd_launch_test.sh DRIVER [MPIRUN PROGRAM [MPI_PROGRAM]]
set -u
driver=$1
mpirun=${2:-}
program=${3:-}
mpi_program=${4:-}
sshd=/usr/sbin/sshd
# The remote programs sleep this long: unique to this run, since other build trees may run this test
# at the same time and their sleeps are not ours to count.
sleep_seconds="1017.$(( RANDOM % 1000 ))$(( RANDOM % 1000 ))$$"
export TESSERA_SSHD_TEST_SLEEP=$sleep_seconds
marker_sleep="^sleep ${sleep_seconds//./\\.}\$"


fail() { echo "sshd_launch_test: FAILED: $*" >&2; exit 1; }
command -v ssh >/dev/null && [ -x "$sshd" ] && command -v ssh-keygen >/dev/null ||
  fail "needs openssh-client and openssh-server (run tools/install-deps)"

tmp=$(mktemp -d /tmp/tessera-sshd-XXXXXX) || fail "mktemp"
sshd_pid=""
cleanup() {
  if [ -n "$sshd_pid" ]; then
    kill "$sshd_pid" 2>/dev/null
    wait "$sshd_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# sshd insists on its privilege-separation directory; only root can create it.
if [ ! -d /run/sshd ]; then
  mkdir -p /run/sshd 2>/dev/null || fail "/run/sshd does not exist and cannot be created (not root?)"
fi

ssh-keygen -q -N '' -t ed25519 -f "$tmp/host_key" || fail "ssh-keygen (host key)"
ssh-keygen -q -N '' -t ed25519 -f "$tmp/user_key" || fail "ssh-keygen (user key)"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"

# A port free on all three addresses: sshd reports a bind failure and we try another.
for attempt in 1 2 3 4 5; do
  port=$(( 20000 + (RANDOM % 20000) ))
  cat > "$tmp/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
ListenAddress 127.0.0.2
ListenAddress 127.0.0.3
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PidFile $tmp/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
X11Forwarding no
PrintMotd no
CONF
  "$sshd" -D -e -f "$tmp/sshd_config" 2> "$tmp/sshd.log" &
  sshd_pid=$!
  up=0
  for i in $(seq 1 100); do
    if ! kill -0 "$sshd_pid" 2>/dev/null; then break; fi
    if (exec 3<>"/dev/tcp/127.0.0.3/$port") 2>/dev/null; then up=1; break; fi
    sleep 0.05
  done
  [ $up -eq 1 ] && break
  kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; sshd_pid=""
done
[ -n "$sshd_pid" ] || { cat "$tmp/sshd.log" >&2; fail "sshd did not start"; }

agent="ssh -p $port -i $tmp/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"

rc=0
"$driver" --mca plm_ssh_agent "$agent" 127.0.0.2 127.0.0.3 || rc=1

if [ -n "$mpirun" ]; then
  run_mpirun() { "$mpirun" --host 127.0.0.2,127.0.0.3 -np 2 --mca plm_ssh_agent "$agent" "$@"; }

  out=$(run_mpirun --timeout 60 "$program" 2>&1)
  status=$?
  echo "$out"
  if [ $status -ne 0 ]; then
    echo "FAILED: mpirun exited with $status"; rc=1
  fi
  for host in 127.0.0.2 127.0.0.3; do
    if echo "$out" | grep -Eq "^TESSERA_HOST=$host SSH_CONNECTION=[^ ]+ [0-9]+ $host $port\$"; then
      echo "ok: mpirun started a rank on $host through sshd"
    else
      echo "FAILED: no rank reported TESSERA_HOST=$host with an SSH_CONNECTION to $host:$port"; rc=1
    fi
  done

  # A remote rank's exit code is the job's.
  run_mpirun --timeout 60 /bin/sh -c 'exit 3' >/dev/null 2>&1
  status=$?
  if [ $status -eq 3 ]; then echo "ok: exit code 3 of remote ranks propagated by mpirun"
  else echo "FAILED: mpirun exited with $status for remote ranks exiting 3"; rc=1; fi

  # mpirun's stdin reaches remote rank 0 through sshd byte for byte; remote rank 1 (--stdin 0) sees
  # the end of its input at once.
  head -c $((10 * 1024 * 1024)) /dev/urandom >"$tmp/stdin_in"
  out=$(run_mpirun --timeout 60 --stdin 0 /bin/sh -c \
    "if [ \$TESSERA_RANK = 0 ]; then cat > $tmp/stdin_copy; else cat; echo rank1-eof; fi" <"$tmp/stdin_in" 2>&1)
  status=$?
  if [ $status -eq 0 ] && cmp -s "$tmp/stdin_in" "$tmp/stdin_copy" && echo "$out" | grep -q '^rank1-eof$'; then
    echo "ok: 10 MiB of mpirun's stdin reached remote rank 0 through sshd; remote rank 1 saw end of input"
  else
    echo "FAILED: stdin through sshd (status $status): $out"; rc=1
  fi

  # --timeout tears remote ranks down: nothing of them is left.
  start=$(date +%s)
  run_mpirun --timeout 2 sleep "$sleep_seconds" >/dev/null 2>&1
  status=$?
  took=$(( $(date +%s) - start ))
  left=""
  for i in $(seq 1 50); do
    left=$(pgrep -af "$marker_sleep")
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ $status -ne 0 ] && [ -z "$left" ] && [ $took -lt 30 ]; then
    echo "ok: mpirun --timeout stopped the remote ranks in ${took} s (status $status), none left"
  else
    echo "FAILED: mpirun --timeout on remote ranks: status $status after ${took} s, left: '$left'"; rc=1
  fi

  if [ -n "$mpi_program" ]; then
    out=$(run_mpirun --timeout 60 "$mpi_program" 2 2>&1)
    status=$?
    echo "$out"
    if [ $status -eq 0 ] && echo "$out" | grep -q "Hello from rank 0 of 2" && echo "$out" | grep -q "Hello from rank 1 of 2"; then
      echo "ok: an MPI program wired up across the two ssh hosts"
    else
      echo "FAILED: MPI hello over ssh (status $status)"; rc=1
    fi
  fi
fi

if pgrep -f "$marker_sleep" >/dev/null; then
  echo "FAILED: remote sleeps left behind: $(pgrep -af "$marker_sleep")"; rc=1
fi
if pgrep -f "$tmp/user_key" >/dev/null; then
  echo "FAILED: ssh clients left behind: $(pgrep -af "$tmp/user_key")"; rc=1
fi
if [ $rc -ne 0 ]; then
  echo "--- sshd log ---"; cat "$tmp/sshd.log"
fi
exit $rc
