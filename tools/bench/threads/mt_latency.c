/* Multi-threaded ping-pong latency between ranks 0 and 1: thread t of one rank ping-pongs with thread
 * t of the other on its own tag, all threads at once, for about 0.2 s (rank 0's thread marks its last
 * message; a runtime whose threads serialise still ends in time). Usage: mt_latency THREADS [SIZE...]
 * (default 8, at least 1). Prints "mt_latency_us <size> <value>" from rank 0: half the round trip
 * averaged over the threads, the best of 5 repetitions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_common.h"

static void *pingpong(void *arg)
{
    mt_task *task = arg;
    char *buf = calloc((size_t)task->size + 1, 1);
    const int peer = 1 - task->rank, tag = 100 + task->thread;
    /* One exchange outside the timing, then all threads of this rank start together. */
    MPI_Sendrecv(buf, task->size, MPI_BYTE, peer, tag, buf, task->size, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    pthread_barrier_wait(task->start);
    const double t0 = MPI_Wtime();
    long i = 0;
    for (int last = 0; !last; ++i) {
        if (task->rank == 0) {
            last = MPI_Wtime() - t0 > 0.2;
            buf[0] = (char)last;
            MPI_Send(buf, task->size, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
            MPI_Recv(buf, task->size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, task->size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            last = buf[0];
            MPI_Send(buf, task->size, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        }
    }
    task->iters = i;
    task->seconds = MPI_Wtime() - t0;
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank = 0;
    if (!mt_init(&argc, &argv, &rank)) {
        return 0;
    }
    const int nthreads = mt_threads(argc, argv, "mt_latency");
    const int nsizes = argc > 2 ? argc - 2 : 1;
    for (int s = 0; s < nsizes; ++s) {
        const int size = argc > 2 ? atoi(argv[s + 2]) : 8;
        if (size < 1) {
            fprintf(stderr, "mt_latency: sizes must be at least 1 byte (the first carries the stop mark), not %d\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        double best = 1e30;
        for (int r = 0; r < 5; ++r) {
            mt_task tasks[64];
            for (int t = 0; t < nthreads; ++t) {
                tasks[t] = (mt_task){.thread = t, .nthreads = nthreads, .rank = rank, .size = size};
            }
            MPI_Barrier(MPI_COMM_WORLD);
            mt_run(tasks, nthreads, pingpong);
            double mean = 0;
            for (int t = 0; t < nthreads; ++t) {
                mean += tasks[t].seconds / (2.0 * (double)tasks[t].iters) / nthreads;
            }
            best = mean < best ? mean : best;
        }
        if (rank == 0) {
            printf("mt_latency_us %d %.4f\n", size, best * 1e6);
            fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
