/*
 * Argument errors of the collective and op calls under MPI_ERRORS_RETURN: root out of range,
 * MPI_IN_PLACE where it is not allowed, send and receive data sharing memory (one buffer as both, one's
 * own block of the receive buffer, overlapping buffers; interleaved ones are allowed), counts that do
 * not match between ranks, an op not defined on
 * the datatype, invalid and uncommitted datatypes, negative counts, freeing a predefined op,
 * cancelling a collective. Every rank makes an erroneous call each time (a call that fails on some
 * ranks only would leave the others waiting), and collectives still work afterwards.
 * With argv[1] "fatal-root" or "fatal-op" one such error is left to MPI_ERRORS_ARE_FATAL, whose message
 * the test checks; "fatal-root-c" does it in MPI_Bcast_c right after an MPI_Bcast (the engine runs the int
 * form as the MPI_Count one, and each must be named as called).
 */
#include "coll_check.h"

static int rank, size;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int a[8] = {0}, b[8 * 64] = {0};
    MPI_Request rq;

    if (argc > 1 && strcmp(argv[1], "fatal-root") == 0) {
        MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD);
        return 0; /* not reached */
    }
    if (argc > 1 && strcmp(argv[1], "fatal-root-c") == 0) {
        MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast_c(a, 1, MPI_INT, size, MPI_COMM_WORLD);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "fatal-op") == 0) {
        double x = 1, y = 0;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_LAND, MPI_COMM_WORLD);
        return 0;
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    EXPECT_CLASS(MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(a, a, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(a, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(a, b, 4, MPI_DOUBLE, MPI_LAND, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allreduce(a, b, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_scatter_block(a, b, 1, MPI_WCHAR, MPI_MAX, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Scan(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Reduce_local(a, b, 1, MPI_FLOAT, MPI_BXOR), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allgather(b, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    /* MPI_IN_PLACE as a non-root's sendbuf of MPI_Gather; the root's call fails on its recvtype. */
    EXPECT_CLASS(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, b, 1, rank == 0 ? MPI_DATATYPE_NULL : MPI_INT, 0, MPI_COMM_WORLD),
                 rank == 0 ? MPI_ERR_TYPE : MPI_ERR_BUFFER);
    /* ... and as a non-root's recvbuf of MPI_Scatter. */
    EXPECT_CLASS(MPI_Scatter(b, 1, rank == 0 ? MPI_DATATYPE_NULL : MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0,
                             MPI_COMM_WORLD),
                 rank == 0 ? MPI_ERR_TYPE : MPI_ERR_BUFFER);
    /* A negative count among the recvcounts of MPI_Allgatherv. */
    int counts[64], displs[64];
    for (int r = 0; r < size; ++r) {
        counts[r] = r == size - 1 ? -1 : 1;
        displs[r] = r;
    }
    EXPECT_CLASS(MPI_Allgatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    /* Negative counts where they are significant (the library checks them, not the bindings: elsewhere
     * the standard ignores them, coll_inplace passes -1 there). */
    EXPECT_CLASS(MPI_Gather(a, -1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Scatter(a, 1, MPI_INT, b, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Alltoall(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    /* Send and receive data in the same memory without MPI_IN_PLACE: one's own block of the receive
     * buffer as the send buffer (or, at a scatter's root, the reverse), overlapping contiguous buffers.
     * Non-roots of the rooted ones err by MPI_IN_PLACE. */
    const int last = size - 1;
    int ones[64], iota[64];
    for (int r = 0; r < size; ++r) {
        ones[r] = 1;
        iota[r] = r;
    }
    EXPECT_CLASS(MPI_Allgather(&b[rank], 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allgatherv(&b[rank], 1, MPI_INT, b, ones, iota, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Iallgather(&b[rank], 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &rq), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Gather(rank == last ? (void *)&b[last] : MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, last,
                            MPI_COMM_WORLD),
                 MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Scatterv(b, ones, iota, MPI_INT, rank == last ? (void *)&b[last] : MPI_IN_PLACE, 1, MPI_INT,
                              last, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(b, b + 1, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Alltoall(b, 1, MPI_INT, b + last, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    /* Interleaved without sharing a byte is allowed: even elements in, odd elements out. */
    MPI_Datatype evens;
    MPI_Type_vector(4, 1, 2, MPI_INT, &evens);
    MPI_Type_commit(&evens);
    for (int i = 0; i < 8; ++i) {
        b[i] = i % 2 == 0 ? rank + i : -1;
    }
    CHECK(MPI_Allreduce(b, b + 1, 1, evens, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "interleaved MPI_Allreduce");
    for (int i = 0; i < 8; i += 2) {
        CHECK(b[i] == rank + i && b[i + 1] == size * (size - 1) / 2 + size * i,
              "interleaved MPI_Allreduce: elements %d and %d are %d and %d", i, i + 1, b[i], b[i + 1]);
    }
    MPI_Type_free(&evens);
    /* Counts that do not match: a receive longer than what comes is MPI_ERR_COUNT, a shorter one
     * MPI_ERR_TRUNCATE, seen by the rank that receives from the mismatched one (pairs of ranks here, so
     * that the receiver is the root's direct peer whatever the algorithm), also through MPI_Wait. */
    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
    int prank = 0, psize = 1;
    MPI_Comm_rank(pair, &prank);
    MPI_Comm_size(pair, &psize);
    if (psize == 2) {
        MPI_Comm_set_errhandler(pair, MPI_ERRORS_RETURN);
        EXPECT_CLASS(MPI_Bcast(a, prank == 0 ? 1 : 4, MPI_INT, 0, pair), prank == 0 ? MPI_SUCCESS : MPI_ERR_COUNT);
        EXPECT_CLASS(MPI_Bcast(a, prank == 0 ? 4 : 1, MPI_INT, 0, pair), prank == 0 ? MPI_SUCCESS : MPI_ERR_TRUNCATE);
        CHECK(MPI_Ibcast(a, prank == 0 ? 1 : 4, MPI_INT, 0, pair, &rq) == MPI_SUCCESS, "MPI_Ibcast");
        EXPECT_CLASS(MPI_Wait(&rq, MPI_STATUS_IGNORE), prank == 0 ? MPI_SUCCESS : MPI_ERR_COUNT);
        /* Each side receives the other's operand: which class depends on how the algorithm cuts it. */
        CHECK(MPI_Allreduce(a, b, prank == 0 ? 1 : 2, MPI_INT, MPI_SUM, pair) != MPI_SUCCESS,
              "MPI_Allreduce of 1 and 2 elements succeeded");
        a[0] = 5 + rank;
        CHECK(MPI_Bcast(a, 1, MPI_INT, 0, pair) == MPI_SUCCESS && a[0] == 5 + rank - prank, "MPI_Bcast afterwards");
    }
    MPI_Comm_free(&pair);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    EXPECT_CLASS(MPI_Bcast(a, 1, vec, 0, MPI_COMM_WORLD), MPI_ERR_TYPE); /* not committed */
    MPI_Type_free(&vec);
    MPI_Op sum = MPI_SUM;
    EXPECT_CLASS(MPI_Op_free(&sum), MPI_ERR_OP);
    CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &rq) == MPI_SUCCESS, "MPI_Ibarrier");
    EXPECT_CLASS(MPI_Cancel(&rq), MPI_ERR_REQUEST);
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait on the barrier");

    /* The communicator's collectives still agree after all that. */
    for (int i = 0; i < 8; ++i) {
        a[i] = rank + i;
    }
    CHECK(MPI_Allreduce(a, b, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Allreduce");
    for (int i = 0; i < 8; ++i) {
        CHECK(b[i] == size * (size - 1) / 2 + size * i, "MPI_Allreduce after the errors: element %d is %d", i, b[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("coll_errors: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
