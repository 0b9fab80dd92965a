/* One-sided latency and bandwidth in the manner of the OSU one-sided benchmarks, plain MPI C, built
 * against Tessera, Open MPI and MPICH by osc_bench.py. Rank 0 is the origin, rank 1 the target; a
 * passive target waits in MPI_Barrier (as the OSU programs' targets do), so it serves requests only from
 * its progress engine. Prints "<test> <bytes> <microseconds>" lines from rank 0: the time of one
 * operation with its synchronisation, best of 3 loops of at least ~50 ms each.
 *
 * tests (all on one window of the largest size, created with -w allocate (default) or -w create):
 *   put_lock, get_lock    MPI_Win_lock(SHARED) + the operation + MPI_Win_unlock, per operation
 *   put_flush, get_flush  one lock epoch; the operation + MPI_Win_flush, per operation
 *   put_fence, get_fence  both ranks: MPI_Win_fence + (rank 0) the operation + MPI_Win_fence
 *   put_bw, get_bw        one lock epoch; 64 operations then MPI_Win_flush; time per operation
 *   acc_flush             one lock epoch; MPI_Accumulate(MPI_SUM) + MPI_Win_flush; elements MPI_CHAR
 *                         as the OSU program sums them (-t int: MPI_INT)
 *   fop_flush, cas_flush  one lock epoch; MPI_Fetch_and_op(MPI_SUM) / MPI_Compare_and_swap on one
 *                         MPI_LONG_LONG + MPI_Win_flush (size ignored: 8 bytes)
 *
 * usage: osc_bench [-c test,test,...] [-w allocate|create] [-t char|int] [size...] */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PUT_LOCK, GET_LOCK, PUT_FLUSH, GET_FLUSH, PUT_FENCE, GET_FENCE, PUT_BW, GET_BW, ACC_FLUSH,
       FOP_FLUSH, CAS_FLUSH, NTEST };
static const char *names[NTEST] = {"put_lock", "get_lock", "put_flush", "get_flush", "put_fence",
                                   "get_fence", "put_bw", "get_bw", "acc_flush", "fop_flush", "cas_flush"};
enum { BW_WINDOW = 64 };

static char *obuf, *rbuf;
static MPI_Win win;
static int rank;
static MPI_Datatype acc_type = MPI_CHAR;
static int acc_size = 1;

static int passive(int test) { return test != PUT_FENCE && test != GET_FENCE; }
static int locks_per_op(int test) { return test == PUT_LOCK || test == GET_LOCK; }

/* One timed loop; returns rank 0's seconds per operation, known to both ranks. */
static double timed(int test, size_t bytes, long iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    const int n = (int)bytes;
    if (passive(test) && rank == 0) {
        if (!locks_per_op(test))
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        for (long i = 0; i < iters; ++i) {
            switch (test) {
            case PUT_LOCK:
                MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
                MPI_Put(obuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_unlock(1, win);
                break;
            case GET_LOCK:
                MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
                MPI_Get(rbuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_unlock(1, win);
                break;
            case PUT_FLUSH:
                MPI_Put(obuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_flush(1, win);
                break;
            case GET_FLUSH:
                MPI_Get(rbuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_flush(1, win);
                break;
            case PUT_BW:
                for (int w = 0; w < BW_WINDOW; ++w)
                    MPI_Put(obuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_flush(1, win);
                break;
            case GET_BW:
                for (int w = 0; w < BW_WINDOW; ++w)
                    MPI_Get(rbuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                MPI_Win_flush(1, win);
                break;
            case ACC_FLUSH:
                MPI_Accumulate(obuf, n / acc_size, acc_type, 1, 0, n / acc_size, acc_type, MPI_SUM, win);
                MPI_Win_flush(1, win);
                break;
            case FOP_FLUSH:
                MPI_Fetch_and_op(obuf, rbuf, MPI_LONG_LONG, 1, 0, MPI_SUM, win);
                MPI_Win_flush(1, win);
                break;
            case CAS_FLUSH:
                MPI_Compare_and_swap(obuf, obuf + 8, rbuf, MPI_LONG_LONG, 1, 0, win);
                MPI_Win_flush(1, win);
                break;
            }
        }
        if (!locks_per_op(test))
            MPI_Win_unlock(1, win);
    } else if (!passive(test)) {
        for (long i = 0; i < iters; ++i) {
            MPI_Win_fence(0, win);
            if (rank == 0) {
                if (test == PUT_FENCE)
                    MPI_Put(obuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
                else
                    MPI_Get(rbuf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
            }
            MPI_Win_fence(0, win);
        }
    }
    double t = (MPI_Wtime() - t0) / (double)iters;
    if (test == PUT_BW || test == GET_BW)
        t /= BW_WINDOW;
    MPI_Barrier(MPI_COMM_WORLD); /* the passive target serves rank 0's loop from here */
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

int main(int argc, char **argv)
{
    int nprocs = 1, enabled[NTEST], allocate = 1;
    for (int c = 0; c < NTEST; ++c)
        enabled[c] = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (nprocs != 2) {
        if (rank == 0)
            fprintf(stderr, "osc_bench: needs 2 processes, has %d\n", nprocs);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int first_size = 1;
    while (first_size + 1 < argc && argv[first_size][0] == '-') {
        const char *opt = argv[first_size], *val = argv[first_size + 1];
        if (strcmp(opt, "-c") == 0) {
            for (int c = 0; c < NTEST; ++c) {
                const char *hit = strstr(val, names[c]);
                const size_t len = strlen(names[c]);
                enabled[c] = hit && (hit == val || hit[-1] == ',') && (hit[len] == ',' || hit[len] == 0);
            }
        } else if (strcmp(opt, "-w") == 0 && (strcmp(val, "allocate") == 0 || strcmp(val, "create") == 0)) {
            allocate = strcmp(val, "allocate") == 0;
        } else if (strcmp(opt, "-t") == 0 && (strcmp(val, "char") == 0 || strcmp(val, "int") == 0)) {
            acc_type = strcmp(val, "int") == 0 ? MPI_INT : MPI_CHAR;
            acc_size = strcmp(val, "int") == 0 ? (int)sizeof(int) : 1;
        } else {
            if (rank == 0)
                fprintf(stderr, "osc_bench: unknown option %s %s\n", opt, val);
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
    size_t largest = 16;
    for (int s = 0; s < nsizes; ++s)
        largest = sizes[s] > largest ? sizes[s] : largest;
    obuf = calloc(largest, 1);
    rbuf = calloc(largest, 1);
    void *base = NULL;
    if (allocate) {
        MPI_Win_allocate((MPI_Aint)largest, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else {
        base = calloc(largest, 1);
        MPI_Win_create(base, (MPI_Aint)largest, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    memset(base, 0, largest); /* first touch before timing; nobody accesses the window yet */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 0; c < NTEST; ++c) {
        if (!enabled[c])
            continue;
        for (int s = 0; s < nsizes; ++s) {
            const size_t bytes = c == FOP_FLUSH || c == CAS_FLUSH ? 8 : sizes[s];
            if ((c == FOP_FLUSH || c == CAS_FLUSH) && s > 0)
                break;
            if (c == ACC_FLUSH && bytes < (size_t)acc_size)
                continue;
            timed(c, bytes, 3); /* warm-up: connections, registrations, lock service */
            /* The loop's length from a probe of at least 10 ms: with the target's progress engine in
             * play, a few operations are no measure. */
            const double ops = c == PUT_BW || c == GET_BW ? BW_WINDOW : 1; /* per loop iteration */
            long iters = 1;
            double probe = timed(c, bytes, iters);
            while (probe * ops * (double)iters < 0.01 && iters < 1000000) {
                iters *= 4;
                probe = timed(c, bytes, iters);
            }
            iters = (long)(0.05 / (probe * ops + 1e-9));
            iters = iters < 3 ? 3 : iters > 1000000 ? 1000000 : iters;
            double best = 1e30;
            for (int r = 0; r < 3; ++r) {
                const double t = timed(c, bytes, iters);
                best = t < best ? t : best;
            }
            if (rank == 0) {
                printf("%s %zu %.4f\n", names[c], bytes, best * 1e6);
                fflush(stdout);
            }
        }
    }
    MPI_Win_free(&win);
    if (!allocate)
        free(base);
    free(obuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
