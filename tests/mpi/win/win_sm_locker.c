/* A shared window whose rank 0 takes the exclusive lock of rank 1's part and keeps it, while every other
 * rank waits to lock it too (win_sm_killed.sh kills the holder, or the whole job, at that moment). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared(1 << 20, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
    const int target = size > 1 ? 1 : 0;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("win_sm_locker: started\n");
        fflush(stdout);
        for (;;) {
            sleep(1);
        }
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win); /* never granted: the holder dies holding it */
    printf("win_sm_locker: rank %d got a lock that was held\n", rank);
    MPI_Win_unlock(target, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 1;
}
