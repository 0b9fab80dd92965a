/* Collectives, traced: rooted and unrooted operations, MPI_IN_PLACE, a nonblocking one; each logged
 * with the bytes the trace framework must report (sent: what this rank's send side holds, received:
 * what lands in its receive buffer).
 * Usage: trace_collective <log directory> */
#include "trace_log.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    log_open(argc, argv);
    const int n = log_size, me = log_rank;
    int ibuf[256] = {0}, ibuf2[256] = {0}, counts[64], displs[64];
    double dbuf[256] = {0}, dbuf2[256] = {0};

    MPI_Barrier(MPI_COMM_WORLD);
    log_collective("BARRIER", -1, 0, 0, MPI_COMM_WORLD);

    const int root = n - 1;
    MPI_Bcast(ibuf, 10, MPI_INT, root, MPI_COMM_WORLD);
    log_collective("BCAST", root, me == root ? 40 : 0, me == root ? 0 : 40, MPI_COMM_WORLD);

    MPI_Reduce(dbuf, dbuf2, 5, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    log_collective("REDUCE", 0, 40, me == 0 ? 40 : 0, MPI_COMM_WORLD);

    MPI_Allreduce(ibuf, ibuf2, 8, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    log_collective("ALLREDUCE", -1, 32, 32, MPI_COMM_WORLD);

    MPI_Allreduce(MPI_IN_PLACE, ibuf2, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    log_collective("ALLREDUCE", -1, 24, 24, MPI_COMM_WORLD);

    MPI_Gather(ibuf, 3, MPI_INT, ibuf2, 3, MPI_INT, 0, MPI_COMM_WORLD);
    log_collective("GATHER", 0, 12, me == 0 ? 12L * n : 0, MPI_COMM_WORLD);

    long total = 0;
    for (int i = 0; i < n; ++i) {
        counts[i] = i + 1;
        displs[i] = (int)total;
        total += i + 1;
    }
    MPI_Allgatherv(ibuf, me + 1, MPI_INT, ibuf2, counts, displs, MPI_INT, MPI_COMM_WORLD);
    log_collective("ALLGATHERV", -1, 4L * (me + 1), 4 * total, MPI_COMM_WORLD);

    MPI_Alltoall(ibuf, 2, MPI_INT, ibuf2, 2, MPI_INT, MPI_COMM_WORLD);
    log_collective("ALLTOALL", -1, 8L * n, 8L * n, MPI_COMM_WORLD);

    MPI_Scatter(dbuf, 4, MPI_DOUBLE, dbuf2, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    log_collective("SCATTER", 0, me == 0 ? 32L * n : 0, 32, MPI_COMM_WORLD);

    MPI_Request rq;
    MPI_Ibcast(dbuf, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    log_collective("BCAST", 0, me == 0 ? 24 : 0, me == 0 ? 0 : 24, MPI_COMM_WORLD);

    /* Point-to-point between them, so that the trace holds both kinds. */
    t_ring(MPI_COMM_WORLD, 16, 7);
    log_close();
    MPI_Finalize();
    printf("trace_collective: rank %d done\n", log_rank);
    return 0;
}
