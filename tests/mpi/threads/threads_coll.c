/* Collectives from several threads at once, each thread on its own duplicate of MPI_COMM_WORLD (MPI
 * allows concurrent collectives on different communicators). Each of R rounds, at two sizes by turns
 * (one element, and 10,000: past the eager limits), runs and checks:
 *   blocking: MPI_Barrier, MPI_Bcast (root rotating), MPI_Allreduce, MPI_Reduce, MPI_Allgather,
 *             MPI_Alltoall, MPI_Scan;
 *   non-blocking: MPI_Ibarrier, MPI_Ibcast, MPI_Iallreduce, MPI_Iallgather, MPI_Ialltoall in flight
 *             together, completed by one MPI_Waitall;
 *   persistent: MPI_Allreduce_init and MPI_Bcast_init, made once, started every round (not over Open MPI
 *             4.1, which predates MPI-4's persistent collectives).
 * Every value depends on (thread, round, rank), so a result from another thread's communicator shows.
 *
 * usage: threads_coll [T threads (default 4)] [R rounds (default 30)]
 */
#include "threads_check.h"

enum { kBig = 10000 };

static int T, R, persistent;
static MPI_Comm comms[kMaxThreads];
static start_line start;

static int value(int t, int round, int rank, int i)
{
    return t * 1000000 + round * 1000 + rank * 10 + i % 7;
}

static int *ints(size_t n)
{
    int *p = malloc(n * sizeof(int));
    CHECK(p != NULL, "cannot allocate %zu ints", n);
    return p;
}

static void check_sum(const int *sum, int n, int t, int round, int ranks, const char *what)
{
    for (int i = 0; i < n; ++i) {
        long expect = 0;
        for (int r = 0; r < ranks; ++r) {
            expect += value(t, round, r, i);
        }
        CHECK(sum[i] == (int)expect, "thread %d round %d: %s element %d is %d, expected %ld", t, round, what, i, sum[i],
              expect);
    }
}

static void check_blocks(const int *buf, int n, int t, int round, int alltoall, const char *what)
{
    for (int r = 0; r < world_size; ++r) {
        for (int i = 0; i < n; ++i) {
            /* alltoall: rank r's block for me starts at element world_rank * n of its send buffer. */
            const int expect = value(t, round, r, alltoall ? world_rank * n + i : i);
            CHECK(buf[r * n + i] == expect, "thread %d round %d: %s block %d element %d is %d, expected %d", t, round,
                  what, r, i, buf[r * n + i], expect);
        }
    }
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm comm = comms[t];
    const size_t most = (size_t)kBig * (size_t)world_size;
    int *in = ints(most), *out = ints(most), *a2a_in = ints(most), *gathered = ints(most), *a2a = ints(most);
    int *nb_bcast = ints(kBig), *nb_sum = ints(kBig), *nb_gathered = ints(most), *nb_a2a = ints(most);
    int *p_in = ints(kBig), *p_sum = ints(kBig), *p_bcast = ints(kBig);
    const int p_root = t % world_size;
    MPI_Request pers[2];
    if (persistent) {
        MPI_Allreduce_init(p_in, p_sum, kBig, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &pers[0]);
        MPI_Bcast_init(p_bcast, kBig, MPI_INT, p_root, comm, MPI_INFO_NULL, &pers[1]);
    }
    start_line_wait(&start);
    for (int round = 0; round < R; ++round) {
        const int n = round % 2 ? kBig : 1, root = round % world_size;
        for (int i = 0; i < n; ++i) {
            in[i] = value(t, round, world_rank, i);
        }
        for (int i = 0; i < n * world_size; ++i) {
            a2a_in[i] = value(t, round, world_rank, i);
        }
        MPI_Barrier(comm);

        int *b = out;
        for (int i = 0; i < n; ++i) {
            b[i] = world_rank == root ? value(t, round, root, i) : -1;
        }
        MPI_Bcast(b, n, MPI_INT, root, comm);
        for (int i = 0; i < n; ++i) {
            CHECK(b[i] == value(t, round, root, i), "thread %d round %d: broadcast element %d is %d", t, round, i, b[i]);
        }
        MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
        check_sum(out, n, t, round, world_size, "allreduce");
        MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, root, comm);
        if (world_rank == root) {
            check_sum(out, n, t, round, world_size, "reduce");
        }
        MPI_Allgather(in, n, MPI_INT, gathered, n, MPI_INT, comm);
        check_blocks(gathered, n, t, round, 0, "allgather");
        MPI_Alltoall(a2a_in, n, MPI_INT, a2a, n, MPI_INT, comm);
        check_blocks(a2a, n, t, round, 1, "alltoall");
        MPI_Scan(in, out, n, MPI_INT, MPI_SUM, comm);
        check_sum(out, n, t, round, world_rank + 1, "scan");

        MPI_Request rq[5];
        for (int i = 0; i < n; ++i) {
            nb_bcast[i] = world_rank == root ? value(t, round, root, i) : -1;
        }
        MPI_Ibarrier(comm, &rq[0]);
        MPI_Ibcast(nb_bcast, n, MPI_INT, root, comm, &rq[1]);
        MPI_Iallreduce(in, nb_sum, n, MPI_INT, MPI_SUM, comm, &rq[2]);
        MPI_Iallgather(in, n, MPI_INT, nb_gathered, n, MPI_INT, comm, &rq[3]);
        MPI_Ialltoall(a2a_in, n, MPI_INT, nb_a2a, n, MPI_INT, comm, &rq[4]);
        MPI_Waitall(5, rq, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; ++i) {
            CHECK(nb_bcast[i] == value(t, round, root, i), "thread %d round %d: ibcast element %d is %d", t, round, i,
                  nb_bcast[i]);
        }
        check_sum(nb_sum, n, t, round, world_size, "iallreduce");
        check_blocks(nb_gathered, n, t, round, 0, "iallgather");
        check_blocks(nb_a2a, n, t, round, 1, "ialltoall");

        if (persistent) {
            for (int i = 0; i < kBig; ++i) {
                p_in[i] = value(t, round, world_rank, i);
                p_bcast[i] = world_rank == p_root ? value(t, round, p_root, i) : -1;
            }
            MPI_Startall(2, pers);
            MPI_Waitall(2, pers, MPI_STATUSES_IGNORE);
            check_sum(p_sum, kBig, t, round, world_size, "persistent allreduce");
            for (int i = 0; i < kBig; ++i) {
                CHECK(p_bcast[i] == value(t, round, p_root, i), "thread %d round %d: persistent bcast element %d is %d",
                      t, round, i, p_bcast[i]);
            }
        }
    }
    if (persistent) {
        MPI_Request_free(&pers[0]);
        MPI_Request_free(&pers[1]);
    }
    free(in), free(out), free(a2a_in), free(gathered), free(a2a);
    free(nb_bcast), free(nb_sum), free(nb_gathered), free(nb_a2a);
    free(p_in), free(p_sum), free(p_bcast);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, kMaxThreads, "threads");
    R = threads_arg(argc, argv, 2, 30, 1, 100000, "rounds");
    persistent = !runtime_is("Open MPI");
    for (int t = 0; t < T; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    }
    start_line_init(&start, T);
    threads_run(T, worker);
    start_line_destroy(&start);
    for (int t = 0; t < T; ++t) {
        MPI_Comm_free(&comms[t]);
    }
    char what[96];
    snprintf(what, sizeof what, "%d threads, %d rounds%s", T, R, persistent ? "" : ", no persistent collectives");
    return threads_pass("threads_coll", what);
}
