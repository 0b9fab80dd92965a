/* Makes coll sm segments one after the other, for coll_sm_killed.sh to kill the job in the middle of
 * it: each round duplicates MPI_COMM_WORLD, runs a small allreduce (the duplicate's first collective
 * makes its segment) and a barrier on it, and frees it. Rank 0 says "coll_sm_churn: started" after
 * the first round. Runs until killed, or for argv[1] rounds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const long rounds = argc > 1 ? atol(argv[1]) : -1;
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (long i = 0; rounds < 0 || i < rounds; ++i) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        int one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        if (sum != size) {
            fprintf(stderr, "coll_sm_churn: rank %d: allreduce gave %d, not %d\n", rank, sum, size);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Barrier(c);
        MPI_Comm_free(&c);
        if (rank == 0 && i == 0) {
            printf("coll_sm_churn: started\n");
            fflush(stdout);
        }
    }
    if (rank == 0) {
        printf("coll_sm_churn: %ld rounds\n", rounds);
    }
    MPI_Finalize();
    return 0;
}
