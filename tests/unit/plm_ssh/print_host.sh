#!/bin/sh
# A "rank" for the mpirun-over-sshd check: where mpirun says it runs, and the ssh connection it came by.
echo "TESSERA_HOST=$TESSERA_HOST SSH_CONNECTION=$SSH_CONNECTION"
