/* Communication-computation overlap, as the OSU non-blocking benchmarks define it: each of 2 ranks
 * posts a 4 MiB MPI_Irecv and MPI_Isend to the other and an MPI_Iallreduce of 1 MiB of doubles,
 * computes (no MPI call) for as long as the communication alone takes, then waits for all three.
 * overlap = 1 - (overall - compute) / pure communication, in percent, clamped to 0..100.
 * Prints "overlap_pct 0 <value>", "pure_us 0 <value>" and "overall_us 0 <value>" from rank 0:
 * medians of 15 repetitions. Any thread level: progress while computing is the runtime's own. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kReps = 15 };
static const int kMessage = 4 << 20;
static const int kReduce = (1 << 20) / (int)sizeof(double);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Arithmetic for `seconds`, reading the clock (not MPI_Wtime) so that no MPI call can progress. */
static volatile double sink;
static void compute(double seconds)
{
    const double end = now() + seconds;
    double x = 1.0;
    while (now() < end) {
        for (int i = 0; i < 1000; ++i) {
            x = x * 1.0000001 + 1e-9;
        }
    }
    sink = x;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, kReps, sizeof *v, cmp);
    return v[kReps / 2];
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) {
            fprintf(stderr, "overlap: runs on 2 ranks, not %d\n", size);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *out = malloc((size_t)kMessage), *in = malloc((size_t)kMessage);
    double *red_in = malloc(sizeof(double) * (size_t)kReduce), *red_out = malloc(sizeof(double) * (size_t)kReduce);
    memset(out, rank + 1, (size_t)kMessage);
    for (int i = 0; i < kReduce; ++i) {
        red_in[i] = i + rank;
    }
    const int peer = 1 - rank;
    double pure[kReps], overall[kReps], pct[kReps];
    for (int pass = 0; pass < 2; ++pass) {
        for (int r = 0; r < kReps; ++r) {
            MPI_Request rq[3];
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = now();
            MPI_Irecv(in, kMessage, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(out, kMessage, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &rq[1]);
            MPI_Iallreduce(red_in, red_out, kReduce, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[2]);
            if (pass == 1) {
                compute(pure[r]);
            }
            MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
            const double t = now() - t0;
            if (in[kMessage - 1] != (char)(peer + 1) || red_out[kReduce - 1] != 2.0 * (kReduce - 1) + 1.0) {
                fprintf(stderr, "overlap: wrong data on rank %d\n", rank);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            if (pass == 0) {
                pure[r] = t; /* the compute time of the same repetition in the second pass */
            } else {
                overall[r] = t;
                double o = 1.0 - (t - pure[r]) / pure[r];
                pct[r] = 100.0 * (o < 0 ? 0 : o > 1 ? 1 : o);
            }
        }
        if (pass == 0) {
            /* Both ranks compute for the same time: the larger of their medians. */
            double mine = median(memcpy((double[kReps]){0}, pure, sizeof pure)), both = 0;
            MPI_Allreduce(&mine, &both, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            for (int r = 0; r < kReps; ++r) {
                pure[r] = both;
            }
        }
    }
    if (rank == 0) {
        printf("overlap_pct 0 %.1f\npure_us 0 %.1f\noverall_us 0 %.1f\n", median(pct), pure[0] * 1e6, median(overall) * 1e6);
    }
    free(out);
    free(in);
    free(red_in);
    free(red_out);
    MPI_Finalize();
    return 0;
}
