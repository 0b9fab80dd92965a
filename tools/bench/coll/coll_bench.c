/* Collective latency: barrier, bcast, allreduce and alltoall for each size given in bytes (default
 * 8 B to 4 MiB). Plain MPI C, built against Tessera, Open MPI and MPICH by coll_bench.py. Prints
 * "<collective> <bytes> <microseconds>" lines from rank 0: the time of one operation, the slowest
 * rank's average over a loop of at least ~50 ms, best of 3 repetitions. Sizes are per process for
 * bcast (the message), allreduce (the vector, of doubles, or of chars with -t char: MPI_CHAR with
 * MPI_SUM, as widely used benchmark suites reduce by default) and alltoall (each block sent to one
 * peer); barrier runs once, with size 0.
 *
 * usage: coll_bench [-c barrier,bcast,allreduce,alltoall] [-t double|char] [size...] */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARRIER, BCAST, ALLREDUCE, ALLTOALL, NCOLL };
static const char *names[NCOLL] = {"barrier", "bcast", "allreduce", "alltoall"};

static char *sbuf, *rbuf;
static MPI_Datatype reduce_type; /* MPI_DOUBLE or MPI_CHAR */
static size_t reduce_size;

static void one(int coll, size_t bytes, int nprocs, int iter)
{
    switch (coll) {
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case BCAST: /* the root moves round, as applications' broadcasts and pipelines do */
        MPI_Bcast(sbuf, (int)bytes, MPI_BYTE, iter % nprocs, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, (int)(bytes / reduce_size), reduce_type, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(sbuf, (int)bytes, MPI_BYTE, rbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        break;
    }
}

/* Seconds per operation: the slowest rank's average over `iters`. */
static double timed(int coll, size_t bytes, int nprocs, long iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i)
        one(coll, bytes, nprocs, (int)i);
    double t = (MPI_Wtime() - t0) / (double)iters, slowest = 0;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char **argv)
{
    int rank = 0, nprocs = 1, enabled[NCOLL] = {1, 1, 1, 1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int first_size = 1;
    reduce_type = MPI_DOUBLE;
    reduce_size = sizeof(double);
    while (first_size + 1 < argc && argv[first_size][0] == '-') {
        if (strcmp(argv[first_size], "-c") == 0) {
            for (int c = 0; c < NCOLL; ++c)
                enabled[c] = strstr(argv[first_size + 1], names[c]) != NULL;
        } else if (strcmp(argv[first_size], "-t") == 0 && strcmp(argv[first_size + 1], "char") == 0) {
            reduce_type = MPI_CHAR;
            reduce_size = 1;
        } else if (!(strcmp(argv[first_size], "-t") == 0 && strcmp(argv[first_size + 1], "double") == 0)) {
            if (rank == 0)
                fprintf(stderr, "coll_bench: unknown option %s %s\n", argv[first_size], argv[first_size + 1]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        first_size += 2;
    }
    size_t sizes[64];
    int nsizes = 0;
    for (int a = first_size; a < argc && nsizes < 64; ++a)
        sizes[nsizes++] = (size_t)strtoull(argv[a], NULL, 10);
    if (nsizes == 0) { /* 8 B to 4 MiB */
        for (size_t s = 8; s < (4u << 20); s *= 8)
            sizes[nsizes++] = s;
        sizes[nsizes++] = 4u << 20;
    }
    size_t largest = 8;
    for (int s = 0; s < nsizes; ++s)
        largest = sizes[s] > largest ? sizes[s] : largest;
    /* alltoall needs a block per peer; first touch before timing */
    sbuf = malloc(largest * (size_t)nprocs);
    rbuf = malloc(largest * (size_t)nprocs);
    for (size_t i = 0; i < largest * (size_t)nprocs / sizeof(double); ++i) {
        ((double *)sbuf)[i] = 1.0;
        ((double *)rbuf)[i] = 0.0;
    }
    for (int c = 0; c < NCOLL; ++c) {
        if (!enabled[c])
            continue;
        for (int s = 0; s < nsizes; ++s) {
            const size_t bytes = c == BARRIER ? 0 : sizes[s];
            if (c == BARRIER && s > 0)
                break;
            if (c == ALLREDUCE && bytes < reduce_size)
                continue;
            for (int w = 0; w < 3; ++w)
                one(c, bytes, nprocs, w); /* warm-up: connections, buffers, algorithm state */
            /* The loop's length from a probe of at least 10 ms: a few operations are no measure when
             * ranks outnumber cores, where one of them may wait out another process's time slice. */
            long iters = 1;
            double probe = timed(c, bytes, nprocs, iters);
            while (probe * (double)iters < 0.01 && iters < 1000000) {
                iters *= 4;
                probe = timed(c, bytes, nprocs, iters);
            }
            iters = (long)(0.05 / (probe + 1e-9));
            iters = iters < 3 ? 3 : iters > 1000000 ? 1000000 : iters;
            double best = 1e30;
            for (int r = 0; r < 3; ++r) {
                const double t = timed(c, bytes, nprocs, iters);
                best = t < best ? t : best;
            }
            if (rank == 0) {
                printf("%s %zu %.4f\n", names[c], bytes, best * 1e6);
                fflush(stdout);
            }
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
