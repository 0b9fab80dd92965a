/* Translator conformance: sentinels and handle identity. MPI_IN_PLACE in MPI_Allreduce, MPI_Allgather,
 * MPI_Reduce (at the root), MPI_Gather and MPI_Alltoallw; converted arrays of MPI_Ialltoallw and
 * MPI_Alltoallw_init that outlive the call; MPI_BOTTOM with absolute addresses; the same
 * runtime object always gives the same application handle (a communicator stored as an attribute value
 * and read back, the results of MPI_Comm_split / MPI_Comm_dup used as keys, MPI_Comm_dup twice gives
 * two handles, freed handles become the null handles). Two or more ranks. */
#include "conformance.h"

#include <stdlib.h>
#include <string.h>

static void check_in_place(int rank, int size)
{
    int v[2] = {rank + 1, 10 * (rank + 1)};
    CHECK(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Allreduce(MPI_IN_PLACE)");
    const int total = size * (size + 1) / 2;
    CHECK(v[0] == total && v[1] == 10 * total, "in-place allreduce: %d %d, expected %d %d", v[0], v[1], total,
          10 * total);

    int *all = calloc((size_t)size, sizeof(int));
    all[rank] = 100 + rank;
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
          "Allgather(MPI_IN_PLACE)");
    int good = 0;
    for (int r = 0; r < size; ++r) {
        good += all[r] == 100 + r;
    }
    CHECK(good == size, "in-place allgather: %d of %d right", good, size);

    int x = rank + 1;
    const int root = size - 1;
    if (rank == root) {
        CHECK(MPI_Reduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD) == MPI_SUCCESS,
              "Reduce(MPI_IN_PLACE) at the root");
        CHECK(x == size, "in-place reduce: %d", x);
    } else {
        MPI_Reduce(&x, NULL, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    }

    memset(all, 0, (size_t)size * sizeof(int));
    all[rank] = 7 * rank;
    if (rank == 0) {
        CHECK(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS,
              "Gather(MPI_IN_PLACE)");
        good = 0;
        for (int r = 0; r < size; ++r) {
            good += all[r] == 7 * r;
        }
        CHECK(good == size, "in-place gather: %d of %d", good, size);
    } else {
        MPI_Gather(&all[rank], 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    }

    /* Alltoallw converts an array of datatypes per peer (its length is the communicator's size). */
    int *sendbuf = calloc((size_t)size, sizeof(int)), *recvbuf = calloc((size_t)size, sizeof(int));
    int *counts = calloc((size_t)size, sizeof(int)), *displs = calloc((size_t)size, sizeof(int));
    MPI_Datatype *types = calloc((size_t)size, sizeof(MPI_Datatype));
    for (int r = 0; r < size; ++r) {
        sendbuf[r] = 1000 * rank + r;
        counts[r] = 1;
        displs[r] = r * (int)sizeof(int);
        types[r] = MPI_INT;
    }
    CHECK(MPI_Alltoallw(sendbuf, counts, displs, types, recvbuf, counts, displs, types, MPI_COMM_WORLD) ==
              MPI_SUCCESS, "Alltoallw");
    good = 0;
    for (int r = 0; r < size; ++r) {
        good += recvbuf[r] == 1000 * r + rank;
    }
    CHECK(good == size, "alltoallw: %d of %d right", good, size);
    free(types);
    free(displs);
    free(counts);
    free(recvbuf);
    free(sendbuf);
    free(all);
}

/* Overwrites the stack below the caller: where a thunk's temporary arrays were. */
static void __attribute__((noinline)) clobber_stack(void)
{
    volatile unsigned char junk[1 << 16];
    for (size_t i = 0; i < sizeof junk; ++i) {
        junk[i] = 0xa5;
    }
}

/* A non-blocking and a persistent alltoallw: the runtime reads the (converted) datatype arrays after
 * the starting call has returned, in Open MPI's libnbc as late as the wait. Pairs of ints, so a runtime
 * reading a stale array would move the wrong number of bytes. */
static void check_nonblocking_w(int rank, int size)
{
    MPI_Datatype pair = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int *sendbuf = calloc((size_t)(2 * size), sizeof(int)), *recvbuf = calloc((size_t)(2 * size), sizeof(int));
    int *counts = calloc((size_t)size, sizeof(int)), *displs = calloc((size_t)size, sizeof(int));
    MPI_Datatype *types = calloc((size_t)size, sizeof(MPI_Datatype));
    for (int r = 0; r < size; ++r) {
        counts[r] = 1;
        displs[r] = 2 * r * (int)sizeof(int);
        types[r] = pair;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    for (int round = 0; round < 3; ++round) {
        for (int r = 0; r < size; ++r) {
            sendbuf[2 * r] = 1000 * rank + r + round;
            sendbuf[2 * r + 1] = -(1000 * rank + r + round);
        }
        memset(recvbuf, 0, (size_t)(2 * size) * sizeof(int));
        if (round == 0) {
            CHECK(MPI_Ialltoallw(sendbuf, counts, displs, types, recvbuf, counts, displs, types, MPI_COMM_WORLD,
                                 &req) == MPI_SUCCESS, "Ialltoallw");
        } else {
            if (round == 1) {
                CHECK(MPI_Alltoallw_init(sendbuf, counts, displs, types, recvbuf, counts, displs, types,
                                         MPI_COMM_WORLD, MPI_INFO_NULL, &req) == MPI_SUCCESS, "Alltoallw_init");
            }
            clobber_stack();
            CHECK(MPI_Start(&req) == MPI_SUCCESS, "Start");
        }
        clobber_stack();
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Wait");
        int good = 0;
        for (int r = 0; r < size; ++r) {
            good += recvbuf[2 * r] == 1000 * r + rank + round && recvbuf[2 * r + 1] == -(1000 * r + rank + round);
        }
        CHECK(good == size, "%s alltoallw: %d of %d right", round == 0 ? "non-blocking" : "persistent", good, size);
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL, "Request_free of the persistent alltoallw");
    MPI_Type_free(&pair);
    free(types);
    free(displs);
    free(counts);
    free(recvbuf);
    free(sendbuf);
}

static void check_bottom(int rank, int size)
{
    struct {
        int a;
        double b;
    } item = {0, 0.0};
    MPI_Aint addrs[2];
    int lens[2] = {1, 1};
    MPI_Datatype parts[2] = {MPI_INT, MPI_DOUBLE}, abs_type = MPI_DATATYPE_NULL;
    MPI_Get_address(&item.a, &addrs[0]);
    MPI_Get_address(&item.b, &addrs[1]);
    MPI_Type_create_struct(2, lens, addrs, parts, &abs_type);
    MPI_Type_commit(&abs_type);
    if (rank == 0) {
        item.a = 42;
        item.b = 2.5;
    }
    CHECK(MPI_Bcast(MPI_BOTTOM, 1, abs_type, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "Bcast(MPI_BOTTOM)");
    CHECK(item.a == 42 && item.b == 2.5, "MPI_BOTTOM with absolute addresses: %d %g", item.a, item.b);
    MPI_Type_free(&abs_type);
    (void)size;
}

static void check_identity(int rank, int size)
{
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL, split = MPI_COMM_NULL, again = MPI_COMM_NULL;
    int key = MPI_KEYVAL_INVALID, flag = 0, result = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    CHECK(a != b && a != MPI_COMM_WORLD && a != MPI_COMM_NULL, "two duplicates are two handles");
    /* A handle kept by the application compares equal to the one the runtime gives back later. */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &split);
    MPI_Comm *stored = NULL;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &stored, &flag) == MPI_SUCCESS && flag && stored == &split &&
              *stored == split, "the attribute gives back the same value");
    MPI_Group g = MPI_GROUP_NULL;
    MPI_Comm_group(split, &g);
    MPI_Comm_create(split, g, &again);
    CHECK(MPI_Comm_compare(split, again, &result) == MPI_SUCCESS && result == MPI_CONGRUENT,
          "create from the split's group: %d", result);
    CHECK(again != split, "MPI_Comm_create makes a new handle");
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm idup = MPI_COMM_NULL;
    MPI_Comm_idup(split, &idup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(idup != MPI_COMM_NULL && idup != split && idup != again, "MPI_Comm_idup gives a third handle");
    MPI_Comm_compare(idup, split, &result);
    CHECK(result == MPI_CONGRUENT, "the idup is congruent: %d", result);
    /* Handles of runtime objects are stable across calls that return them. */
    MPI_Errhandler e1 = MPI_ERRHANDLER_NULL, e2 = MPI_ERRHANDLER_NULL;
    MPI_Comm_set_errhandler(split, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(split, &e1);
    MPI_Comm_get_errhandler(split, &e2);
    CHECK(e1 == e2 && e1 == MPI_ERRORS_RETURN, "the same error handler twice");
    MPI_Errhandler_free(&e1);
    MPI_Errhandler_free(&e2);
    MPI_Group g1 = MPI_GROUP_NULL, g2 = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_SELF, &g1);
    MPI_Group_union(g1, MPI_GROUP_EMPTY, &g2);
    CHECK(MPI_Group_compare(g1, g2, &result) == MPI_SUCCESS && result == MPI_IDENT, "group union with the empty group");
    MPI_Group_free(&g1);
    MPI_Group_free(&g2);
    MPI_Group_free(&g);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&idup);
    MPI_Comm_free(&again);
    MPI_Comm_free(&split);
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    CHECK(a == MPI_COMM_NULL && b == MPI_COMM_NULL && split == MPI_COMM_NULL, "freed handles are MPI_COMM_NULL");
    MPI_Datatype t1 = MPI_DATATYPE_NULL, t2 = MPI_DATATYPE_NULL;
    MPI_Type_dup(MPI_DOUBLE, &t1);
    MPI_Type_dup(t1, &t2);
    CHECK(t1 != t2 && t1 != MPI_DOUBLE, "two dups are two types");
    MPI_Type_free(&t2);
    MPI_Type_free(&t1);
    CHECK(t1 == MPI_DATATYPE_NULL && t2 == MPI_DATATYPE_NULL, "freed types are MPI_DATATYPE_NULL");
    (void)size;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_in_place(rank, size);
    check_bottom(rank, size);
    check_nonblocking_w(rank, size);
    check_identity(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_collectives");
}
