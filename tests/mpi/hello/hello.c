/* Hello world: every rank prints its rank and size and checks them against what the test expects
 * (argv[1]: the size of the job). Builds with the compiler wrappers too. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank = -1, size = -1, self_rank = -1, self_size = -1, len = 0;
    int expected = argc > 1 ? atoi(argv[1]) : -1;
    char host[MPI_MAX_PROCESSOR_NAME];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
    MPI_Comm_size(MPI_COMM_SELF, &self_size);
    MPI_Get_processor_name(host, &len);
    printf("Hello from rank %d of %d on %s\n", rank, size, host);
    fflush(stdout);

    if (expected > 0 && size != expected) {
        fprintf(stderr, "rank %d: size %d, expected %d\n", rank, size, expected);
        return 1;
    }
    if (rank < 0 || rank >= size) {
        fprintf(stderr, "rank %d out of range [0, %d)\n", rank, size);
        return 1;
    }
    if (self_rank != 0 || self_size != 1) {
        fprintf(stderr, "MPI_COMM_SELF: rank %d size %d, expected 0 and 1\n", self_rank, self_size);
        return 1;
    }
    if (len <= 0 || len >= MPI_MAX_PROCESSOR_NAME) {
        fprintf(stderr, "processor name length %d\n", len);
        return 1;
    }
    MPI_Finalize();
    return 0;
}
