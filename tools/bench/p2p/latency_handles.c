/* Ping-pong latency through created handles: MPI_Irecv/MPI_Isend/MPI_Wait on a duplicated
 * communicator, so that every message looks up a created communicator and encodes and checks request
 * handles (what docs/objects.md's handle scheme costs), next to the blocking ping-pong on
 * MPI_COMM_WORLD of latency.c. Plain MPI C. Prints from rank 0, for each size given (default 8):
 *   latency_us <size> <us>            blocking MPI_Send/MPI_Recv on MPI_COMM_WORLD
 *   handles_latency_us <size> <us>    MPI_Irecv + MPI_Isend + MPI_Waitall on a duplicate
 * half the round trip, the best of 5 repetitions of a loop of at least ~50 ms after a warm-up.
 * On 1 rank it runs self_loop instead, a fixed number of MPI_Irecv + MPI_Isend + MPI_Waitall to itself
 * on a duplicate (argument: iterations, default 100000), which waits for no other process: its
 * instruction count under `valgrind --tool=callgrind --toggle-collect=self_loop` is what one message's
 * handle work costs, free of the machine's load. Prints "self_us <iterations> <us per iteration>". */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pingpong_world(char *buf, int n, long iters, int rank)
{
    MPI_Status st;
    MPI_Sendrecv(NULL, 0, MPI_BYTE, 1 - rank, 1, NULL, 0, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD, &st);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
            MPI_Send(buf, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(buf, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st);
            MPI_Send(buf, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * (double)iters);
}

static double pingpong_handles(char *buf, char *rbuf, int n, long iters, int rank, MPI_Comm comm)
{
    MPI_Request req[2];
    MPI_Sendrecv(NULL, 0, MPI_BYTE, 1 - rank, 1, NULL, 0, MPI_BYTE, 1 - rank, 1, comm, MPI_STATUS_IGNORE);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
            MPI_Irecv(rbuf, n, MPI_BYTE, 1, 9, comm, &req[0]);
            MPI_Isend(buf, n, MPI_BYTE, 1, 9, comm, &req[1]);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        } else {
            MPI_Irecv(rbuf, n, MPI_BYTE, 0, 9, comm, &req[0]);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            MPI_Isend(buf, n, MPI_BYTE, 0, 9, comm, &req[1]);
            MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * (double)iters);
}

void self_loop(char *buf, char *rbuf, long iters, MPI_Comm comm);
void self_loop(char *buf, char *rbuf, long iters, MPI_Comm comm)
{
    MPI_Request req[2];
    for (long i = 0; i < iters; ++i) {
        MPI_Irecv(rbuf, 8, MPI_BYTE, 0, 9, comm, &req[0]);
        MPI_Isend(buf, 8, MPI_BYTE, 0, 9, comm, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

/* Rank 0's value on both ranks. */
static double agree(double v, int rank)
{
    MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    (void)rank;
    return v;
}

static long iterations(double probe)
{
    long iters = (long)(0.05 / (2.0 * probe + 1e-9));
    return iters < 100 ? 100 : iters > 2000000 ? 2000000 : iters;
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 1) {
        const long iters = argc > 1 ? atol(argv[1]) : 100000;
        char buf[8] = {1}, rbuf[8];
        self_loop(buf, rbuf, 1000, dup);
        const double t0 = MPI_Wtime();
        self_loop(buf, rbuf, iters, dup);
        printf("self_us %ld %.4f\n", iters, (MPI_Wtime() - t0) * 1e6 / (double)iters);
        MPI_Comm_free(&dup);
        MPI_Finalize();
        return 0;
    }
    const int nsizes = argc > 1 ? argc - 1 : 1;
    for (int s = 0; s < nsizes; ++s) {
        const int n = argc > 1 ? atoi(argv[s + 1]) : 8;
        char *buf = malloc((size_t)n + 1), *rbuf = malloc((size_t)n + 1);
        memset(buf, 1, (size_t)n + 1);
        memset(rbuf, 1, (size_t)n + 1);
        const long iw = iterations(agree(pingpong_world(buf, n, 1000, rank), rank));
        const long ih = iterations(agree(pingpong_handles(buf, rbuf, n, 1000, rank, dup), rank));
        double best_w = 1e30, best_h = 1e30;
        for (int r = 0; r < 5; ++r) { /* interleaved, so that both see the same load */
            const double tw = pingpong_world(buf, n, iw, rank);
            const double th = pingpong_handles(buf, rbuf, n, ih, rank, dup);
            best_w = tw < best_w ? tw : best_w;
            best_h = th < best_h ? th : best_h;
        }
        if (rank == 0) {
            printf("latency_us %d %.4f\nhandles_latency_us %d %.4f\n", n, best_w * 1e6, n, best_h * 1e6);
            fflush(stdout);
        }
        free(buf);
        free(rbuf);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
