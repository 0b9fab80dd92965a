#!/bin/bash
# Stands in for ssh in the unit tests of plm ssh (the real client and server are tested by
# sshd_launch_test.sh): "fake_ssh.sh [options...] HOST COMMAND" runs COMMAND with /bin/sh as sshd would,
# with SSH_CONNECTION naming HOST. Host names choose a failure:
#   unreachable*  fails as ssh does when it cannot connect (exit 255, message on stderr)
#   noagent*      a host without the launch agent at the given path
host="${@: -2:1}"
command="${@: -1}"
case "$host" in
  unreachable*) echo "ssh: connect to host $host port 22: Connection refused" >&2; exit 255 ;;
  noagent*) command="/nonexistent/tessera_launch_agent" ;;
esac
export SSH_CONNECTION="127.0.0.1 40000 $host 22"
exec /bin/sh -c "$command"
