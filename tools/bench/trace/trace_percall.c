/* The cost of one traced MPI_Send + MPI_Recv pair, measured in one process (a message to itself):
 * without the other rank's latency in the figure, a few nanoseconds of tracing show. Plain MPI C.
 * Prints "pair_ns <bytes> <value>": the best of 25 loops of <iterations> pairs (default 40000): on a shared machine the best loop is the one
 * nothing preempted.
 * usage: trace_percall [bytes] [iterations] */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int bytes = argc > 1 ? atoi(argv[1]) : 8;
    const long iters = argc > 2 ? atol(argv[2]) : 40000;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc((size_t)bytes + 1, 1);
    double best = 1e30;
    for (int r = 0; r < 25; ++r) {
        MPI_Status st;
        const double t0 = MPI_Wtime();
        for (long i = 0; i < iters; ++i) {
            MPI_Send(buf, bytes, MPI_BYTE, rank, 9, MPI_COMM_WORLD); /* small: buffered eagerly */
            MPI_Recv(buf, bytes, MPI_BYTE, rank, 9, MPI_COMM_WORLD, &st);
        }
        const double t = (MPI_Wtime() - t0) / (double)iters;
        best = t < best ? t : best;
    }
    if (rank == 0) {
        printf("pair_ns %d %.2f\n", bytes, best * 1e9);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
