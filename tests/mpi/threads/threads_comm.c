/* Communicator creation from several threads at once (MPI-4 allows collective calls on different
 * communicators to run concurrently). Thread t of every rank owns one parent, a duplicate of
 * MPI_COMM_WORLD made by the main thread, and in each of R rounds creates from it, while the other
 * threads do the same on theirs:
 *   MPI_Comm_dup (congruent with the parent), MPI_Comm_split (by parity, ranks reversed),
 *   MPI_Comm_idup (completed with MPI_Wait), MPI_Comm_create_group (the lower half of the ranks, tag t),
 *   MPI_Comm_create (the upper half);
 * then checks each one's size and ranks, sends around its ring and reduces over it (a context id shared
 * by two communicators would mix their traffic: the sums and ring values would be wrong), and frees it.
 *
 * usage: threads_comm [T threads (default 4)] [R rounds (default 20)]
 */
#include "threads_check.h"

static int T, R;
static MPI_Comm parents[kMaxThreads];
static start_line start;

/* Traffic on `comm`, which must have `size` ranks with this process at `rank`, tagged with its round. */
static void use(MPI_Comm comm, int size, int rank, int t, int round, const char *what)
{
    int got_size = -1, got_rank = -1;
    MPI_Comm_size(comm, &got_size);
    MPI_Comm_rank(comm, &got_rank);
    CHECK(got_size == size && got_rank == rank, "thread %d round %d: %s has %d ranks with me at %d, expected %d at %d",
          t, round, what, got_size, got_rank, size, rank);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = {t, round, rank}, in[3] = {-1, -1, -1};
    MPI_Sendrecv(out, 3, MPI_INT, next, round, in, 3, MPI_INT, prev, round, comm, MPI_STATUS_IGNORE);
    CHECK(in[0] == t && in[1] == round && in[2] == prev, "thread %d round %d: on %s rank %d sent (%d, %d, %d), "
          "expected (%d, %d, %d)", t, round, what, prev, in[0], in[1], in[2], t, round, prev);
    long v[2] = {rank, t * 1000 + round}, sum[2] = {0, 0};
    MPI_Allreduce(v, sum, 2, MPI_LONG, MPI_SUM, comm);
    CHECK(sum[0] == (long)size * (size - 1) / 2 && sum[1] == (long)size * (t * 1000 + round),
          "thread %d round %d: sums over %s are %ld and %ld, expected %ld and %ld", t, round, what, sum[0], sum[1],
          (long)size * (size - 1) / 2, (long)size * (t * 1000 + round));
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm parent = parents[t];
    const int rank = world_rank, size = world_size, lower = (size + 1) / 2;
    MPI_Group all, low, high;
    MPI_Comm_group(parent, &all);
    int range_low[1][3] = {{0, lower - 1, 1}};
    MPI_Group_range_incl(all, 1, range_low, &low);
    MPI_Group_difference(all, low, &high);
    start_line_wait(&start);
    for (int round = 0; round < R; ++round) {
        MPI_Comm dup, split, idup, group_comm = MPI_COMM_NULL, created;
        MPI_Request rq;
        int cmp = -1;
        MPI_Comm_dup(parent, &dup);
        MPI_Comm_compare(parent, dup, &cmp);
        CHECK(cmp == MPI_CONGRUENT, "thread %d: a duplicate compares %d to its parent", t, cmp);
        MPI_Comm_split(parent, rank % 2, size - rank, &split);
        MPI_Comm_idup(parent, &idup, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        if (rank < lower) {
            MPI_Comm_create_group(parent, low, t, &group_comm);
        }
        MPI_Comm_create(parent, high, &created);

        use(dup, size, rank, t, round, "the duplicate");
        const int same_parity = (size - rank % 2 + 1) / 2;
        use(split, same_parity, (same_parity - 1) - rank / 2, t, round, "the split");
        use(idup, size, rank, t, round, "the idup");
        if (rank < lower) {
            use(group_comm, lower, rank, t, round, "the create_group");
            MPI_Comm_free(&group_comm);
        }
        if (rank >= lower) {
            use(created, size - lower, rank - lower, t, round, "the create");
            MPI_Comm_free(&created);
        } else {
            CHECK(created == MPI_COMM_NULL, "thread %d: MPI_Comm_create gave a non-member a communicator", t);
        }
        MPI_Comm_free(&dup);
        MPI_Comm_free(&split);
        MPI_Comm_free(&idup);
        CHECK(dup == MPI_COMM_NULL && split == MPI_COMM_NULL && idup == MPI_COMM_NULL,
              "thread %d: MPI_Comm_free left a handle set", t);
    }
    MPI_Group_free(&low);
    MPI_Group_free(&high);
    MPI_Group_free(&all);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, kMaxThreads, "threads");
    R = threads_arg(argc, argv, 2, 20, 1, 100000, "rounds");
    for (int t = 0; t < T; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
    }
    start_line_init(&start, T);
    threads_run(T, worker);
    start_line_destroy(&start);
    for (int t = 0; t < T; ++t) {
        MPI_Comm_free(&parents[t]);
    }
    char what[64];
    snprintf(what, sizeof what, "%d threads, %d rounds", T, R);
    return threads_pass("threads_comm", what);
}
