/* Collectives from several threads at once under MPI_THREAD_MULTIPLE: each of kThreads threads owns a
 * duplicate of MPI_COMM_WORLD and runs blocking, non-blocking and persistent collectives on it while
 * the others run theirs (MPI-4.1 11.6: a communicator's collectives are called in one order, here by
 * one thread; different communicators' at the same time). The values name the thread and the round, so
 * a message taken by another thread's collective shows. The threads then wait, idle but alive, while the
 * main thread calls MPI_Finalize (MPI-4.1 11.6.2 allows it). Usage: coll_threads [rounds] */
#include <pthread.h>

#include "../threads/threads_check.h"

enum { kThreads = 4, kCount = 1000 };

static MPI_Comm comms[kThreads];
static int rounds = 100;

/* The workers' collectives are done (checked by main), and MPI_Finalize has returned. */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_changed = PTHREAD_COND_INITIALIZER;
static int workers_done = 0, finalized = 0;

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm comm = comms[t];
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *in = malloc(sizeof(int) * kCount * (size_t)size), *out = malloc(sizeof(int) * kCount * (size_t)size);
    CHECK(in != NULL && out != NULL, "out of memory");

    /* A persistent allreduce, started once per round. */
    int pin = 0, pout = 0;
    MPI_Request persistent;
    CHECK(MPI_Allreduce_init(&pin, &pout, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &persistent) == MPI_SUCCESS,
          "thread %d: MPI_Allreduce_init", t);

    for (int round = 0; round < rounds; ++round) {
        const int base = t * 100000 + round * 10;
        /* Blocking allreduce, large enough for the tuned algorithms. */
        for (int i = 0; i < kCount; ++i) {
            in[i] = base + rank + i;
        }
        CHECK(MPI_Allreduce(in, out, kCount, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "allreduce");
        for (int i = 0; i < kCount; ++i) {
            const int want = size * (base + i) + size * (size - 1) / 2;
            CHECK(out[i] == want, "thread %d round %d: allreduce[%d] = %d, expected %d", t, round, i, out[i], want);
        }
        /* Blocking bcast from a root that changes. */
        const int root = round % size;
        int value = rank == root ? base + 7 : -1;
        CHECK(MPI_Bcast(&value, 1, MPI_INT, root, comm) == MPI_SUCCESS, "bcast");
        CHECK(value == base + 7, "thread %d round %d: bcast gave %d, expected %d", t, round, value, base + 7);
        /* Non-blocking: an iallreduce and an ialltoall in flight together, then a barrier. */
        MPI_Request rq[2];
        int small = base + rank, sum = -1;
        for (int p = 0; p < size; ++p) {
            in[p] = base + rank * 1000 + p;
        }
        CHECK(MPI_Iallreduce(&small, &sum, 1, MPI_INT, MPI_SUM, comm, &rq[0]) == MPI_SUCCESS, "iallreduce");
        CHECK(MPI_Ialltoall(in, 1, MPI_INT, out, 1, MPI_INT, comm, &rq[1]) == MPI_SUCCESS, "ialltoall");
        CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "waitall");
        CHECK(sum == size * base + size * (size - 1) / 2, "thread %d round %d: iallreduce gave %d", t, round, sum);
        for (int p = 0; p < size; ++p) {
            CHECK(out[p] == base + p * 1000 + rank, "thread %d round %d: ialltoall from %d gave %d, expected %d", t,
                  round, p, out[p], base + p * 1000 + rank);
        }
        MPI_Request barrier;
        CHECK(MPI_Ibarrier(comm, &barrier) == MPI_SUCCESS, "ibarrier");
        CHECK(MPI_Wait(&barrier, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait ibarrier");
        /* The persistent allreduce. */
        pin = base + rank;
        CHECK(MPI_Start(&persistent) == MPI_SUCCESS, "start");
        CHECK(MPI_Wait(&persistent, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait persistent");
        CHECK(pout == size * base + size * (size - 1) / 2, "thread %d round %d: persistent allreduce gave %d", t,
              round, pout);
    }
    MPI_Request_free(&persistent);
    free(in);
    free(out);
    int level = -1, is_main = -1;
    CHECK(MPI_Query_thread(&level) == MPI_SUCCESS && level == MPI_THREAD_MULTIPLE,
          "thread %d: MPI_Query_thread gave %d", t, level);
    CHECK(MPI_Is_thread_main(&is_main) == MPI_SUCCESS && !is_main, "thread %d: MPI_Is_thread_main said yes", t);
    CHECK(MPI_Comm_free(&comms[t]) == MPI_SUCCESS, "thread %d: MPI_Comm_free", t);
    /* Idle until MPI_Finalize has returned in the main thread. */
    pthread_mutex_lock(&state_lock);
    ++workers_done;
    pthread_cond_broadcast(&state_changed);
    while (!finalized) {
        pthread_cond_wait(&state_changed, &state_lock);
    }
    pthread_mutex_unlock(&state_lock);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    rounds = threads_arg(argc, argv, 1, rounds, 1, 1000000, "rounds");
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    }
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        pthread_create(&threads[t], NULL, worker, (void *)(long)t);
    }
    pthread_mutex_lock(&state_lock);
    while (workers_done < kThreads) {
        pthread_cond_wait(&state_changed, &state_lock);
    }
    pthread_mutex_unlock(&state_lock);
    int is_main = 0;
    CHECK(MPI_Is_thread_main(&is_main) == MPI_SUCCESS && is_main, "MPI_Is_thread_main said no in the main thread");
    MPI_Barrier(MPI_COMM_WORLD);
    /* The workers are alive and idle. */
    MPI_Finalize();
    pthread_mutex_lock(&state_lock);
    finalized = 1;
    pthread_cond_broadcast(&state_changed);
    pthread_mutex_unlock(&state_lock);
    for (int t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
    }
    if (world_rank == 0) {
        printf("coll_threads: all checks passed on %d ranks (%d threads, %d rounds, finalized with them idle)\n",
               world_size, kThreads, rounds);
    }
    return 0;
}
