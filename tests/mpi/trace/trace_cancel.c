/* Cancelled requests, traced: a receive nobody sends to is cancelled (MPI_Test_cancelled confirms),
 * next to one that completes; the trace must show the cancellation, not a message.
 * Usage: trace_cancel <log directory> */
#include "trace_log.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    const int next = (log_rank + 1) % log_size, prev = (log_rank + log_size - 1) % log_size;
    int in[2] = {0}, out = log_rank;
    MPI_Request rq[2];
    MPI_Status st;
    MPI_Irecv(&in[0], 1, MPI_INT, prev, 999, MPI_COMM_WORLD, &rq[0]); /* never sent */
    MPI_Irecv(&in[1], 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &rq[1]);
    t_send(&out, 1, MPI_INT, next, 5, MPI_COMM_WORLD);
    MPI_Cancel(&rq[0]);
    MPI_Wait(&rq[0], &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled, "the receive of tag 999 was not cancelled");
    log_message("cancelled", MPI_COMM_WORLD, -1, -1, 0, 0);
    MPI_Wait(&rq[1], &st);
    log_received("irecv", MPI_COMM_WORLD, &st);
    CHECK(in[1] == prev, "received %d from rank %d", in[1], prev);
    t_p2p_barrier(MPI_COMM_WORLD);
    log_close();
    MPI_Finalize();
    printf("trace_cancel: rank %d done\n", log_rank);
    return 0;
}
