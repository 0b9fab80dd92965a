/* One-sided operations in fence epochs (MPI_Put, MPI_Get, MPI_Accumulate), with predefined and derived
 * datatypes on both sides, MPI_PROC_NULL targets, several epochs in a row and windows from
 * MPI_Win_create and MPI_Win_allocate; every result is compared with what the ranks know was sent. */
#include "../mpi_check.h"

enum { N = 64 };

static int rank, size;

/* Every rank puts its rank into element `rank` of every other's window, gets element `rank` of its
 * right neighbour's, and accumulates rank + 1 into element N - 1 of everyone's. */
static void basic_epochs(MPI_Win win, int *mem)
{
    for (int i = 0; i < N; ++i) {
        mem[i] = -1;
    }
    mem[N - 1] = 0;
    MPI_Win_fence(0, win);
    for (int t = 0; t < size; ++t) {
        MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win);
        int one = rank + 1;
        MPI_Accumulate(&one, 1, MPI_INT, t, N - 1, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    for (int r = 0; r < size; ++r) {
        CHECK(mem[r] == r, "element %d is %d after the puts, expected %d", r, mem[r], r);
    }
    CHECK(mem[N - 1] == size * (size + 1) / 2, "accumulated %d, expected %d", mem[N - 1], size * (size + 1) / 2);
    /* A second epoch reads what the first wrote. */
    int got[N];
    const int right = (rank + 1) % size;
    MPI_Get(got, size, MPI_INT, right, 0, size, MPI_INT, win);
    MPI_Get(&got[size], 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int r = 0; r < size; ++r) {
        CHECK(got[r] == r, "got element %d of rank %d: %d", r, right, got[r]);
    }
}

/* A strided origin into a contiguous target, a contiguous origin into an indexed target, and a get
 * through a vector on the target side; accumulate MPI_MAX through a vector. */
static void derived_types(MPI_Win win, double *mem)
{
    MPI_Datatype every_other, pick;
    MPI_Type_vector(N / 4, 1, 2, MPI_DOUBLE, &every_other); /* N/4 elements, stride 2 */
    MPI_Type_commit(&every_other);
    const int lens[3] = {2, 1, 3}, disps[3] = {N / 2, N / 2 + 5, N / 2 + 9};
    MPI_Type_indexed(3, lens, disps, MPI_DOUBLE, &pick);
    MPI_Type_commit(&pick);
    for (int i = 0; i < N; ++i) {
        mem[i] = 1000.0 * rank + i;
    }
    MPI_Win_fence(0, win);
    const int left = (rank + size - 1) % size;
    double src[N / 2];
    for (int i = 0; i < N / 2; ++i) {
        src[i] = 100.0 * rank + i;
    }
    /* Rank r writes into rank r+1: elements 0..N/4-1 get src[0], src[2], ... */
    MPI_Put(src, 1, every_other, (rank + 1) % size, 0, N / 4, MPI_DOUBLE, win);
    double six[6] = {-1, -2, -3, -4, -5, -6};
    MPI_Put(six, 6, MPI_DOUBLE, (rank + 1) % size, 0, 1, pick, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < N / 4; ++i) {
        CHECK(mem[i] == 100.0 * left + 2 * i, "element %d: %g, expected %g", i, mem[i], 100.0 * left + 2 * i);
    }
    const int where[6] = {N / 2, N / 2 + 1, N / 2 + 5, N / 2 + 9, N / 2 + 10, N / 2 + 11};
    for (int k = 0; k < 6; ++k) {
        CHECK(mem[where[k]] == six[k], "indexed element %d: %g, expected %g", where[k], mem[where[k]], six[k]);
    }
    CHECK(mem[N / 2 + 2] == 1000.0 * rank + N / 2 + 2, "a gap of the indexed type was written");
    /* The next epoch accumulates into elements read above: they must all have been read first. */
    MPI_Win_fence(0, win);
    /* Get every other element of the right neighbour's first half into a contiguous buffer. */
    double got[N / 4];
    MPI_Get(got, N / 4, MPI_DOUBLE, (rank + 1) % size, 0, 1, every_other, win);
    /* Accumulate MAX of (rank * 10000) through the vector: every other element of everyone's. */
    double big[N / 4];
    for (int i = 0; i < N / 4; ++i) {
        big[i] = 10000.0 * rank;
    }
    for (int t = 0; t < size; ++t) {
        MPI_Accumulate(big, N / 4, MPI_DOUBLE, t, 1, 1, every_other, MPI_MAX, win);
    }
    MPI_Win_fence(0, win);
    const int right = (rank + 1) % size;
    for (int i = 0; i < N / 4; ++i) {
        /* The right neighbour's element 2i: this rank's put wrote the first N/4 of them. */
        const int j = 2 * i;
        const double expect = j < N / 4 ? 100.0 * rank + 2 * j : 1000.0 * right + j;
        CHECK(got[i] == expect, "got element %d of rank %d: %g, expected %g", j, right, got[i], expect);
    }
    for (int i = 0; i < N / 4; ++i) {
        const int j = 1 + 2 * i;
        const double was = j < N / 4 ? 100.0 * left + 2 * j : 1000.0 * rank + j;
        const double expect = was > 10000.0 * (size - 1) ? was : 10000.0 * (size - 1);
        CHECK(mem[j] == expect, "MPI_MAX left %g at element %d, expected %g", mem[j], j, expect);
    }
    MPI_Type_free(&every_other);
    MPI_Type_free(&pick);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int mem[N];
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    basic_epochs(win, mem);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");

    double *dmem = NULL;
    MPI_Win_allocate(N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dmem, &win);
    CHECK(dmem != NULL, "MPI_Win_allocate gave no memory");
    derived_types(win, dmem);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);

    /* A window of a split communicator: ranks are the split's. */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    MPI_Comm_rank(half, &rank);
    MPI_Comm_size(half, &size);
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, half, &win);
    basic_epochs(win, mem);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&half);

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("win_fence: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
