/* Communicator creation from several threads at once under MPI_THREAD_MULTIPLE (MPI-4.1 11.6: collective
 * creations on different communicators may run concurrently). Each of kThreads threads owns a parent,
 * a duplicate of MPI_COMM_WORLD, and on it dups, idups, splits and creates from a group, over and over,
 * all threads at once. Every new communicator carries a ring message whose payload names the thread and
 * the round, received with wildcards: were two threads' communicators given the same context id, one
 * would take the other's message. Usage: comm_create_threads [rounds] */
#include "../threads/threads_check.h"

enum { kThreads = 4 };

static MPI_Comm parents[kThreads];
static int rounds = 40;

/* A ring message on `comm` (sent with a tag of the thread's), received with wildcards: it must be the
 * one the left neighbour sent for this thread and round. Then an allreduce of the ranks. */
static void check_comm(MPI_Comm comm, int thread, int round, int expect_size, const char *what)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK(size == expect_size, "thread %d round %d: %s has %d ranks, not %d", thread, round, what, size,
          expect_size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = {thread, round, rank}, in[3] = {-1, -1, -1};
    MPI_Request rq[2];
    MPI_Status st[2];
    CHECK(MPI_Irecv(in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &rq[0]) == MPI_SUCCESS, "irecv");
    CHECK(MPI_Isend(out, 3, MPI_INT, next, 100 + thread, comm, &rq[1]) == MPI_SUCCESS, "isend");
    CHECK(MPI_Waitall(2, rq, st) == MPI_SUCCESS, "waitall");
    CHECK(in[0] == thread && in[1] == round && in[2] == prev && st[0].MPI_TAG == 100 + thread,
          "thread %d round %d: %s received (thread %d, round %d, rank %d, tag %d), expected (%d, %d, %d, %d): "
          "two communicators share a context id",
          thread, round, what, in[0], in[1], in[2], st[0].MPI_TAG, thread, round, prev, 100 + thread);
    int sum = -1;
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "allreduce");
    CHECK(sum == size * (size - 1) / 2, "thread %d round %d: %s's allreduce gave %d", thread, round, what, sum);
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm parent = parents[t];
    MPI_Group world_group, evens;
    MPI_Comm_group(parent, &world_group);
    const int nevens = (world_size + 1) / 2;
    int ranks[64];
    for (int i = 0; i < nevens; ++i) {
        ranks[i] = 2 * i;
    }
    MPI_Group_incl(world_group, nevens, ranks, &evens);
    for (int round = 0; round < rounds; ++round) {
        MPI_Comm c;
        CHECK(MPI_Comm_dup(parent, &c) == MPI_SUCCESS, "thread %d: MPI_Comm_dup", t);
        check_comm(c, t, round, world_size, "a duplicate");
        MPI_Comm_free(&c);

        MPI_Request rq;
        CHECK(MPI_Comm_idup(parent, &c, &rq) == MPI_SUCCESS, "thread %d: MPI_Comm_idup", t);
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE) == MPI_SUCCESS, "thread %d: MPI_Wait of idup", t);
        check_comm(c, t, round, world_size, "an idup");
        MPI_Comm_free(&c);

        const int color = world_rank % 2;
        CHECK(MPI_Comm_split(parent, color, world_size - world_rank, &c) == MPI_SUCCESS, "thread %d: split", t);
        check_comm(c, t, round, color == 0 ? nevens : world_size - nevens, "a split");
        MPI_Comm_free(&c);

        if (world_rank % 2 == 0) {
            CHECK(MPI_Comm_create_group(parent, evens, t, &c) == MPI_SUCCESS, "thread %d: create_group", t);
            check_comm(c, t, round, nevens, "a create_group");
            MPI_Comm_free(&c);
        }
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world_group);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    rounds = threads_arg(argc, argv, 1, rounds, 1, 1000000, "rounds");
    CHECK(world_size <= 64, "at most 64 ranks");
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
    }
    threads_run(kThreads, worker);
    for (int t = 0; t < kThreads; ++t) {
        MPI_Comm_free(&parents[t]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) {
        printf("comm_create_threads: all checks passed on %d ranks (%d threads, %d rounds)\n", world_size, kThreads,
               rounds);
    }
    MPI_Finalize();
    return 0;
}
