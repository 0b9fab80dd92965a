/* Tracing under MPI_THREAD_MULTIPLE (natively, and over the runtime translators): four threads per
 * rank, each on its own duplicate of MPI_COMM_WORLD, send around the ring at the same time, blocking
 * and nonblocking. Every record must still land whole, in time order, in its rank's stream. Usage: trace_threads <log directory> */
#include <pthread.h>

#include "trace_log.h"

enum { kThreads = 4, kRounds = 50 };

static MPI_Comm comms[kThreads];

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm comm = comms[t];
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int round = 0; round < kRounds; ++round) {
        t_ring(comm, 1 + round, round);
        int out[4] = {t, round, 0, 0}, in[4];
        MPI_Request rq[2];
        MPI_Status st[2];
        MPI_Irecv(in, 4, MPI_INT, prev, 1000 + round, comm, &rq[0]);
        MPI_Isend(out, 4, MPI_INT, next, 1000 + round, comm, &rq[1]);
        log_message("isend", comm, next, 1000 + round, 16, 1);
        MPI_Waitall(2, rq, st);
        log_received("irecv", comm, &st[0]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    log_open(argc, argv);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("trace_threads: MPI_THREAD_MULTIPLE not provided; nothing to check\n");
        log_close();
        MPI_Finalize();
        return 0;
    }
    char name[16];
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
        snprintf(name, sizeof name, "thread%d", t);
        log_comm(comms[t], name);
    }
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        pthread_create(&threads[t], NULL, worker, (void *)(long)t);
    }
    for (int t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
    }
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_free(&comms[t]);
    }
    log_close();
    MPI_Finalize();
    printf("trace_threads: rank %d done\n", log_rank);
    return 0;
}
