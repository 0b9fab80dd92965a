/* Ping-pong of a derived datatype between ranks 0 and 1: a vector of doubles, `blocklen` of every
 * `stride`, whose data (what is sent) is `bytes` long; both sides send and receive with that type.
 * GB/s (10^9 bytes/s) of data one way: bytes / half the round trip. Prints
 * "ddt_vector_<blocklen>_<stride>_gbs <bytes> <value>" from rank 0, the best of 5 repetitions of
 * ~50 ms or more, for each (bytes, blocklen, stride) triple given (default 16 MiB, 1, 2).
 *
 * usage: ddt_pingpong [bytes blocklen stride]... */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pingpong(double *buf, MPI_Datatype t, int rounds, int rank)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < rounds; ++i) {
        if (rank == 0) {
            MPI_Send(buf, 1, t, 1, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, 1, t, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 1, t, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 1, t, 0, 7, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / rounds / 2;
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int cases = argc > 3 ? (argc - 1) / 3 : 1;
    for (int c = 0; c < cases; ++c) {
        const long bytes = argc > 3 ? atol(argv[1 + 3 * c]) : 16L << 20;
        const int blocklen = argc > 3 ? atoi(argv[2 + 3 * c]) : 1;
        const int stride = argc > 3 ? atoi(argv[3 + 3 * c]) : 2;
        const int blocks = (int)(bytes / (long)sizeof(double) / blocklen);
        MPI_Datatype t;
        MPI_Type_vector(blocks, blocklen, stride, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        const size_t elements = (size_t)blocks * (size_t)stride;
        double *buf = malloc(elements * sizeof(double));
        for (size_t i = 0; i < elements; ++i) {
            buf[i] = (double)i; /* first touch before timing */
        }
        double one = pingpong(buf, t, 2, rank); /* warm-up: connections, a compiled type */
        int rounds = (int)(0.05 / one);
        rounds = rounds < 2 ? 2 : rounds > 100000 ? 100000 : rounds;
        MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
        double best = 1e30;
        for (int r = 0; r < 5; ++r) {
            const double s = pingpong(buf, t, rounds, rank);
            best = s < best ? s : best;
        }
        if (rank == 0) {
            printf("ddt_vector_%d_%d_gbs %ld %.3f\n", blocklen, stride, (long)blocks * blocklen * 8,
                   (double)blocks * blocklen * 8 / best / 1e9);
            fflush(stdout);
        }
        free(buf);
        MPI_Type_free(&t);
    }
    MPI_Finalize();
    return 0;
}
