/* One window used by several threads at once under MPI_THREAD_MULTIPLE, which MPI allows for one-sided
 * calls inside an epoch. In one MPI_Win_lock_all epoch each of kThreads threads per rank, over and over
 * and at every rank: adds 1 to the first counter with MPI_Fetch_and_op and to the second with
 * MPI_Accumulate, puts a stamp naming (rank, thread, round) into its own slot, flushes, and reads the slot
 * back with MPI_Get. A reply handed to the wrong thread shows as another stamp; a lost operation as a
 * wrong count at the end. Usage: win_one_window_threads [rounds] */
#include "../threads/threads_check.h"

enum { kThreads = 4 };

static MPI_Win win;
static int rounds = 30;
static start_line start;

static long long stamp(int rank, int thread, int round)
{
    return ((long long)rank << 40) | ((long long)thread << 24) | round;
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    const long long one = 1;
    start_line_wait(&start);
    for (int round = 0; round < rounds; ++round) {
        for (int target = 0; target < world_size; ++target) {
            long long old = -1, mine = stamp(world_rank, t, round), seen = -1;
            const MPI_Aint slot = 2 + (MPI_Aint)world_rank * kThreads + t;
            MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, target, 0, MPI_SUM, win);
            MPI_Accumulate(&one, 1, MPI_LONG_LONG, target, 1, 1, MPI_LONG_LONG, MPI_SUM, win);
            MPI_Put(&mine, 1, MPI_LONG_LONG, target, slot, 1, MPI_LONG_LONG, win);
            MPI_Win_flush(target, win);
            MPI_Get(&seen, 1, MPI_LONG_LONG, target, slot, 1, MPI_LONG_LONG, win);
            MPI_Win_flush(target, win);
            CHECK(old >= 0 && old < (long long)world_size * kThreads * rounds,
                  "thread %d round %d: fetch-and-op at rank %d returned %lld", t, round, target, old);
            CHECK(seen == mine, "thread %d round %d: read back %#llx from its slot at rank %d, put %#llx", t, round,
                  (unsigned long long)seen, target, (unsigned long long)mine);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    rounds = threads_arg(argc, argv, 1, rounds, 1, 100000, "rounds");
    const MPI_Aint words = 2 + (MPI_Aint)world_size * kThreads;
    long long *memory = NULL;
    MPI_Win_allocate(words * (MPI_Aint)sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &memory,
                     &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, world_rank, 0, win);
    for (MPI_Aint i = 0; i < words; ++i) {
        memory[i] = i < 2 ? 0 : -1;
    }
    MPI_Win_unlock(world_rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    start_line_init(&start, kThreads);
    MPI_Win_lock_all(0, win);
    threads_run(kThreads, worker);
    start_line_destroy(&start);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Win_lock(MPI_LOCK_SHARED, world_rank, 0, win);
    const long long expected = (long long)world_size * kThreads * rounds;
    CHECK(memory[0] == expected, "fetch-and-op counter %lld, expected %lld", memory[0], expected);
    CHECK(memory[1] == expected, "accumulate counter %lld, expected %lld", memory[1], expected);
    for (int r = 0; r < world_size; ++r) {
        for (int t = 0; t < kThreads; ++t) {
            const long long want = stamp(r, t, rounds - 1);
            CHECK(memory[2 + r * kThreads + t] == want, "slot of rank %d thread %d holds %#llx, expected %#llx", r, t,
                  (unsigned long long)memory[2 + r * kThreads + t], (unsigned long long)want);
        }
    }
    MPI_Win_unlock(world_rank, win);
    MPI_Win_free(&win);
    if (world_rank == 0) {
        printf("win_one_window_threads: all checks passed on %d ranks\n", world_size);
    }
    MPI_Finalize();
    return 0;
}
