/* How an MPI rank may end while the others still run (argv[1]):
 *   early N     rank 0 exits with status N right after MPI_Init, without MPI_Finalize; the others
 *               would sleep 30 s: mpirun must end them and report rank 0
 *   finalized   rank 0 calls MPI_Finalize and exits 0 at once, the others finish 0.5 s later: a
 *               normal job, status 0 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank = -1;
    const char *mode = argc > 1 ? argv[1] : "finalized";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (strcmp(mode, "early") == 0) {
            exit(argc > 2 ? atoi(argv[2]) : 0);
        }
        MPI_Finalize();
        return 0;
    }
    struct timespec pause = {0, 100000000};
    int rounds = strcmp(mode, "early") == 0 ? 300 : 5;
    for (int i = 0; i < rounds; ++i) {
        nanosleep(&pause, NULL);
    }
    MPI_Finalize();
    return 0;
}
