/* Multi-threaded message rate from rank 0 to rank 1: thread t of rank 0 sends windows of 64
 * non-blocking 8-byte messages to thread t of rank 1 on its own tag, which acknowledges each window
 * with one empty message, for about 0.2 s (the first message of rank 0's last window says it is the
 * last). Usage: mt_msgrate THREADS. Prints "mt_msgrate_mps <threads> <value>" from
 * rank 0: messages per second summed over the threads, the best of 5 repetitions. */
#include <stdio.h>
#include <stdlib.h>

#include "mt_common.h"

enum { kWindow = 64, kSize = 8 };

static void *stream(void *arg)
{
    mt_task *task = arg;
    char buf[kWindow][kSize] = {{0}};
    MPI_Request rq[kWindow];
    const int peer = 1 - task->rank, tag = 100 + task->thread;
    MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, tag, NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pthread_barrier_wait(task->start);
    const double t0 = MPI_Wtime();
    long w = 0;
    for (int last = 0; !last; ++w) {
        if (task->rank == 0) {
            last = MPI_Wtime() - t0 > 0.2;
            buf[0][0] = (char)last;
        }
        for (int i = 0; i < kWindow; ++i) {
            if (task->rank == 0) {
                MPI_Isend(buf[i], kSize, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[i]);
            } else {
                MPI_Irecv(buf[i], kSize, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[i]);
            }
        }
        MPI_Waitall(kWindow, rq, MPI_STATUSES_IGNORE);
        if (task->rank == 0) {
            MPI_Recv(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            last = buf[0][0];
            MPI_Send(NULL, 0, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        }
    }
    task->iters = w;
    task->seconds = MPI_Wtime() - t0;
    return NULL;
}

int main(int argc, char **argv)
{
    int rank = 0;
    if (!mt_init(&argc, &argv, &rank)) {
        return 0;
    }
    const int nthreads = mt_threads(argc, argv, "mt_msgrate");
    double best = 0;
    for (int r = 0; r < 5; ++r) {
        mt_task tasks[64];
        for (int t = 0; t < nthreads; ++t) {
            tasks[t] = (mt_task){.thread = t, .nthreads = nthreads, .rank = rank, .size = kSize};
        }
        MPI_Barrier(MPI_COMM_WORLD);
        mt_run(tasks, nthreads, stream);
        double rate = 0;
        for (int t = 0; t < nthreads; ++t) {
            rate += (double)tasks[t].iters * kWindow / tasks[t].seconds;
        }
        best = rate > best ? rate : best;
    }
    if (rank == 0) {
        printf("mt_msgrate_mps %d %.0f\n", nthreads, best);
    }
    MPI_Finalize();
    return 0;
}
