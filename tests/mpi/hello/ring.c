/* The demo's job: every rank passes a token and a 4 MiB block around the ring, checked on arrival, and
 * rank 0 prints what came back. Plain MPI point-to-point. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = 4 << 20;
    char *out = malloc(n), *in = malloc(n);
    memset(out, rank + 1, n);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(out, n, MPI_BYTE, next, 1, in, n, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = in[0] == prev + 1 && in[n - 1] == prev + 1;
    int token = 0;
    if (rank == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, next, 2, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("ring of %d ranks: the token visited %d ranks; 4 MiB blocks %s\n", size, token, ok ? "intact" : "CORRUPT");
    } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++token;
        MPI_Send(&token, 1, MPI_INT, next, 2, MPI_COMM_WORLD);
        if (!ok) {
            fprintf(stderr, "rank %d: the block from rank %d is corrupt\n", rank, prev);
        }
    }
    free(out);
    free(in);
    MPI_Finalize();
    return ok ? 0 : 1;
}
