/* Intercommunicators (MPI-4.1 7.6): MPI_Intercomm_create between the lower and the upper half of
 * MPI_COMM_WORLD (leaders: the first rank of each, bridge: MPI_COMM_WORLD), point-to-point across,
 * MPI_Comm_test_inter / remote_size / remote_group, MPI_Intercomm_merge with both orders of 'high',
 * MPI_Comm_dup, split and create of an intercommunicator, MPI_Comm_compare. Needs 2 ranks or more.
 * Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "../p2p/p2p_check.h"

static int rank, size, half, lower;

/* The world rank of rank r of group g. */
static int world_rank_in(MPI_Group g, int r)
{
    MPI_Group w;
    int out = -1;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, 1, &r, w, &out);
    MPI_Group_free(&w);
    return out;
}

/* The remote group is the other half, in world order. */
static void check_remote(MPI_Comm inter, int first, int n)
{
    MPI_Group remote;
    int flag = 0, rs = -1;
    CHECK(MPI_Comm_test_inter(inter, &flag) == MPI_SUCCESS && flag, "MPI_Comm_test_inter says inter");
    CHECK(MPI_Comm_remote_size(inter, &rs) == MPI_SUCCESS && rs == n, "remote size %d, expected %d", rs, n);
    CHECK(MPI_Comm_remote_group(inter, &remote) == MPI_SUCCESS, "MPI_Comm_remote_group");
    for (int i = 0; i < n; ++i) {
        CHECK(world_rank_in(remote, i) == first + i, "remote rank %d is world rank %d", i, world_rank_in(remote, i));
    }
    MPI_Group_free(&remote);
}

/* Every local rank sends to every remote rank; each receives from every remote rank. */
static void across(MPI_Comm inter, int tag)
{
    int ls, lr, rs;
    MPI_Comm_size(inter, &ls);
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_remote_size(inter, &rs);
    int *out = malloc(sizeof(int) * (size_t)rs), *in = malloc(sizeof(int) * (size_t)rs);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)rs);
    for (int p = 0; p < rs; ++p) {
        out[p] = rank * 1000 + p * 10 + tag;
        in[p] = -1;
        MPI_Irecv(&in[p], 1, MPI_INT, p, tag, inter, &rq[p]);
        MPI_Isend(&out[p], 1, MPI_INT, p, tag, inter, &rq[rs + p]);
    }
    MPI_Waitall(2 * rs, rq, MPI_STATUSES_IGNORE);
    MPI_Group remote;
    MPI_Comm_remote_group(inter, &remote);
    for (int p = 0; p < rs; ++p) {
        const int w = world_rank_in(remote, p);
        CHECK(in[p] == w * 1000 + lr * 10 + tag, "from remote rank %d (world %d): %d", p, w, in[p]);
    }
    MPI_Group_free(&remote);
    free(out);
    free(in);
    free(rq);
}

static void check_merge(MPI_Comm inter)
{
    MPI_Comm merged;
    int r = -1, n = -1;
    /* The lower half says high = 0: it comes first, and the merged ranks are the world's. */
    CHECK(MPI_Intercomm_merge(inter, !lower, &merged) == MPI_SUCCESS, "MPI_Intercomm_merge");
    MPI_Comm_rank(merged, &r);
    MPI_Comm_size(merged, &n);
    CHECK(n == size && r == rank, "merged with the lower half first: rank %d size %d", r, n);
    {
        int sum = -1;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
        CHECK(sum == size * (size - 1) / 2, "allreduce on the merged communicator");
    }
    MPI_Comm_free(&merged);
    /* The other order: the upper half first. */
    MPI_Intercomm_merge(inter, lower, &merged);
    MPI_Comm_rank(merged, &r);
    CHECK(r == (lower ? size - half + rank : rank - half), "merged with the upper half first: rank %d", r);
    MPI_Comm_free(&merged);
    /* The same flag everywhere: each half stays together, in its own order. */
    MPI_Intercomm_merge(inter, 0, &merged);
    MPI_Comm_rank(merged, &r);
    {
        const int first_of_mine = r - (lower ? rank : rank - half);
        CHECK(first_of_mine == 0 || first_of_mine == (lower ? size - half : half),
              "a half is contiguous in the merged communicator (rank %d)", r);
    }
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    MPI_Comm local, inter, dup, sub;
    int cmp = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("comm_inter: all checks passed on %d ranks (nothing to do alone)\n", size);
        MPI_Finalize();
        return 0;
    }
    half = size / 2;
    lower = rank < half;
    MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &local);
    {
        /* A wildcard receive on the bridge must not take the leaders' own traffic. Over Open MPI the
         * leaders talk with the application's tag on the bridge, which this would intercept. */
        MPI_Request wild = MPI_REQUEST_NULL;
        int token = -1, self_token = 1234;
        const int native = !runtime_is("Open MPI") && !runtime_is("MPICH");
        if (native) {
            MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &wild);
        }
        CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, lower ? half : 0, 42, &inter) == MPI_SUCCESS,
              "MPI_Intercomm_create");
        if (native) {
            MPI_Send(&self_token, 1, MPI_INT, rank, 7, MPI_COMM_WORLD);
            MPI_Wait(&wild, MPI_STATUS_IGNORE);
            CHECK(token == 1234, "the wildcard receive on the bridge got %d, not its own message", token);
        }
    }
    {
        int lr = -1, ls = -1;
        MPI_Comm_rank(inter, &lr);
        MPI_Comm_size(inter, &ls);
        CHECK(lr == (lower ? rank : rank - half) && ls == (lower ? half : size - half),
              "local rank %d and size %d of the intercommunicator", lr, ls);
    }
    check_remote(inter, lower ? half : 0, lower ? size - half : half);
    across(inter, 1);
    check_merge(inter);

    CHECK(MPI_Comm_dup(inter, &dup) == MPI_SUCCESS, "MPI_Comm_dup of an intercommunicator");
    check_remote(dup, lower ? half : 0, lower ? size - half : half);
    MPI_Comm_compare(inter, dup, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "a duplicate intercommunicator is congruent (%d)", cmp);
    MPI_Comm_compare(inter, local, &cmp);
    CHECK(cmp == MPI_UNEQUAL, "an inter- and an intracommunicator are unequal");
    across(dup, 2);
    across(inter, 3);
    MPI_Comm_free(&dup);

    /* Split: color by local rank parity; a color missing on the other side gives MPI_COMM_NULL. */
    {
        int lr, ls, rs;
        MPI_Comm_rank(inter, &lr);
        MPI_Comm_size(inter, &ls);
        MPI_Comm_remote_size(inter, &rs);
        const int color = lr % 2;
        const int remote_of_color = (rs - color + 1) / 2;
        CHECK(MPI_Comm_split(inter, color, lr, &sub) == MPI_SUCCESS, "MPI_Comm_split of an intercommunicator");
        CHECK((remote_of_color == 0) == (sub == MPI_COMM_NULL), "a color without remote partners gives MPI_COMM_NULL");
        if (sub != MPI_COMM_NULL) {
            int n = -1, r = -1;
            MPI_Comm_remote_size(sub, &n);
            MPI_Comm_rank(sub, &r);
            CHECK(n == remote_of_color && r == lr / 2, "split intercommunicator: remote size %d, rank %d", n, r);
            across(sub, 4);
            MPI_Comm_free(&sub);
        }
    }

    /* Create: each side keeps its first rank only. */
    {
        MPI_Group g, first;
        const int zero = 0;
        MPI_Comm_group(inter, &g);
        MPI_Group_incl(g, 1, &zero, &first);
        CHECK(MPI_Comm_create(inter, first, &sub) == MPI_SUCCESS, "MPI_Comm_create of an intercommunicator");
        CHECK((rank == 0 || rank == half) == (sub != MPI_COMM_NULL), "the leaders get the new intercommunicator");
        if (sub != MPI_COMM_NULL) {
            check_remote(sub, lower ? half : 0, 1);
            across(sub, 5);
            MPI_Comm_free(&sub);
        }
        MPI_Group_free(&first);
        MPI_Group_free(&g);
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("comm_inter: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
