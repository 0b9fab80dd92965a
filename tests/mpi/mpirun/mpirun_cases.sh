#!/usr/bin/env bash
# usage: mpirun_cases.sh <mpirun> <launch_env_probe> <case> [<dir of the MPI test programs>]
# mpirun as a user runs it, with shell commands (or the probe) as ranks: one behaviour per case.
# Ranks that must be torn down run "sleep 30.<marker>", a command line unique to this run, so that the
# case can check that none of them is left (and kills any that is, so that a failure leaves nothing).
set -uo pipefail
mpirun=$1 probe=$2 case=$3 mpi_dir=${4:-}
tmp=$(mktemp -d)
marker="30.$$${RANDOM}"
cleanup() {
  pkill -KILL -f "sleep $marker" 2>/dev/null
  [ -n "${jobid:-}" ] && rm -f /dev/shm/tessera-"$jobid"-* 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
unset $(env | sed -n 's/^\(TESSERA_[^=]*\)=.*/\1/p') 2>/dev/null || true

source "$(dirname "${BASH_SOURCE[0]}")/case_lib.sh"
no_leftovers() {
  sleep 0.1
  if pgrep -f "sleep $marker" >/dev/null; then fail "ranks left behind: $(pgrep -af "sleep $marker")"; fi
}

case $case in
exit_code)
  # the first failing rank's status, with a message naming it; the others exit 0
  run -np 3 --oversubscribe sh -c 'exit $((TESSERA_RANK == 1 ? 5 : 0))'
  expect_rc 5
  expect_err "mpirun: rank 1 on host localhost exited with status 5"
  [ "$(grep -c '^mpirun:' "$tmp/err")" = 1 ] || fail "expected exactly one mpirun message"
  run -np 2 sh -c 'exit 0'
  expect_rc 0
  [ ! -s "$tmp/err" ] || fail "a successful job printed to stderr" ;;
exit_code_teardown)
  # a failing rank ends the ranks still running, within a second or two
  t0=$(now_ms)
  run -np 3 --oversubscribe sh -c '[ $TESSERA_RANK = 2 ] && { sleep 0.3; exit 3; }; exec sleep '"$marker"
  within_ms 2000 $(( $(now_ms) - t0 ))
  expect_rc 3
  expect_err "mpirun: rank 2 on host localhost exited with status 3; terminating the job"
  no_leftovers ;;
signal_kill)
  t0=$(now_ms)
  run -np 3 --oversubscribe sh -c '[ $TESSERA_RANK = 1 ] && { sleep 0.3; kill -9 $$; }; exec sleep '"$marker"
  within_ms 2000 $(( $(now_ms) - t0 ))
  expect_rc 137
  expect_err "mpirun: rank 1 on host localhost was killed by signal 9 (Killed); terminating the job"
  no_leftovers ;;
sigint_teardown|sigterm_teardown)
  sig=INT status=130
  [ $case = sigterm_teardown ] && sig=TERM status=143
  # every rank creates a /dev/shm entry named by the job's prefix, then sleeps
  "$mpirun" -np 3 --oversubscribe sh -c \
    'echo $TESSERA_JOBID > '"$tmp"'/jobid.$TESSERA_RANK; : > /dev/shm/tessera-$TESSERA_JOBID-r$TESSERA_RANK; exec sleep '"$marker" \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 100); do
    [ -f "$tmp/jobid.0" ] && jobid=$(cat "$tmp/jobid.0") && [ -n "$jobid" ] &&
      [ "$(ls /dev/shm/tessera-"$jobid"-* 2>/dev/null | wc -l)" = 3 ] && break
    sleep 0.05
  done
  [ -n "${jobid:-}" ] || fail "the ranks did not start"
  [ "$(ls /dev/shm/tessera-"$jobid"-* 2>/dev/null | wc -l)" = 3 ] || fail "the ranks did not create their segments"
  t0=$(now_ms)
  kill -$sig $pid
  wait $pid
  echo $? >"$tmp/rc"
  within_ms 2000 $(( $(now_ms) - t0 ))
  expect_rc $status
  expect_err "mpirun: received signal"
  expect_err "terminating the job"
  no_leftovers
  left=$(ls /dev/shm/tessera-"$jobid"-* 2>/dev/null)
  [ -z "$left" ] || fail "/dev/shm entries left: $left" ;;
shm_sweep_after_success)
  run -np 2 sh -c 'echo $TESSERA_JOBID; : > /dev/shm/tessera-$TESSERA_JOBID-seg$TESSERA_RANK; : > /dev/shm/sem.tessera-$TESSERA_JOBID-s'
  expect_rc 0
  jobid=$(head -1 "$tmp/out")
  [ -n "$jobid" ] || fail "no job id"
  left=$(ls /dev/shm/tessera-"$jobid"-* /dev/shm/sem.tessera-"$jobid"-* 2>/dev/null)
  [ -z "$left" ] || fail "/dev/shm entries left: $left" ;;
export_vars)
  export MPIRUN_TEST_FOO="foo value"
  run -np 2 -x MPIRUN_TEST_FOO -x MPIRUN_TEST_BAZ=qux=1 sh -c 'echo "$TESSERA_RANK:$MPIRUN_TEST_FOO:$MPIRUN_TEST_BAZ"'
  expect_rc 0
  expect_out '^0:foo value:qux=1$'
  expect_out '^1:foo value:qux=1$'
  unset MPIRUN_TEST_UNSET
  run -np 1 -x MPIRUN_TEST_UNSET true
  expect_rc 0
  expect_err "mpirun: warning: -x MPIRUN_TEST_UNSET: MPIRUN_TEST_UNSET is not set"
  run -np 1 -x TESSERA_RANK=7 true
  expect_rc 1
  expect_err "-x TESSERA_RANK: mpirun sets this variable for each rank itself" ;;
launch_env)
  run -np 3 --oversubscribe "$probe"
  expect_rc 0
  for r in 0 1 2; do
    expect_out "^rank=$r size=3 local_rank=$r local_size=3 node_id=0 host=localhost jobid=[0-9]+ singleton=0 key_length=64 bind=none kv_uri=127\.0\.0\.1:[0-9]+$"
  done
  [ "$(grep -oE 'jobid=[0-9]+' "$tmp/out" | sort -u | wc -l)" = 1 ] || fail "ranks disagree on the job id"
  # no --mca, no --tune: no encoded settings
  ! grep -qE ' mca | tune ' "$tmp/out" || fail "settings passed without --mca/--tune" ;;
mca_to_ranks)
  printf 'plm_base_verbose = 0\n' >"$tmp/t.conf"
  (cd "$tmp" && "$mpirun" -np 2 --mca plm_fork_kill_grace 0.5 --mca mca_component_show_load_errors 1 \
     --tune t.conf "$probe" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
  expect_rc 0
  for r in 0 1; do
    expect_out "^rank=$r mca plm_fork_kill_grace=0\.5$"
    expect_out "^rank=$r mca mca_component_show_load_errors=1$"
    expect_out "^rank=$r tune $tmp/t\.conf$"
  done ;;
mca_errors)
  # a misspelled name is warned about with the real one, and the job runs
  run -np 1 --mca plm_fork_kil_grace 1 sh -c "exit 0"
  expect_rc 0
  expect_err 'unknown parameter "plm_fork_kil_grace" set in command line'
  expect_err "plm_fork_kill_grace"
  # a bad value and a bad selection are refused before any rank starts
  run -np 1 --mca plm_fork_kill_grace abc sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "plm_fork_kill_grace"
  expect_err "mpirun: not starting the job"
  run -np 1 --mca plm frok sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "fork"
  run -np 1 --mca plm_fork_kill_grace sh
  expect_rc 1
  [ ! -e "$tmp/started" ] || fail "a rank was started despite the errors" ;;
tag_output)
  run -np 2 --tag-output sh -c 'echo out$TESSERA_RANK; echo err$TESSERA_RANK >&2; printf "partial$TESSERA_RANK"'
  expect_rc 0
  expect_out '^\[[0-9]+,0\]<stdout>: out0$'
  expect_out '^\[[0-9]+,1\]<stdout>: out1$'
  expect_out '^\[[0-9]+,1\]<stdout>: partial1$'
  grep -qE '^\[[0-9]+,1\]<stderr>: err1$' "$tmp/err" || fail "stderr not tagged"
  bad=$(grep -vE '^\[[0-9]+,[01]\]<stdout>: ' "$tmp/out")
  [ -z "$bad" ] || fail "untagged stdout lines: $bad"
  # untagged output: lines whole even under load, nothing lost
  run -np 2 sh -c 'seq 1 20000'
  expect_rc 0
  [ "$(grep -cE '^[0-9]+$' "$tmp/out")" = 40000 ] || fail "lines lost or broken: $(grep -cE '^[0-9]+$' "$tmp/out")"
  [ "$(sort -n "$tmp/out" | uniq -c | awk '$1 != 2' | wc -l)" = 0 ] || fail "some line not seen once per rank"
  # and byte for byte as the rank wrote it, an unfinished last line included
  run -np 1 sh -c 'printf "a\nb"'
  expect_rc 0
  [ "$(od -An -c "$tmp/out" | tr -d ' ')" = 'a\nb' ] || fail "output changed: $(od -c "$tmp/out")" ;;
timeout)
  t0=$(now_ms)
  run -np 2 --timeout 1 sleep "$marker"
  within_ms 3500 $(( $(now_ms) - t0 ))
  expect_rc 124
  expect_err "mpirun: job timed out after 1 s; terminating the job"
  no_leftovers
  run -np 1 --timeout 5 true
  expect_rc 0 ;;
oversubscribe)
  cores=$(nproc)
  run -np $((cores + 1)) true
  expect_rc 1
  expect_err "ranks requested but only"
  expect_err "--oversubscribe"
  run -np $((cores + 1)) --oversubscribe true
  expect_rc 0 ;;
hosts)
  printf '# test hosts\n\nlocalhost slots=3   # this machine\n' >"$tmp/hf"
  run --hostfile "$tmp/hf" sh -c 'echo size=$TESSERA_SIZE'
  expect_rc 0
  [ "$(grep -c '^size=3$' "$tmp/out")" = 3 ] || fail "default -np is not the slot count"
  run -np 4 --machinefile "$tmp/hf" true
  expect_rc 1
  expect_err "4 ranks requested but only 3 slots available (localhost: 3)"
  printf 'localhost slots=x\n' >"$tmp/bad"
  run -np 1 --hostfile "$tmp/bad" true
  expect_rc 1
  expect_err "$tmp/bad:1"
  run -np 2 --host localhost:2 true
  expect_rc 0
  run -np 3 -H localhost:2 true
  expect_rc 1
  expect_err "only 2 slots" ;;
options)
  run --foo true
  expect_rc 1
  expect_err "mpirun: unknown option --foo (see mpirun --help)"
  run -np 2
  expect_rc 1
  expect_err "no program to run"
  run --help
  expect_rc 0
  expect_out '^Usage: mpirun'
  run --version
  expect_rc 0
  expect_out '^mpirun \(Tessera MPI\) [0-9]+\.[0-9]+'
  mpiexec="$(dirname "$mpirun")/mpiexec"
  "$mpiexec" -n 1 sh -c 'echo via mpiexec' >"$tmp/out" 2>"$tmp/err" || fail "mpiexec failed"
  expect_out '^via mpiexec$' ;;
not_found)
  run -np 2 /nonexistent/program
  expect_rc 127
  expect_err "mpirun: could not start rank 0 on host localhost" ;;
bindings)
  run -np 2 --bind-to core --report-bindings "$probe" --bind
  expect_rc 0
  expect_err "mpirun: rank 0 bound to core 0 (PUs "
  expect_err "mpirun: rank 1 bound to core"
  [ "$(grep -c 'bound-as-told' "$tmp/out")" = 2 ] || fail "ranks not bound as told"
  run -np 2 --report-bindings "$probe" --bind
  expect_rc 0
  expect_err "mpirun: rank 0 not bound"
  expect_out '^rank=0 bind=none ' ;;
bindings_mpi)
  # an MPI program: MPI_Init applies the binding mpirun reported
  run -np 3 --oversubscribe --bind-to core --report-bindings "$mpi_dir/mpi_binding"
  expect_rc 0
  for r in 0 1 2; do
    pus=$(sed -n "s/^mpirun: rank $r bound to core [0-9]* (PUs \(.*\))$/\1/p" "$tmp/err")
    [ -n "$pus" ] || fail "no binding reported for rank $r"
    expect_out "^rank $r bind=$pus cpus_allowed=[0-9,-]+ ok$"
  done
  # placement starts at core 0 (the round-robin over cores is checked in test_mpirun_units)
  first=$(sed -n 's/^mpirun: rank 0 bound to core \([0-9]*\) .*/\1/p' "$tmp/err")
  [ "$first" = 0 ] || fail "rank 0 is not on core 0" ;;
mpi_early_exit)
  # exiting 0 before MPI_Finalize while others run is a failure of an MPI job (status 1) ...
  t0=$(now_ms)
  run -np 3 --oversubscribe "$mpi_dir/mpi_early_exit" early 0
  within_ms 2000 $(( $(now_ms) - t0 ))
  expect_rc 1
  expect_err "mpirun: rank 0 on host localhost exited with status 0 before MPI_Finalize; terminating the job"
  # ... a non-zero status is propagated as it is ...
  run -np 2 "$mpi_dir/mpi_early_exit" early 6
  expect_rc 6
  expect_err "mpirun: rank 0 on host localhost exited with status 6 before MPI_Finalize; terminating the job"
  # ... and a rank that finalized may leave before the others
  run -np 3 --oversubscribe "$mpi_dir/mpi_early_exit" finalized
  expect_rc 0
  [ ! -s "$tmp/err" ] || fail "a normal job printed to stderr" ;;
mpmd)
  # two programs, one MPI_COMM_WORLD: each rank knows its program's index (MPI_APPNUM)
  cores=$(nproc)
  universe=$(( cores > 3 ? cores : 3 ))
  run -np 2 --oversubscribe "$mpi_dir/mpi_appnum_a" : -np 1 "$mpi_dir/mpi_appnum_b"
  expect_rc 0
  expect_out "^a rank=0 size=3 appnum=0 universe=$universe appnum_sum=1\$"
  expect_out "^a rank=1 size=3 appnum=0 universe=$universe appnum_sum=1\$"
  expect_out "^b rank=2 size=3 appnum=1 universe=$universe appnum_sum=1\$"
  [ "$(wc -l <"$tmp/out")" = 3 ] || fail "expected three ranks"
  # not one rank of the first program with the rest as its arguments
  run -np 1 --oversubscribe sh -c 'echo "first $TESSERA_RANK $TESSERA_APPNUM $#"' : -np 1 -host localhost sh -c 'echo "second $TESSERA_RANK $TESSERA_APPNUM"'
  expect_rc 0
  expect_out '^first 0 0 0$'
  expect_out '^second 1 1$'
  run -np 1 true :
  expect_rc 1
  expect_err "mpirun: application context 2 has no program" ;;
wdir_path)
  mkdir -p "$tmp/w/sub" "$tmp/bin"
  (cd "$tmp/w" && "$mpirun" -np 1 -wdir sub pwd >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
  expect_rc 0
  [ "$(cat "$tmp/out")" = "$tmp/w/sub" ] || fail "-wdir sub did not start the rank in $tmp/w/sub"
  printf '#!/bin/sh\necho found-by-path\n' >"$tmp/bin/mpirun_test_tool"
  chmod +x "$tmp/bin/mpirun_test_tool"
  run -np 1 -path "$tmp/bin" mpirun_test_tool
  expect_rc 0
  expect_out '^found-by-path$'
  run -np 1 mpirun_test_tool
  expect_rc 127
  run -np 1 -arch x86_64 true
  expect_rc 1
  expect_err "mpirun: -arch x86_64: mpirun cannot choose hosts by architecture" ;;
genv)
  run -np 2 --oversubscribe -genv MPIRUN_TEST_G "a b" -env MPIRUN_TEST_E 1 sh -c 'echo "ctx0:$MPIRUN_TEST_G:$MPIRUN_TEST_E"' \
      : -np 1 sh -c 'echo "ctx1:$MPIRUN_TEST_G:${MPIRUN_TEST_E:-unset}"'
  expect_rc 0
  [ "$(grep -c '^ctx0:a b:1$' "$tmp/out")" = 2 ] || fail "-genv/-env not seen by both ranks of the first context"
  expect_out '^ctx1:a b:unset$'
  run -np 1 -genv TESSERA_RANK 3 true
  expect_rc 1
  expect_err "TESSERA_RANK: mpirun sets this variable for each rank itself" ;;
output_filename)
  run -np 2 --output-filename "$tmp/o" sh -c 'echo out$TESSERA_RANK; echo err$TESSERA_RANK >&2'
  expect_rc 0
  [ ! -s "$tmp/out" ] || fail "output went to mpirun's stdout too"
  for r in 0 1; do
    [ "$(cat "$tmp/o/1/rank.$r/stdout")" = "out$r" ] || fail "rank $r's stdout file is wrong"
    [ "$(cat "$tmp/o/1/rank.$r/stderr")" = "err$r" ] || fail "rank $r's stderr file is wrong"
  done
  : >"$tmp/file"
  run -np 1 --output-filename "$tmp/file" true
  expect_rc 1
  expect_err "mpirun: --output-filename $tmp/file: cannot create" ;;
display_map)
  run -np 2 --oversubscribe --display-map true : -np 1 sh -c true
  expect_rc 0
  expect_err "mpirun: rank 0 on host localhost (local rank 0 of 3), application context 0: true"
  expect_err "mpirun: rank 2 on host localhost (local rank 2 of 3), application context 1: sh" ;;
per_node)
  run --host localhost:1 -N 3 --allow-run-as-root sh -c 'echo "$TESSERA_RANK of $TESSERA_SIZE"'
  expect_rc 0
  [ "$(grep -c 'of 3$' "$tmp/out")" = 3 ] || fail "-N 3 did not start three ranks on the host"
  run --host localhost -ppn 2 -np 3 true
  expect_rc 1
  expect_err "mpirun: 3 ranks requested but 2 per host on 1 host leave room for 2"
  run --host localhost --map-by ppr:2:node sh -c 'echo r$TESSERA_RANK'
  expect_rc 0
  [ "$(grep -c '^r' "$tmp/out")" = 2 ] || fail "--map-by ppr:2:node did not start two ranks"
  run -np 1 --display-mpa true
  expect_rc 1
  expect_err "mpirun: unknown option --display-mpa (see mpirun --help; did you mean --display-map?)" ;;
stdin_rank0)
  echo x | "$mpirun" -np 1 cat >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  [ "$(cat "$tmp/out")" = x ] || fail "rank 0 did not get mpirun's stdin"
  # only rank 0 by default; --stdin all and none
  echo x | "$mpirun" -np 2 --oversubscribe cat >"$tmp/out" 2>"$tmp/err"
  [ "$(cat "$tmp/out")" = x ] || fail "stdin was not given to rank 0 alone"
  echo x | "$mpirun" -np 2 --oversubscribe --stdin all cat >"$tmp/out" 2>"$tmp/err"
  [ "$(grep -c '^x$' "$tmp/out")" = 2 ] || fail "--stdin all did not give it to both ranks"
  echo x | "$mpirun" -np 2 --oversubscribe --stdin 1 sh -c 'echo "$TESSERA_RANK:$(cat)"' >"$tmp/out" 2>"$tmp/err"
  expect_out '^1:x$'
  expect_out '^0:$'
  echo x | "$mpirun" -np 1 --stdin none cat >"$tmp/out" 2>"$tmp/err"
  [ ! -s "$tmp/out" ] || fail "--stdin none still forwarded"
  # mpirun's end of input is the rank's
  printf a | "$mpirun" -np 1 sh -c 'cat; echo END' >"$tmp/out" 2>"$tmp/err"
  [ "$(cat "$tmp/out")" = aEND ] || fail "end of input not passed on: $(cat "$tmp/out")" ;;
stdin_large)
  head -c $((10 * 1024 * 1024)) /dev/urandom >"$tmp/in"
  "$mpirun" -np 1 sh -c "cat > $tmp/copy" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  cmp "$tmp/in" "$tmp/copy" || fail "10 MiB of stdin did not arrive byte for byte"
  # through a pipe too, to a rank that reads slowly at first
  cat "$tmp/in" | "$mpirun" -np 1 sh -c "sleep 0.5; cat > $tmp/copy" >"$tmp/out" 2>"$tmp/err"
  cmp "$tmp/in" "$tmp/copy" || fail "10 MiB of piped stdin did not arrive byte for byte" ;;
stdin_others)
  # rank 1 reads /dev/null: end of input at once, while rank 0 still waits for mpirun's
  t0=$(now_ms)
  { sleep 3; echo late; } | "$mpirun" -np 2 --oversubscribe sh -c \
    'if [ $TESSERA_RANK = 1 ]; then cat; echo "eof1 $(( $(date +%s%N) / 1000000 ))"; else read l; echo "got $l"; fi' \
    >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  expect_out '^got late$'
  t1=$(sed -n 's/^eof1 //p' "$tmp/out")
  [ -n "$t1" ] || fail "rank 1 never saw the end of its input"
  within_ms 2000 $(( t1 - t0 )) ;;
stdin_ssh)
  # ranks on another host (127.0.0.2, through the fake ssh client and the real launch agent) get
  # mpirun's stdin through the agent's channel, end of input included
  ssh=(--host 127.0.0.2:2 --mca plm_ssh_agent "$(dirname "${BASH_SOURCE[0]}")/../../unit/plm_ssh/fake_ssh.sh")
  printf x | "$mpirun" "${ssh[@]}" -np 1 cat >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  [ "$(cat "$tmp/out")" = x ] || fail "the remote rank 0 did not get mpirun's stdin: '$(cat "$tmp/out")'"
  [ ! -s "$tmp/err" ] || fail "mpirun said: $(cat "$tmp/err")"
  head -c $((10 * 1024 * 1024)) /dev/urandom >"$tmp/in"
  "$mpirun" "${ssh[@]}" -np 1 sh -c "cat > $tmp/copy" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  cmp "$tmp/in" "$tmp/copy" || fail "10 MiB of stdin did not reach the remote rank byte for byte"
  # a remote rank that reads late: the input waits in bounded buffers, none of it is lost
  cat "$tmp/in" | "$mpirun" "${ssh[@]}" -np 1 sh -c "sleep 1; cat > $tmp/copy" >"$tmp/out" 2>"$tmp/err"
  cmp "$tmp/in" "$tmp/copy" || fail "10 MiB of piped stdin did not reach a slow remote rank byte for byte"
  # --stdin 0: remote rank 1 sees the end of its input at once, while remote rank 0 waits for mpirun's
  t0=$(now_ms)
  { sleep 3; echo late; } | "$mpirun" "${ssh[@]}" -np 2 --stdin 0 sh -c \
    'if [ $TESSERA_RANK = 1 ]; then cat; echo "eof1 $(( $(date +%s%N) / 1000000 ))"; else read l; echo "got $l"; fi' \
    >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"
  expect_rc 0
  expect_out '^got late$'
  t1=$(sed -n 's/^eof1 //p' "$tmp/out")
  [ -n "$t1" ] || fail "remote rank 1 never saw the end of its input"
  within_ms 2500 $(( t1 - t0 )) ;;
mca_ranges)
  # a value out of its parameter's range, from any source, stops mpirun before any rank starts
  run -np 2 --mca btl_tcp_links 99 sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "btl_tcp_links: value 99 from command line (--mca btl_tcp_links) is not in 1..16"
  expect_err "mpirun: not starting the job: fix the MCA settings above"
  [ "$(grep -c 'btl_tcp_links' "$tmp/err")" = 1 ] || fail "the range error was not reported exactly once"
  TESSERA_MCA_btl_tcp_eager_limit=10 run -np 1 sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "btl_tcp_eager_limit: value 10 from environment"
  expect_err "must be at least 64"
  run -np 1 --mca plm_fork_kill_grace -5 sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "plm_fork_kill_grace: value -5"
  printf 'btl_tcp_links = 0\n' >"$tmp/r.conf"
  run -np 1 --tune "$tmp/r.conf" sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "$tmp/r.conf"
  run -np 1 --mca plm_ssh_wait_slice 0.5 sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "plm_ssh_wait_slice: value 0.5"
  expect_err "(--mca plm_ssh_wait_slice) is not in 0.001..0.1"
  run -np 1 --mca plm_base_sentinel_settle -1 sh -c ": > $tmp/started"
  expect_rc 1
  expect_err "plm_base_sentinel_settle: value -1"
  [ ! -e "$tmp/started" ] || fail "a rank was started despite a value out of range"
  # an unknown name: one warning, mpirun's, not one more per rank
  run -np 2 --mca btl_tcp_linkz 2 "$mpi_dir/mpi_appnum_a"
  expect_rc 0
  expect_err 'did you mean: btl_tcp_links?'
  [ "$(grep -c 'unknown parameter "btl_tcp_linkz"' "$tmp/err")" = 1 ] || fail "the unknown name was warned about more than once" ;;
*)
  fail "unknown case" ;;
esac
exit 0
