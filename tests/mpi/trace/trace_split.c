/* Communicators other than MPI_COMM_WORLD, traced: a split whose rank order is reversed (key = -rank:
 * rank i of the new communicator is not world rank i), a duplicate of MPI_COMM_WORLD (same ranks, another communicator), messages and a
 * collective on each, nonblocking receives on the split one, and a message on the split one that is
 * never received. The trace must map their local ranks to the right processes.
 * Usage: trace_split <log directory> */
#include "trace_log.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    MPI_Comm split, dup;
    MPI_Comm_split(MPI_COMM_WORLD, log_size >= 4 ? log_rank % 2 : 0, -log_rank, &split);
    log_comm(split, "split");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    log_comm(dup, "dup");
    int srank, ssize;
    MPI_Comm_rank(split, &srank);
    MPI_Comm_size(split, &ssize);
    CHECK(ssize < 2 || world_of(split, 0) != (log_size >= 4 ? log_rank % 2 : 0), "the split kept world order");

    t_ring(split, 5, 60);
    t_ring(dup, 6, 61);
    t_ring(MPI_COMM_WORLD, 7, 62);

    /* Nonblocking on the split: receive from the previous rank of the split, send to the next. */
    int out[3] = {1, 2, 3}, in[3];
    MPI_Request rq[2];
    MPI_Status st[2];
    MPI_Irecv(in, 3, MPI_INT, (srank + ssize - 1) % ssize, 63, split, &rq[0]);
    MPI_Isend(out, 3, MPI_INT, (srank + 1) % ssize, 63, split, &rq[1]);
    log_message("isend", split, (srank + 1) % ssize, 63, 12, 1);
    MPI_Waitall(2, rq, st);
    log_received("irecv", split, &st[0]);

    int value = 0;
    MPI_Send(&value, 1, MPI_INT, (srank + 1) % ssize, 64, split); /* small: complete without a receiver */
    log_message("send", split, (srank + 1) % ssize, 64, 4, 0);

    MPI_Bcast(&value, 1, MPI_INT, 0, split);
    log_collective("BCAST", 0, srank == 0 ? 4 : 0, srank == 0 ? 0 : 4, split);
    MPI_Barrier(dup);
    log_collective("BARRIER", -1, 0, 0, dup);

    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    log_close();
    MPI_Finalize();
    printf("trace_split: rank %d done\n", log_rank);
    return 0;
}
