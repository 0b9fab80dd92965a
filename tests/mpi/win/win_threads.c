/* Windows from several threads at once under MPI_THREAD_MULTIPLE: each of kThreads threads owns a
 * duplicate of MPI_COMM_WORLD and creates, fences, puts into, gets from and frees windows on it, over
 * and over, while the others do the same with theirs. The values name the thread and the round, so an
 * operation that reached another thread's window shows. Usage: win_threads [rounds] */
#include "../threads/threads_check.h"

enum { kThreads = 4, kSlots = 16 };

static MPI_Comm comms[kThreads];
static int rounds = 50;

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm comm = comms[t];
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int round = 0; round < rounds; ++round) {
        int memory[kSlots];
        for (int i = 0; i < kSlots; ++i) {
            memory[i] = -1;
        }
        MPI_Win win;
        CHECK(MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, comm, &win) == MPI_SUCCESS,
              "thread %d: MPI_Win_create", t);
        const int value = t * 100000 + round * 100 + rank;
        int got = -2;
        CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS, "fence");
        CHECK(MPI_Put(&value, 1, MPI_INT, next, t, 1, MPI_INT, win) == MPI_SUCCESS, "put");
        CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS, "fence");
        CHECK(MPI_Get(&got, 1, MPI_INT, prev, t, 1, MPI_INT, win) == MPI_SUCCESS, "get");
        CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS, "fence");
        const int want = t * 100000 + round * 100 + prev;
        CHECK(memory[t] == want, "thread %d round %d: slot %d holds %d, expected %d", t, round, t, memory[t], want);
        for (int i = 0; i < kSlots; ++i) {
            CHECK(i == t || memory[i] == -1, "thread %d round %d: slot %d was written (%d)", t, round, i, memory[i]);
        }
        /* prev's slot t holds what prev's left neighbour put there. */
        const int want_got = t * 100000 + round * 100 + (prev + size - 1) % size;
        CHECK(got == want_got, "thread %d round %d: get gave %d, expected %d", t, round, got, want_got);
        CHECK(MPI_Win_free(&win) == MPI_SUCCESS, "thread %d: MPI_Win_free", t);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    rounds = threads_arg(argc, argv, 1, rounds, 1, 1000000, "rounds");
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    }
    threads_run(kThreads, worker);
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_free(&comms[t]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) {
        printf("win_threads: all checks passed on %d ranks (%d threads, %d rounds)\n", world_size, kThreads, rounds);
    }
    MPI_Finalize();
    return 0;
}
