/* Translator overhead benchmark: plain MPI C, built natively against Open MPI or MPICH and against
 * Tessera's mpi.h (then translated to the same runtime), see translator_bench.py. Two ranks. Prints one
 * "name value" line per figure, from rank 0:
 *   comm_rank_ns     ns per MPI_Comm_rank in a tight loop
 *   isend_irecv_ns   ns per MPI_Isend + MPI_Irecv + MPI_Waitall(2) to itself (three calls)
 *   latency_us       8-byte ping-pong between ranks 0 and 1, half the round trip in microseconds
 * Each figure is the best of 5 repetitions of a loop long enough to take tens of milliseconds, so that
 * a descheduled moment on a shared machine does not count; the script takes medians across runs.
 * usage: translator_bench [scale [rank|isend|pingpong]]: with a loop named, only that loop runs (for
 * translator_attribution.py, which profiles one loop at a time), and "calls_<loop> <n>" says how many
 * MPI calls it made. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 5 };

static double best_of(double (*loop)(long), long iterations)
{
    double best = 1e30;
    for (int r = 0; r < REPS; ++r) {
        const double t = loop(iterations);
        best = t < best ? t : best;
    }
    return best;
}

static volatile int sink;

static double comm_rank_loop(long n)
{
    int rank = 0;
    const double t0 = MPI_Wtime();
    for (long i = 0; i < n; ++i) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        sink = rank;
    }
    return (MPI_Wtime() - t0) / (double)n;
}

static int self_rank;

static double isend_irecv_loop(long n)
{
    char out[8] = {0}, in[8];
    MPI_Request reqs[2];
    const double t0 = MPI_Wtime();
    for (long i = 0; i < n; ++i) {
        MPI_Irecv(in, 8, MPI_BYTE, self_rank, 5, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(out, 8, MPI_BYTE, self_rank, 5, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    }
    return (MPI_Wtime() - t0) / (double)n;
}

static double pingpong(long n, int rank)
{
    char buf[8] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < n; ++i) {
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * (double)n);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    const long scale = argc > 1 ? atol(argv[1]) : 1; /* a quick run: 0 */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    self_rank = rank;
    const long rank_iters = scale > 0 ? 2000000 * scale : 20000;
    const long isend_iters = scale > 0 ? 200000 * scale : 2000;
    const long pp_iters = scale > 0 ? 50000 * scale : 500;

    const char *only = argc > 2 ? argv[2] : NULL;
    double rank_ns = 0.0, isend_ns = 0.0, latency = 0.0;
    long calls = 0;
    if (only == NULL || strcmp(only, "rank") == 0) {
        comm_rank_loop(rank_iters / 10); /* warm-up */
        rank_ns = best_of(comm_rank_loop, rank_iters) * 1e9;
        calls = (rank_iters / 10 + REPS * rank_iters) * 1;
    }
    if (only == NULL || strcmp(only, "isend") == 0) {
        isend_irecv_loop(isend_iters / 10);
        isend_ns = best_of(isend_irecv_loop, isend_iters) * 1e9;
        calls = (isend_iters / 10 + REPS * isend_iters) * 3;
    }
    if (size >= 2 && (only == NULL || strcmp(only, "pingpong") == 0)) {
        pingpong(pp_iters / 10, rank);
        latency = 1e30;
        for (int r = 0; r < REPS; ++r) {
            const double t = pingpong(pp_iters, rank);
            latency = t < latency ? t : latency;
        }
        calls = (pp_iters / 10 + REPS * pp_iters) * 2; /* each rank: a send and a receive per round trip */
    }
    if (rank == 0) {
        printf("comm_rank_ns %.3f\nisend_irecv_ns %.3f\nlatency_us %.4f\n", rank_ns, isend_ns, latency * 1e6);
        if (only != NULL)
            printf("calls_%s %ld\n", only, calls);
    }
    MPI_Finalize();
    return 0;
}
