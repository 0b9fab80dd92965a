/* A peer killed mid-transfer: rank 1 receives a stream of large messages from rank 0 and kills itself
 * (SIGKILL) half-way. The job must end with an error — mpirun reports the killed rank and ends the
 * others — instead of hanging: the test's timeout is short. */
#include "p2p_check.h"

#include <signal.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = 4 << 20;
    char *buf = calloc((size_t)n, 1);
    for (int i = 0; i < 200; ++i) {
        if (rank == 0) {
            MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        } else if (rank == 1) {
            if (i == 5) {
                raise(SIGKILL);
            }
            MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
