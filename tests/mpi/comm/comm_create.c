/* Communicator creation as an application uses it (MPI-4.1 7.4): MPI_Comm_dup (attributes copied by
 * their callbacks, hints, error handler, no name), dup_with_info, split (ranks by key, MPI_UNDEFINED),
 * create (one group, disjoint groups), create_group, compare, the isolation of a duplicate's messages
 * from its parent's, the basic collectives on split communicators, MPI_Comm_free with a receive
 * pending, MPI_Comm_idup overlapping point-to-point traffic. Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../p2p/p2p_check.h"

static int rank, size;

static int comm_rank(MPI_Comm c)
{
    int r = -1;
    CHECK(MPI_Comm_rank(c, &r) == MPI_SUCCESS, "MPI_Comm_rank");
    return r;
}

static int comm_size(MPI_Comm c)
{
    int n = -1;
    CHECK(MPI_Comm_size(c, &n) == MPI_SUCCESS, "MPI_Comm_size");
    return n;
}

static int compare(MPI_Comm a, MPI_Comm b)
{
    int result = -1;
    CHECK(MPI_Comm_compare(a, b, &result) == MPI_SUCCESS, "MPI_Comm_compare");
    return result;
}

/* The world rank of rank r of c. */
static int world_rank_of(MPI_Comm c, int r)
{
    MPI_Group g, w;
    int out = -1;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_translate_ranks(g, 1, &r, w, &out);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    return out;
}

/* Attribute callbacks: the copy doubles the value into a new int, the delete frees it and counts. */
static int copies, deletes;

static int copy_double(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    (void)key;
    (void)extra;
    int *v = malloc(sizeof(int));
    *v = *(int *)in * 2;
    *(void **)out = v;
    *flag = 1;
    ++copies;
    return MPI_SUCCESS;
}

static int delete_value(MPI_Comm c, int key, void *value, void *extra)
{
    (void)c;
    (void)key;
    (void)extra;
    free(value);
    ++deletes;
    return MPI_SUCCESS;
}

static void check_dup(void)
{
    MPI_Comm dup, dup2;
    int key_double, key_same, key_none, flag = 0, *got = NULL, same_value = 42, none_value = 7;
    int *doubled = malloc(sizeof(int));
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Errhandler eh;

    *doubled = 21;
    MPI_Comm_create_keyval(copy_double, delete_value, &key_double, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key_same, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key_none, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(dup, key_double, doubled);
    MPI_Comm_set_attr(dup, key_same, &same_value);
    MPI_Comm_set_attr(dup, key_none, &none_value);
    MPI_Comm_set_name(dup, "the first duplicate");

    copies = deletes = 0;
    CHECK(MPI_Comm_dup(dup, &dup2) == MPI_SUCCESS, "MPI_Comm_dup of a duplicate");
    CHECK(copies == 1, "the copy callback ran once (%d)", copies);
    CHECK(MPI_Comm_get_attr(dup2, key_double, &got, &flag) == MPI_SUCCESS && flag && *got == 42,
          "the copy callback's value is on the duplicate");
    CHECK(MPI_Comm_get_attr(dup2, key_same, &got, &flag) == MPI_SUCCESS && flag && got == &same_value,
          "MPI_COMM_DUP_FN copies the pointer");
    CHECK(MPI_Comm_get_attr(dup2, key_none, &got, &flag) == MPI_SUCCESS && !flag, "MPI_COMM_NULL_COPY_FN copies nothing");
    CHECK(comm_rank(dup2) == rank && comm_size(dup2) == size, "a duplicate has the ranks of the original");
    CHECK(compare(dup2, MPI_COMM_WORLD) == MPI_CONGRUENT && compare(dup2, dup2) == MPI_IDENT,
          "a duplicate is congruent to its original, identical to itself");
    MPI_Comm_get_name(dup2, name, &len);
    CHECK(len == 0 && name[0] == '\0', "names are not inherited (got \"%s\")", name);
    MPI_Comm_get_errhandler(dup2, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "the error handler is inherited");
    MPI_Errhandler_free(&eh);

    CHECK(MPI_Comm_free(&dup2) == MPI_SUCCESS && dup2 == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
    CHECK(deletes == 1, "freeing the duplicate ran the delete callback (%d)", deletes);
    MPI_Comm_free(&dup);
    CHECK(deletes == 2, "freeing the original ran its delete callback");
    MPI_Comm_free_keyval(&key_double);
    MPI_Comm_free_keyval(&key_same);
    MPI_Comm_free_keyval(&key_none);
}

/* Hints: Tessera keeps every hint (none is ignored); a runtime may drop the ones it does not know
 * (MPI-4.1 7.4.4), as MPICH does, so the values are checked natively only. */
static void check_info(void)
{
    MPI_Comm with, plain;
    MPI_Info info, used;
    char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    const int native = !runtime_is("Open MPI") && !runtime_is("MPICH");

    MPI_Info_create(&info);
    MPI_Info_set(info, "tessera_test_hint", "given");
    CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &with) == MPI_SUCCESS, "MPI_Comm_dup_with_info");
    MPI_Info_free(&info);
    MPI_Comm_get_info(with, &used);
    MPI_Info_get(used, "tessera_test_hint", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(!native || (flag && strcmp(value, "given") == 0), "MPI_Comm_dup_with_info's hint is the new communicator's");
    MPI_Info_free(&used);
    CHECK(MPI_Comm_dup(with, &plain) == MPI_SUCCESS, "MPI_Comm_dup");
    MPI_Comm_get_info(plain, &used);
    MPI_Info_get(used, "tessera_test_hint", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(!native || (flag && strcmp(value, "given") == 0), "MPI_Comm_dup keeps the original's hints");
    MPI_Info_free(&used);
    MPI_Comm_free(&plain);
    MPI_Comm_free(&with);
}

/* A message on a duplicate is not received by a wildcard receive on the original, and back. */
static void check_isolation(void)
{
    MPI_Comm dup;
    MPI_Status st;
    int on_world = -1, on_dup = -1;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (size > 1) {
        if (rank == 0) {
            MPI_Request rq[2];
            MPI_Irecv(&on_world, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(&on_dup, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
            CHECK(on_world == 111 && on_dup == 222, "world got %d (111 sent there), the duplicate %d (222)", on_world,
                  on_dup);
        } else if (rank == 1) {
            const int to_dup = 222, to_world = 111;
            MPI_Send(&to_dup, 1, MPI_INT, 0, 5, dup); /* first, on the duplicate */
            MPI_Send(&to_world, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        }
        /* Nothing left over on either. */
        MPI_Barrier(MPI_COMM_WORLD);
        int flag = 1;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st);
        CHECK(!flag, "no message left on the duplicate");
    }
    MPI_Comm_free(&dup);
}

/* Colors by parity, keys reversing the order: the basic collectives on each half. */
static void check_split(void)
{
    MPI_Comm half, none;
    const int color = rank % 2;
    const int n = (size - color + 1) / 2; /* ranks of my parity */
    int i, r, sum, *all, *in, *out;

    CHECK(MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &half) == MPI_SUCCESS, "MPI_Comm_split");
    r = comm_rank(half);
    CHECK(comm_size(half) == n, "my half has %d ranks (got %d)", n, comm_size(half));
    /* Highest world rank first: rank k of the half is the k-th highest rank of my parity. */
    CHECK(r == (size - 1 - rank - ((size - 1 - color) % 2)) / 2, "split rank %d for world rank %d", r, rank);
    for (i = 0; i < n; ++i) {
        const int w = world_rank_of(half, i);
        CHECK(w % 2 == color && (i == 0 || w < world_rank_of(half, i - 1)), "rank %d of the half is world rank %d", i, w);
    }
    MPI_Barrier(half);
    i = rank;
    MPI_Bcast(&i, 1, MPI_INT, 0, half);
    CHECK(i == world_rank_of(half, 0), "bcast from the half's rank 0 gave %d", i);
    sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
    {
        int expect = 0;
        for (int w = color; w < size; w += 2) {
            expect += w;
        }
        CHECK(sum == expect, "allreduce over the half: %d, expected %d", sum, expect);
    }
    all = malloc(sizeof(int) * (size_t)n);
    in = malloc(sizeof(int) * (size_t)n);
    out = malloc(sizeof(int) * (size_t)n);
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, half);
    for (i = 0; i < n; ++i) {
        CHECK(all[i] == world_rank_of(half, i), "allgather block %d: %d", i, all[i]);
        out[i] = rank * 100 + i;
    }
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, half);
    for (i = 0; i < n; ++i) {
        CHECK(in[i] == world_rank_of(half, i) * 100 + r, "alltoall block %d: %d", i, in[i]);
    }
    sum = -1;
    MPI_Scan(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
    {
        int expect = 0;
        for (i = 0; i <= r; ++i) {
            expect += world_rank_of(half, i);
        }
        CHECK(sum == expect, "scan over the half: %d, expected %d", sum, expect);
    }
    free(all);
    free(in);
    free(out);
    CHECK(compare(half, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "a half is not the world");
    MPI_Comm_free(&half);

    /* Reversed order over everybody: the same group in another order. */
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &half);
    CHECK(comm_rank(half) == size - 1 - rank, "the reversed world");
    CHECK(compare(half, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "the reversed world is similar");
    MPI_Comm_free(&half);

    /* MPI_UNDEFINED: no communicator for rank 0. */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, 0, &none);
    CHECK((rank == 0) == (none == MPI_COMM_NULL), "MPI_UNDEFINED gives MPI_COMM_NULL, the others a communicator");
    if (none != MPI_COMM_NULL) {
        CHECK(comm_size(none) == size - 1 && comm_rank(none) == rank - 1, "the others without rank 0");
        MPI_Comm_free(&none);
    }
}

static void check_create(void)
{
    MPI_Group world, without0, mine;
    MPI_Comm c;
    const int zero = 0;
    int i, tag = 7;

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, &zero, &without0);
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, without0, &c) == MPI_SUCCESS, "MPI_Comm_create");
    CHECK((rank == 0) == (c == MPI_COMM_NULL), "rank 0, outside the group, gets MPI_COMM_NULL");
    if (c != MPI_COMM_NULL) {
        CHECK(comm_rank(c) == rank - 1 && comm_size(c) == size - 1, "MPI_Comm_create's ranks");
        MPI_Barrier(c);
        MPI_Comm_free(&c);
    }

    /* Disjoint groups, each process giving its own (evens, odds). */
    {
        int *ranks = malloc(sizeof(int) * (size_t)size), n = 0;
        for (i = rank % 2; i < size; i += 2) {
            ranks[n++] = i;
        }
        MPI_Group_incl(world, n, ranks, &mine);
        free(ranks);
        CHECK(MPI_Comm_create(MPI_COMM_WORLD, mine, &c) == MPI_SUCCESS, "MPI_Comm_create with disjoint groups");
        CHECK(c != MPI_COMM_NULL && comm_size(c) == n && comm_rank(c) == rank / 2, "my parity's communicator");
        {
            int sum = -1, expect = 0;
            MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
            for (i = rank % 2; i < size; i += 2) {
                expect += i;
            }
            CHECK(sum == expect, "allreduce on a created communicator: %d, expected %d", sum, expect);
        }
        MPI_Comm_free(&c);

        /* MPI_Comm_create_group: collective over each group only, both groups with the same tag. */
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, tag, &c) == MPI_SUCCESS, "MPI_Comm_create_group");
        CHECK(c != MPI_COMM_NULL && comm_size(c) == n && comm_rank(c) == rank / 2, "the group's communicator");
        {
            MPI_Group g;
            int result = -1;
            MPI_Comm_group(c, &g);
            MPI_Group_compare(g, mine, &result);
            CHECK(result == MPI_IDENT, "its group is the one given");
            MPI_Group_free(&g);
        }
        MPI_Barrier(c);
        MPI_Comm_free(&c);
        MPI_Group_free(&mine);
    }

    /* create_group by the evens only, while the odds do something else. */
    if (rank % 2 == 0) {
        int *ranks = malloc(sizeof(int) * (size_t)size), n = 0;
        for (i = 0; i < size; i += 2) {
            ranks[n++] = i;
        }
        MPI_Group_incl(world, n, ranks, &mine);
        free(ranks);
        CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 99, &c) == MPI_SUCCESS && c != MPI_COMM_NULL,
              "MPI_Comm_create_group by a subset");
        CHECK(comm_size(c) == n, "the evens' communicator");
        MPI_Comm_free(&c);
        MPI_Group_free(&mine);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&without0);
    MPI_Group_free(&world);
}

/* A communicator freed with a send and a receive pending on it: both complete, while communicators
 * created meanwhile do not take its context. */
static void check_free_pending(void)
{
    MPI_Comm dup;
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Status st;
    int got = -1, sent = 4242;

    if (size < 2) {
        return;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0) {
        MPI_Irecv(&got, 1, MPI_INT, 1, 3, dup, &rq);
    } else if (rank == 1) {
        MPI_Issend(&sent, 1, MPI_INT, 0, 3, dup, &rq);
    }
    MPI_Comm_free(&dup);
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free with an operation pending");
    for (int i = 0; i < 5; ++i) {
        MPI_Comm other;
        int token = rank;
        MPI_Comm_dup(MPI_COMM_WORLD, &other);
        MPI_Bcast(&token, 1, MPI_INT, 0, other);
        CHECK(token == 0, "bcast on a communicator made after the free");
        MPI_Comm_free(&other);
    }
    if (rank <= 1) {
        CHECK(MPI_Wait(&rq, &st) == MPI_SUCCESS, "MPI_Wait on the freed communicator's request");
    }
    if (rank == 0) {
        CHECK(got == 4242 && st.MPI_SOURCE == 1 && st.MPI_TAG == 3, "the pending receive got %d from %d", got,
              st.MPI_SOURCE);
    }
}

/* MPI_Comm_idup while point-to-point traffic goes on on the original; then the new communicator works. */
static void check_idup(void)
{
    MPI_Comm dup;
    MPI_Request req;
    int sum = -1;
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req) == MPI_SUCCESS, "MPI_Comm_idup");
    for (int round = 0; round < 20; ++round) {
        int out = rank * 1000 + round, in = -1, done = 0;
        MPI_Sendrecv(&out, 1, MPI_INT, right, 11, &in, 1, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(in == left * 1000 + round, "ring message %d during MPI_Comm_idup: %d", round, in);
        if (req != MPI_REQUEST_NULL) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        }
    }
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL, "MPI_Wait on MPI_Comm_idup");
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
    CHECK(sum == size * (size - 1) / 2, "allreduce on the idup'd communicator: %d", sum);
    CHECK(compare(dup, MPI_COMM_WORLD) == MPI_CONGRUENT, "MPI_Comm_idup's result is congruent");
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    check_dup();
    check_info();
    check_isolation();
    check_split();
    check_create();
    check_free_pending();
    check_idup();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("comm_create: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
