/* Streaming bandwidth from rank 0 to rank 1: windows of 64 non-blocking sends, one small
 * acknowledgement per window. GB/s (10^9 bytes/s) for each size given (default 4 MiB). Prints
 * "bandwidth_gbs <size> <value>" from rank 0: the best of 5 repetitions of about 0.5 GB each
 * (at least two windows). "-b BYTES" before the sizes sets the bytes per repetition (at least one
 * window): on a loaded host a slow implementation would otherwise take minutes. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWindow = 64 };

static double stream(char *buf, int n, int windows, int rank)
{
    MPI_Request rq[kWindow];
    char ack = 0;
    MPI_Sendrecv(NULL, 0, MPI_BYTE, 1 - rank, 1, NULL, 0, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double t0 = MPI_Wtime();
    for (int w = 0; w < windows; ++w) {
        for (int i = 0; i < kWindow; ++i) {
            if (rank == 0) {
                MPI_Isend(buf, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &rq[i]);
            } else {
                MPI_Irecv(buf, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &rq[i]);
            }
        }
        MPI_Waitall(kWindow, rq, MPI_STATUSES_IGNORE);
        if (rank == 0) {
            MPI_Recv(&ack, 1, MPI_BYTE, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Send(&ack, 1, MPI_BYTE, 0, 6, MPI_COMM_WORLD);
        }
    }
    const double t = MPI_Wtime() - t0;
    return (double)n * kWindow * windows / t / 1e9;
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double budget = 0.5e9;
    int first = 1;
    int min_windows = 2;
    if (argc > 2 && strcmp(argv[1], "-b") == 0) {
        budget = atof(argv[2]);
        first = 3;
        min_windows = 1;
    }
    const int nsizes = argc > first ? argc - first : 1;
    for (int s = 0; s < nsizes; ++s) {
        const int n = argc > first ? atoi(argv[s + first]) : 4 << 20;
        char *buf = malloc((size_t)n);
        memset(buf, 1, (size_t)n); /* first touch before timing */
        const double bytes_per_window = (double)n * kWindow;
        int windows = (int)(budget / bytes_per_window);
        windows = windows < min_windows ? min_windows : windows > 2000 ? 2000 : windows;
        stream(buf, n, 1, rank);
        double best = 0.0;
        for (int r = 0; r < 5; ++r) {
            const double g = stream(buf, n, windows, rank);
            best = g > best ? g : best;
        }
        if (rank == 0) {
            printf("bandwidth_gbs %d %.3f\n", n, best);
            fflush(stdout);
        }
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
