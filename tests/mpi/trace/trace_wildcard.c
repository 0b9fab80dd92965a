/* Wildcard receives, traced: rank 0 takes every other rank's messages with MPI_ANY_SOURCE and
 * MPI_ANY_TAG — blocking, nonblocking, and matched (MPI_Mprobe/MPI_Mrecv, MPI_Improbe/MPI_Imrecv) —
 * and the trace must name the actual sender, tag and size. Usage: trace_wildcard <log directory> */
#include <sched.h>

#include "trace_log.h"

enum { kPerRank = 4 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    char buf[4096] = {0};
    if (log_rank != 0) {
        for (int i = 0; i < kPerRank; ++i) {
            t_send(buf, 100 * log_rank + i, MPI_BYTE, 0, 20 + i, MPI_COMM_WORLD);
        }
        /* Nothing more goes to rank 0 until it took all of the above: its wildcards would take it. */
        t_recv(buf, 1, MPI_BYTE, 0, 90, MPI_COMM_WORLD);
    } else {
        const int total = kPerRank * (log_size - 1);
        for (int n = 0; n < total; ++n) {
            MPI_Status st;
            if (n % 4 == 0) {
                MPI_Recv(buf, sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                log_received("recv", MPI_COMM_WORLD, &st);
            } else if (n % 4 == 1) {
                MPI_Request rq;
                MPI_Irecv(buf, sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
                MPI_Wait(&rq, &st);
                log_received("irecv", MPI_COMM_WORLD, &st);
            } else if (n % 4 == 2) {
                MPI_Message msg;
                MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
                int bytes = 0;
                MPI_Get_count(&st, MPI_BYTE, &bytes);
                MPI_Mrecv(buf, bytes, MPI_BYTE, &msg, &st);
                log_received("recv", MPI_COMM_WORLD, &st);
            } else {
                MPI_Message msg;
                int flag = 0;
                while (!flag) {
                    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
                    if (!flag) {
                        sched_yield();
                    }
                }
                MPI_Request rq;
                MPI_Imrecv(buf, sizeof buf, MPI_BYTE, &msg, &rq);
                MPI_Wait(&rq, &st);
                log_received("irecv", MPI_COMM_WORLD, &st);
            }
        }
        for (int r = 1; r < log_size; ++r) {
            t_send(buf, 1, MPI_BYTE, r, 90, MPI_COMM_WORLD);
        }
    }
    log_close();
    MPI_Finalize();
    printf("trace_wildcard: rank %d done\n", log_rank);
    return 0;
}
