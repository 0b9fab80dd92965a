/* Tracing under MPI_THREAD_MULTIPLE (natively, and over the runtime translators): four threads per
 * rank, each on its own duplicate of MPI_COMM_WORLD, send around the ring at the same time, blocking
 * and nonblocking, and run collectives (an allreduce and a broadcast each round). Every record must
 * still land whole, in time order, in its rank's stream, and every message and collective be counted.
 * Fails when MULTIPLE is not provided. Usage: trace_threads <log directory> */
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
        CHECK(in[0] == t && in[1] == round, "thread %d round %d: received (%d, %d)", t, round, in[0], in[1]);
        int sum[4] = {0, 0, 0, 0};
        MPI_Allreduce(out, sum, 4, MPI_INT, MPI_SUM, comm);
        log_collective("ALLREDUCE", -1, 16, 16, comm);
        CHECK(sum[0] == t * size && sum[1] == round * size, "thread %d round %d: allreduce gave (%d, %d)", t, round,
              sum[0], sum[1]);
        const int root = (t + round) % size;
        int b[10] = {0};
        if (rank == root) {
            b[9] = 1 + round;
        }
        MPI_Bcast(b, 10, MPI_INT, root, comm);
        log_collective("BCAST", root, rank == root ? 40 : 0, rank == root ? 0 : 40, comm);
        CHECK(b[9] == 1 + round, "thread %d round %d: broadcast gave %d", t, round, b[9]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    log_open(argc, argv);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE asked, %d provided", provided);
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
