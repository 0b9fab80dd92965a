/* The start-up benchmark's program: plain MPI, built unchanged against Tessera, Open MPI and MPICH. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = -1, size = 0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank < 0 || rank >= size) {
        fprintf(stderr, "bad rank %d of %d\n", rank, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
