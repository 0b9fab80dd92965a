/* coll sm refuses a segment its ranks disagree on: rank 1 runs with another coll_sm_depth, so it cannot
 * map rank 0's segment. Every rank must then say why (a warning naming the parameters) and run its
 * collectives through the components below, with the right results. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *rank_env = getenv("TESSERA_RANK");
    if (rank_env != NULL && strcmp(rank_env, "1") == 0)
        setenv("TESSERA_MCA_coll_sm_depth", "4", 1);
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD); /* the first collective the component would take: the segment is tried */
    for (int round = 0; round < 3; ++round) {
        double x = rank + 1 + round, sum = 0;
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        const double want = size * (size + 1) / 2.0 + size * round;
        bad += sum != want;
        int v = rank == round % size ? 40 + round : -1;
        MPI_Bcast(&v, 1, MPI_INT, round % size, MPI_COMM_WORLD);
        bad += v != 40 + round;
        int out[16], in[16];
        for (int p = 0; p < size; ++p)
            out[p] = rank * 100 + p + round;
        MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
        for (int p = 0; p < size; ++p)
            bad += in[p] != p * 100 + rank + round;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all == 0 ? "coll_sm_mismatch: all checks passed\n" : "coll_sm_mismatch: %d checks failed\n", all);
    MPI_Finalize();
    return all != 0;
}
