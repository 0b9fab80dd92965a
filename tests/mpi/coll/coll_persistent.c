/*
 * Persistent collectives (MPI-4.1 6.13, 7.8): each request started many times with new data, the same
 * result as the blocking call every time; requests started in different orders by different ranks
 * (allowed: each keeps the collective numbers of its initialization); MPI_Startall; MPI_Test on a
 * running one; MPI_IN_PLACE; a neighbourhood collective; freeing an inactive one; the _init call
 * checking its arguments (named in the error) and MPI_Start refusing an active request.
 */
#include "coll_check.h"

static int rank, size;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = 5, rounds = 20, root = size - 1;
    int *in = ints((size_t)n * (size_t)size), *out = ints((size_t)n * (size_t)size);
    int *gathered = ints((size_t)n * (size_t)size), value = -1, scanned = -1, flag = 0;
    MPI_Request sum, bcast, barrier, a2a, gather, scan, both[2];

    MPI_Allreduce_init(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &sum);
    MPI_Bcast_init(&value, 1, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &barrier);
    MPI_Alltoall_init(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a2a);
    MPI_Gather_init(rank == root ? MPI_IN_PLACE : in, n, MPI_INT, gathered, n, MPI_INT, root, MPI_COMM_WORLD,
                    MPI_INFO_NULL, &gather);
    MPI_Scan_init(&rank, &scanned, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &scan);

    for (int k = 0; k < rounds; ++k) {
        /* Allreduce, and a blocking collective in between (its numbers are its own). */
        for (int i = 0; i < n; ++i) {
            in[i] = rank * 10 + i + k;
        }
        MPI_Start(&sum);
        MPI_Barrier(MPI_COMM_WORLD);
        while (!flag) {
            MPI_Test(&sum, &flag, MPI_STATUS_IGNORE);
        }
        flag = 0;
        for (int i = 0; i < n; ++i) {
            CHECK(out[i] == 10 * size * (size - 1) / 2 + size * (i + k), "round %d: allreduce[%d] = %d", k, i, out[i]);
        }
        /* Broadcast and barrier started in opposite orders by the root and the others. */
        value = rank == root ? 1000 + k : -1;
        if (rank == root) {
            MPI_Start(&bcast);
            MPI_Start(&barrier);
        } else {
            MPI_Start(&barrier);
            MPI_Start(&bcast);
        }
        both[0] = bcast;
        both[1] = barrier;
        MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
        CHECK(value == 1000 + k, "round %d: bcast gave %d", k, value);
        /* Alltoall, gather in place at the root and scan, together. */
        for (int i = 0; i < (n > size ? n : size); ++i) {
            in[i] = rank * 100 + i + k;
        }
        if (rank == root) {
            for (int i = 0; i < n; ++i) {
                gathered[root * n + i] = rank * 100 + i + k;
            }
        }
        MPI_Request three[3] = {a2a, gather, scan};
        MPI_Startall(3, three);
        MPI_Waitall(3, three, MPI_STATUSES_IGNORE);
        for (int p = 0; p < size; ++p) {
            CHECK(out[p] == p * 100 + rank + k, "round %d: alltoall from %d gave %d", k, p, out[p]);
        }
        for (int p = 0; p < size && rank == root; ++p) {
            for (int i = 0; i < n; ++i) {
                CHECK(gathered[p * n + i] == p * 100 + i + k, "round %d: gather [%d][%d] = %d", k, p, i,
                      gathered[p * n + i]);
            }
        }
        CHECK(scanned == rank * (rank + 1) / 2, "round %d: scan gave %d", k, scanned);
    }

    /* A neighbourhood collective on a periodic ring. */
    {
        MPI_Comm ring;
        int dims[1] = {size}, periods[1] = {1}, mine = rank, from[2] = {-1, -1};
        MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
        MPI_Request nb;
        MPI_Neighbor_allgather_init(&mine, 1, MPI_INT, from, 1, MPI_INT, ring, MPI_INFO_NULL, &nb);
        for (int k = 0; k < 3; ++k) {
            mine = rank + 1000 * k;
            MPI_Start(&nb);
            MPI_Wait(&nb, MPI_STATUS_IGNORE);
            CHECK(from[0] == (rank + size - 1) % size + 1000 * k && from[1] == (rank + 1) % size + 1000 * k,
                  "neighbor allgather round %d: %d %d", k, from[0], from[1]);
        }
        MPI_Request_free(&nb);
        MPI_Comm_free(&ring);
    }

    /* Errors: the _init call checks what its I-form would; MPI_Start refuses an active request. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request bad = MPI_REQUEST_NULL;
    int cls = -1;
    MPI_Error_class(MPI_Allreduce_init(in, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &bad), &cls);
    CHECK(cls == MPI_ERR_COUNT && bad == MPI_REQUEST_NULL, "MPI_Allreduce_init with count -1: class %d", cls);
    MPI_Error_class(MPI_Bcast_init(&value, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &bad), &cls);
    CHECK(cls == MPI_ERR_ROOT && bad == MPI_REQUEST_NULL, "MPI_Bcast_init with root %d: class %d", size, cls);
    MPI_Start(&barrier);
    MPI_Error_class(MPI_Start(&barrier), &cls);
    CHECK(cls == MPI_ERR_REQUEST, "MPI_Start of an active request: class %d", cls);
    MPI_Wait(&barrier, MPI_STATUS_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Request *all[] = {&sum, &bcast, &barrier, &a2a, &gather, &scan};
    for (int i = 0; i < 6; ++i) {
        CHECK(MPI_Request_free(all[i]) == MPI_SUCCESS && *all[i] == MPI_REQUEST_NULL, "freeing request %d", i);
    }
    free(in);
    free(out);
    free(gathered);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("coll_persistent: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
