/* Nonblocking and persistent point-to-point, traced: rounds of MPI_Irecv/MPI_Isend (MPI_Issend,
 * MPI_Ibsend too) between ring neighbours completed by each Wait/Test form, statuses given and ignored;
 * persistent MPI_Send_init/MPI_Recv_init started three times with MPI_Startall; a send freed with
 * MPI_Request_free while active. Usage: trace_nonblocking <log directory> [rounds of the six forms] */
#include <sched.h>

#include "trace_log.h"

enum { kMessages = 6 };

/* Completes every request by form `how`; logs each receive from its status. */
static void complete(int how, MPI_Request *rq, int n, const int *is_recv)
{
    MPI_Status st[2 * kMessages], got[2 * kMessages];
    int done[2 * kMessages] = {0}, left = n;
    while (left > 0) {
        int index = MPI_UNDEFINED, flag = 0, outcount = 0, indices[2 * kMessages];
        switch (how) {
        case 0: /* Waitall, statuses given */
            MPI_Waitall(n, rq, st);
            for (int i = 0; i < n; ++i) {
                done[i] = 1;
            }
            left = 0;
            break;
        case 1: /* Waitany */
            MPI_Waitany(n, rq, &index, &got[0]);
            st[index] = got[0];
            done[index] = 1;
            --left;
            break;
        case 2: /* Waitsome */
            MPI_Waitsome(n, rq, &outcount, indices, got);
            for (int k = 0; k < outcount; ++k) {
                st[indices[k]] = got[k];
                done[indices[k]] = 1;
            }
            left -= outcount;
            break;
        case 3: /* Test each in turn */
            for (int i = 0; i < n; ++i) {
                if (!done[i]) {
                    MPI_Test(&rq[i], &flag, &st[i]);
                    if (flag) {
                        done[i] = 1;
                        --left;
                    }
                }
            }
            break;
        case 4: /* Testany */
            MPI_Testany(n, rq, &index, &flag, &got[0]);
            if (flag && index != MPI_UNDEFINED) {
                st[index] = got[0];
                done[index] = 1;
                --left;
            }
            break;
        default: /* Testall */
            MPI_Testall(n, rq, &flag, st);
            if (flag) {
                left = 0;
                for (int i = 0; i < n; ++i) {
                    done[i] = 1;
                }
            }
            break;
        }
        if (left > 0) {
            sched_yield();
        }
    }
    for (int i = 0; i < n; ++i) {
        if (is_recv[i]) {
            log_received("irecv", MPI_COMM_WORLD, &st[i]);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    const int next = (log_rank + 1) % log_size, prev = (log_rank + log_size - 1) % log_size;
    static char attached[1 << 16];
    MPI_Buffer_attach(attached, sizeof attached);
    int out[kMessages][512] = {{0}}, in[kMessages][512];
    const int rounds = argc > 2 ? atoi(argv[2]) : 1;

    for (int how = 0; how < 6 * rounds; ++how) {
        MPI_Request rq[2 * kMessages];
        int is_recv[2 * kMessages];
        for (int i = 0; i < kMessages; ++i) {
            MPI_Irecv(in[i], 512, MPI_INT, prev, 100 * how + i, MPI_COMM_WORLD, &rq[i]);
            is_recv[i] = 1;
        }
        for (int i = 0; i < kMessages; ++i) {
            const int count = 1 + 100 * i, tag = 100 * how + i;
            if (i % 3 == 0) {
                MPI_Isend(out[i], count, MPI_INT, next, tag, MPI_COMM_WORLD, &rq[kMessages + i]);
            } else if (i % 3 == 1) {
                MPI_Issend(out[i], count, MPI_INT, next, tag, MPI_COMM_WORLD, &rq[kMessages + i]);
            } else {
                MPI_Ibsend(out[i], count, MPI_INT, next, tag, MPI_COMM_WORLD, &rq[kMessages + i]);
            }
            log_message("isend", MPI_COMM_WORLD, next, tag, count * 4L, 1);
            is_recv[kMessages + i] = 0;
        }
        complete(how % 6, rq, 2 * kMessages, is_recv);
    }

    /* Persistent: each start is a new operation with a request id of its own. */
    MPI_Request prq[2];
    int is_recv[2] = {1, 0};
    MPI_Recv_init(in[0], 512, MPI_INT, prev, 900, MPI_COMM_WORLD, &prq[0]);
    MPI_Send_init(out[0], 77, MPI_INT, next, 900, MPI_COMM_WORLD, &prq[1]);
    for (int round = 0; round < 3; ++round) {
        MPI_Startall(2, prq);
        log_message("isend", MPI_COMM_WORLD, next, 900, 77 * 4, 1);
        complete(round, prq, 2, is_recv);
    }
    MPI_Request_free(&prq[0]);
    MPI_Request_free(&prq[1]);

    /* Statuses ignored by the caller: the trace still learns the source, tag and size. */
    MPI_Request both[2];
    MPI_Irecv(in[2], 512, MPI_INT, prev, 902, MPI_COMM_WORLD, &both[0]);
    MPI_Isend(out[2], 9, MPI_INT, next, 902, MPI_COMM_WORLD, &both[1]);
    log_message("isend", MPI_COMM_WORLD, next, 902, 36, 1);
    MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
    log_message("irecv", MPI_COMM_WORLD, prev, 902, 36, 1);

    /* An active send handed to MPI_Request_free still arrives. */
    MPI_Request freed;
    MPI_Isend(out[1], 3, MPI_INT, next, 901, MPI_COMM_WORLD, &freed);
    log_message("isend", MPI_COMM_WORLD, next, 901, 12, 1);
    MPI_Request_free(&freed);
    t_recv(in[1], 3, MPI_INT, prev, 901, MPI_COMM_WORLD);

    void *detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    t_p2p_barrier(MPI_COMM_WORLD);
    log_close();
    MPI_Finalize();
    printf("trace_nonblocking: rank %d done\n", log_rank);
    return 0;
}
