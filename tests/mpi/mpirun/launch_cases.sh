#!/usr/bin/env bash
# usage: launch_cases.sh <mpirun> <mpi_launch_probe> <tessera_info> <case>
# The launcher's reliability: a slow handshake over tcp, an ssh that never answers or answers late,
# mpirun killed outright, parameter files that are no files, the blamed rank when one is killed, the
# throttled refusals and the job key kept from the application's children. One behaviour per case.
set -uo pipefail
mpirun=$1 probe=$2 info=$3 case=$4
tmp=$(mktemp -d)
bg=""
cleanup() {
  [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
  # whatever a failing case left: the probe's ranks and the fake ssh agents run with $tmp in argv
  pkill -KILL -f -- "$tmp" 2>/dev/null
  [ -n "${jobid:-}" ] && rm -f /dev/shm/tessera-"$jobid"-* /dev/shm/sem.tessera-"$jobid"-* 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
unset $(env | sed -n 's/^\(TESSERA_[^=]*\)=.*/\1/p') 2>/dev/null || true
unset MPIEXEC_TIMEOUT

source "$(dirname "${BASH_SOURCE[0]}")/case_lib.sh"
# Processes whose command line holds $tmp: the ranks of this case and its fake ssh agents.
ours() { pgrep -f -- "$tmp" | grep -vx "$$" || true; }
# Waits up to $1 ms for every process of ours to be gone.
gone_within() {
  local until=$(( $(now_ms) + $1 ))
  while [ -n "$(ours)" ]; do
    [ "$(now_ms)" -lt "$until" ] || fail "processes left after $1 ms: $(ps -o pid,stat,args -p "$(ours | paste -sd,)" 2>/dev/null)"
    sleep 0.05
  done
}
shm_left() { ls /dev/shm/tessera-"$jobid"-* /dev/shm/sem.tessera-"$jobid"-* 2>/dev/null || true; }
wait_file() { for _ in $(seq 400); do [ -s "$1" ] && return 0; sleep 0.05; done; fail "no $1"; }

# An ssh that connects but never answers: it reads nothing and sleeps (its argv names $tmp).
cat >"$tmp/silent_ssh" <<EOF
#!/bin/bash
exec -a "silent-ssh $tmp" sleep 1000
EOF
# An ssh that takes 40 s to connect, then runs the command here as fake_ssh.sh does.
cat >"$tmp/slow_ssh" <<EOF
#!/bin/bash
sleep \${SLOW_SSH_SECONDS:-40}
exec /bin/sh -c "\${@: -1}"
EOF
chmod +x "$tmp/silent_ssh" "$tmp/slow_ssh"

case $case in
tcp_accept_then_compute|tcp_connect_then_compute)
  # A rank out of MPI for 6 s during a handshake that may take 1 s: the job must still complete.
  mode=accept-then-compute
  [ $case = tcp_connect_then_compute ] && mode=connect-then-compute
  run -np 2 --timeout 60 --mca btl self,tcp --mca btl_tcp_handshake_timeout 1 --mca btl_tcp_direct_reads 0 \
    "$probe" $mode 6
  expect_rc 0
  expect_out '^rank 0 ok$'
  expect_out '^rank 1 ok$' ;;
ssh_silent_timeout)
  # --timeout ends a launch stuck in ssh, and nothing of it is left
  t0=$(now_ms)
  run -np 1 --host 127.0.0.2 --mca plm_ssh_agent "$tmp/silent_ssh" --timeout 2 true
  within_ms 6000 $(( $(now_ms) - t0 ))
  expect_rc 124
  expect_err "mpirun: job timed out after 2 s"
  gone_within 2000 ;;
ssh_silent_signal)
  # SIGINT and SIGTERM end a launch stuck in ssh at once
  for sig in INT TERM; do
    "$mpirun" -np 1 --host 127.0.0.2 --mca plm_ssh_agent "$tmp/silent_ssh" true >"$tmp/out" 2>"$tmp/err" &
    bg=$!
    for _ in $(seq 100); do [ -n "$(pgrep -f "silent-ssh $tmp")" ] && break; sleep 0.05; done
    [ -n "$(pgrep -f "silent-ssh $tmp")" ] || fail "the fake ssh did not start"
    t0=$(now_ms)
    kill -$sig $bg
    wait $bg
    echo $? >"$tmp/rc"
    bg=""
    within_ms 3000 $(( $(now_ms) - t0 ))
    [ $sig = INT ] && expect_rc 130
    [ $sig = TERM ] && expect_rc 143
    expect_err "mpirun: received signal"
    gone_within 2000
  done ;;
ssh_silent_start_timeout)
  # without --timeout, plm_ssh_start_timeout bounds the wait and names the host
  t0=$(now_ms)
  run -np 1 --host 127.0.0.2 --mca plm_ssh_agent "$tmp/silent_ssh" --mca plm_ssh_start_timeout 2 true
  within_ms 6000 $(( $(now_ms) - t0 ))
  expect_rc 1
  expect_err "cannot start 'true' on host '127.0.0.2': the launch agent did not answer within 2 s (plm_ssh_start_timeout)"
  gone_within 2000 ;;
ssh_late_host)
  # rank 0 starts at once on this machine, rank 1's host takes 40 s to answer: the job completes
  run -np 2 --host localhost:1,127.0.0.2:1 --timeout 100 --mca plm_ssh_agent "$tmp/slow_ssh" \
    "$probe" connect-then-compute 0
  expect_rc 0
  expect_out '^rank 0 ok$'
  expect_out '^rank 1 ok$' ;;
wireup_gives_up)
  # a rank that never reaches the wire-up: mpirun gives up after plm_base_wireup_timeout and says who
  run -np 3 --oversubscribe --mca plm_base_wireup_timeout 2 "$probe" late-init "$tmp" 30
  expect_rc 1
  expect_err "mpirun: the wire-up gave up after 2 s (plm_base_wireup_timeout): rank 2 on host localhost never reached it"
  gone_within 2000 ;;
kill9_running|kill9_wireup)
  # kill -9 of mpirun: its ranks are gone within 3 s, and so are their /dev/shm segments
  if [ $case = kill9_running ]; then
    "$mpirun" -np 2 "$probe" spin "$tmp" >"$tmp/out" 2>"$tmp/err" &
    bg=$!
    wait_file "$tmp/ready.0"; wait_file "$tmp/ready.1"
  else
    # btl shm's named segment: the unnamed one (the default) is never in /dev/shm to be swept
    "$mpirun" -np 3 --oversubscribe --mca btl_shm_unnamed false "$probe" late-init "$tmp" 30 >"$tmp/out" 2>"$tmp/err" &
    bg=$!
    wait_file "$tmp/jobid"
    sleep 1 # ranks 0 and 1 are in MPI_Init's fence, rank 2 sleeps before it
  fi
  jobid=$(cat "$tmp/jobid")
  [ -n "$(ours)" ] || fail "no rank is running"
  # in the wire-up, local rank 0's segment waits for the others to map it
  if [ $case = kill9_wireup ]; then
    for _ in $(seq 100); do [ -n "$(shm_left)" ] && break; sleep 0.05; done
    [ -n "$(shm_left)" ] || fail "rank 0 made no /dev/shm segment: nothing to check"
  fi
  kill -KILL $bg
  wait $bg 2>/dev/null
  bg=""
  gone_within 3000
  left=$(shm_left)
  [ -z "$left" ] || fail "/dev/shm entries left: $left" ;;
tune_not_a_file)
  # parameter files that are no regular file, or too large, are refused at once (never read)
  mkfifo "$tmp/fifo"
  truncate -s 3G "$tmp/huge.conf"
  for f in /dev/zero "$tmp/fifo" "$tmp/huge.conf"; do
    t0=$(now_ms)
    (ulimit -v 2000000; timeout -s KILL 20 "$mpirun" --tune "$f" -np 1 true >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
    within_ms 5000 $(( $(now_ms) - t0 ))
    expect_rc 1
    expect_err "$f"
    (ulimit -v 2000000; timeout -s KILL 20 "$info" --tune "$f" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
    [ "$(rc)" != 137 ] || fail "tessera_info --tune $f was killed"
    expect_err "$f"
  done
  expect_err "3221225472 bytes"
  (ulimit -v 2000000; TESSERA_MCA_mca_param_files=/dev/zero timeout -s KILL 20 "$mpirun" -np 1 true >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
  expect_rc 1
  expect_err "/dev/zero"
  expect_err "not a regular file" ;;
kill_blame)
  # the rank killed first is named, with its signal, in every run
  for i in $(seq 10); do
    run -np 3 --oversubscribe --timeout 60 --mca btl self,tcp "$probe" kill-one
    expect_rc 137
    expect_err "mpirun: rank 2 on host localhost was killed by signal 9 (Killed)"
  done ;;
refusals_throttled)
  # 200 strangers knock at the wire-up service: a handful of lines and a count, not 200 lines
  run -np 1 --timeout 60 bash -c 'IFS=: read -r h p <<<"$TESSERA_KV_URI"
    for i in $(seq 200); do exec 3<>/dev/tcp/$h/$p && printf "\x09\x00\x00\x00\x63garbage!!" >&3; exec 3>&-; done
    sleep 0.5'
  expect_rc 0
  n=$(grep -c 'refused a wire-up connection' "$tmp/err")
  [ "$n" -ge 4 ] && [ "$n" -le 10 ] || fail "$n refusals reported"
  grep -qE "refused (1[0-9][0-9]|200) wire-up connections in all|\(128 refused so far\)" "$tmp/err" || fail "no count of the refusals" ;;
stalled_reader)
  # mpirun's output goes to a reader that never reads: SIGINT still ends mpirun at once
  ( "$mpirun" -np 1 sh -c "yes $tmp | head -c 10000000" 2>"$tmp/err"; echo $? >"$tmp/rc" ) | sleep 60 &
  bg=$!
  sleep 1.5 # the pipe is full by now, and mpirun waits to write
  pid=$(pgrep -f "mpirun -np 1 sh -c yes $tmp")
  [ -n "$pid" ] || fail "mpirun is not running"
  t0=$(now_ms)
  kill -INT $pid
  for _ in $(seq 100); do [ -s "$tmp/rc" ] && break; sleep 0.05; done
  within_ms 3000 $(( $(now_ms) - t0 ))
  [ -s "$tmp/rc" ] || fail "mpirun did not end on SIGINT"
  expect_rc 130
  gone_within 2000 ;;
key_not_inherited)
  run -np 2 --timeout 60 "$probe" child-env
  expect_rc 0
  expect_out '^rank 0 child sees no job key$'
  expect_out '^rank 1 child sees no job key$' ;;
*)
  fail "unknown case" ;;
esac
echo "ok [$case]"
