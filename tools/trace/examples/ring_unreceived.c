/* A traced run to look at with tessera-trace (docs/trace-tool.md): ten rounds of a 1 KiB message around
 * the ring, then every odd rank sends rank 0 two 8-byte messages (tag 99) that it never receives.
 *   build/bin/mpicc -O2 -o ring_unreceived tools/trace/examples/ring_unreceived.c
 *   build/bin/mpirun -np 4 --oversubscribe --mca trace otf2 --mca trace_otf2_dir /tmp/ring ./ring_unreceived
 *   build/bin/tessera-trace --matrix --pairs /tmp/ring/traces.otf2
 * The matrix shows 10 messages (10240 bytes) from each rank to the next; the warnings, 2 missing
 * receives from each odd rank to rank 0. Plain MPI C. */
#include <mpi.h>

#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    char buf[1024];
    memset(buf, rank, sizeof buf);
    for (int round = 0; round < 10; ++round) {
        if (rank == 0) {
            MPI_Send(buf, sizeof buf, MPI_BYTE, next, round, MPI_COMM_WORLD);
            MPI_Recv(buf, sizeof buf, MPI_BYTE, prev, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, sizeof buf, MPI_BYTE, prev, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, sizeof buf, MPI_BYTE, next, round, MPI_COMM_WORLD);
        }
    }
    if (rank % 2 == 1) {
        for (int i = 0; i < 2; ++i) {
            MPI_Send(buf, 8, MPI_BYTE, 0, 99, MPI_COMM_WORLD); /* small: done without a receiver */
        }
    }
    MPI_Finalize();
    return 0;
}
