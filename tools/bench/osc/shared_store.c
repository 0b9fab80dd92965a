/* Direct stores into a shared window's neighbour part against memcpy into private memory, in one
 * process, interleaved. Two ranks make a window with MPI_Win_allocate_shared; rank 0 gets rank 1's part
 * with MPI_Win_shared_query and, for each size, times in turn (every round A B C D, `rounds` rounds):
 *   A memcpy from a private buffer into another private buffer (the anchor),
 *   B memcpy from the private buffer into rank 1's part,
 *   C a loop of 8-byte stores into rank 1's part,
 *   D the same loop into the private buffer.
 * Each timing repeats the copy until it lasts at least 20 ms. Prints, per size, the median and min-max
 * of each in GB/s and the medians of B/A and C/D over the rounds. Rank 1 waits in a barrier meanwhile.
 * usage: shared_store [rounds] [sizes in KiB...] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void store_loop(uint64_t *dst, size_t words, uint64_t v)
{
    volatile uint64_t *d = dst; /* the stores themselves, not a memset the compiler would substitute */
    for (size_t i = 0; i < words; ++i) {
        d[i] = v + i;
    }
}

/* GB/s of `what` on `bytes`: repeated until 20 ms passed. */
static double rate(int what, char *priv_dst, char *shared_dst, const char *src, size_t bytes)
{
    long reps = 0;
    const double t0 = now();
    double t = t0;
    do {
        switch (what) {
        case 0: memcpy(priv_dst, src, bytes); break;
        case 1: memcpy(shared_dst, src, bytes); break;
        case 2: store_loop((uint64_t *)shared_dst, bytes / 8, (uint64_t)reps); break;
        default: store_loop((uint64_t *)priv_dst, bytes / 8, (uint64_t)reps); break;
        }
        ++reps;
        t = now();
    } while (t - t0 < 0.02);
    return (double)bytes * reps / (t - t0) / 1e9;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) {
            fprintf(stderr, "shared_store: run on 2 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int rounds = argc > 1 ? atoi(argv[1]) : 9;
    size_t kib[16] = {64, 1024, 8192};
    int nsizes = 3;
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc && nsizes < 16; ++i) {
            kib[nsizes++] = (size_t)atol(argv[i]);
        }
    }
    size_t largest = 0;
    for (int i = 0; i < nsizes; ++i) {
        largest = kib[i] * 1024 > largest ? kib[i] * 1024 : largest;
    }
    char *part = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(rank == 1 ? (MPI_Aint)largest : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &part, &win);
    if (rank == 1) {
        memset(part, 1, largest); /* first touch by its owner */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Aint bytes = 0;
        int unit = 0;
        char *theirs = NULL;
        MPI_Win_shared_query(win, 1, &bytes, &unit, &theirs);
        char *src = malloc(largest), *dst = malloc(largest);
        memset(src, 2, largest);
        memset(dst, 3, largest);
        double (*r)[4] = malloc(sizeof(double[4]) * rounds);
        double *ba = malloc(sizeof(double) * rounds), *cd = malloc(sizeof(double) * rounds);
        printf("%-8s %-24s %-24s %-24s %-24s %-6s %-6s\n", "KiB", "A memcpy private", "B memcpy shared",
               "C stores shared", "D stores private", "B/A", "C/D");
        for (int s = 0; s < nsizes; ++s) {
            const size_t n = kib[s] * 1024;
            for (int k = 0; k < rounds; ++k) {
                for (int what = 0; what < 4; ++what) {
                    r[k][what] = rate(what, dst, theirs, src, n);
                }
                ba[k] = r[k][1] / r[k][0];
                cd[k] = r[k][2] / r[k][3];
            }
            printf("%-8zu", kib[s]);
            for (int what = 0; what < 4; ++what) {
                double v[64];
                const int m = rounds < 64 ? rounds : 64;
                for (int k = 0; k < m; ++k) {
                    v[k] = r[k][what];
                }
                const double med = median(v, m);
                char cell[64];
                snprintf(cell, sizeof cell, "%.1f (%.1f-%.1f)", med, v[0], v[m - 1]);
                printf(" %-24s", cell);
            }
            printf(" %-6.2f %-6.2f\n", median(ba, rounds), median(cd, rounds));
        }
        free(src);
        free(dst);
        free(r);
        free(ba);
        free(cd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
