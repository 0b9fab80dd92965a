/* An MPI rank of a multi-program (MPMD) launch: prints which program it is, its rank, MPI_APPNUM,
 * MPI_UNIVERSE_SIZE and the size of MPI_COMM_WORLD, and the sum of the ranks' application numbers, so
 * that the test sees that every program's ranks are in one MPI_COMM_WORLD. Built twice, as
 * mpi_appnum_a and mpi_appnum_b (PROGRAM_NAME), to be two different programs. */
#include <mpi.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, flag = 0, appnum = -1, universe = -1;
    int *value = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag);
    if (flag) {
        appnum = *value;
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag);
    if (flag) {
        universe = *value;
    }
    int sum = 0;
    MPI_Allreduce(&appnum, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("%s rank=%d size=%d appnum=%d universe=%d appnum_sum=%d\n", PROGRAM_NAME, rank, size, appnum, universe,
           sum);
    MPI_Finalize();
    return 0;
}
