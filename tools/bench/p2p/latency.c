/* Ping-pong latency between ranks 0 and 1: half the round trip, in microseconds, for each size given
 * (default 8). Plain MPI C: built against Tessera, Open MPI and MPICH by p2p_bench.py. Prints
 * "latency_us <size> <value>" lines from rank 0; each value is the best of 5 repetitions of a loop
 * of at least ~50 ms (after a warm-up). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LATENCY_CLOCK_READS
/* Built so by trace_overhead.py: the clock read and kept at each call's begin and end, as a tracer
 * that times every call must at least do — what tracing cannot get below on this machine. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define CLOCK_NOW() __rdtsc()
#else
#include <time.h>
static unsigned long long clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
#define CLOCK_NOW() clock_now()
#endif
static unsigned long long stamps[512];
static unsigned nstamps;
#define STAMP() (stamps[nstamps++ & 511u] = CLOCK_NOW())
#else
#define STAMP() ((void)0)
#endif

static double pingpong(char *buf, int n, long iters, int rank)
{
    MPI_Status st;
    MPI_Sendrecv(NULL, 0, MPI_BYTE, 1 - rank, 1, NULL, 0, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD, &st);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
            STAMP();
            MPI_Send(buf, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
            STAMP();
            STAMP();
            MPI_Recv(buf, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &st);
            STAMP();
        } else {
            STAMP();
            MPI_Recv(buf, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st);
            STAMP();
            STAMP();
            MPI_Send(buf, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
            STAMP();
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * (double)iters);
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int nsizes = argc > 1 ? argc - 1 : 1;
    for (int s = 0; s < nsizes; ++s) {
        const int n = argc > 1 ? atoi(argv[s + 1]) : 8;
        char *buf = malloc((size_t)n + 1);
        memset(buf, 1, (size_t)n + 1);
        /* Iterations for ~50 ms, measured by a short probe run both ranks agree on. */
        double probe = pingpong(buf, n, 100, rank);
        /* Rank 0's figure for both (point-to-point only: the benchmark runs before collectives exist). */
        MPI_Sendrecv_replace(&probe, 1, MPI_DOUBLE, 1 - rank, 2, 1 - rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double mine = probe;
        if (rank == 1) {
            MPI_Send(&mine, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
            MPI_Recv(&probe, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&mine, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&probe, 1, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
        }
        long iters = (long)(0.05 / (2.0 * probe + 1e-9));
        iters = iters < 100 ? 100 : iters > 2000000 ? 2000000 : iters;
        double best = 1e30;
        for (int r = 0; r < 5; ++r) {
            const double t = pingpong(buf, n, iters, rank);
            best = t < best ? t : best;
        }
        if (rank == 0) {
            printf("latency_us %d %.4f\n", n, best * 1e6);
            fflush(stdout);
        }
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
