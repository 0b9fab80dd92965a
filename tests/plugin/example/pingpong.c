/*
 * Traffic for the example transport, built against the installed mpi.h and libmpi: a 2-rank ping-pong
 * over sizes from 0 bytes to past the eager limit, then a 4 MiB message each way (rendezvous, striped
 * over every module that reaches the peer). Every byte is checked; exit 1 on the first wrong one.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pattern(size_t i, int seed)
{
    return (unsigned char)((i * 131u + (size_t)seed * 7u) >> 3);
}

static int check(const unsigned char *buf, size_t len, int seed, const char *what)
{
    for (size_t i = 0; i < len; ++i) {
        if (buf[i] != pattern(i, seed)) {
            fprintf(stderr, "%s: byte %zu of %zu is %u, expected %u\n", what, i, len, buf[i], pattern(i, seed));
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) {
            fprintf(stderr, "pingpong needs 2 ranks, got %d\n", size);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t big = (size_t)4 << 20;
    unsigned char *buf = malloc(big);
    const int peer = 1 - rank;
    int bad = 0;
    const size_t sizes[] = {0, 1, 7, 64, 1000, 4096, 30000, 65536, 200000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && !bad; ++k) {
        for (int iter = 0; iter < 20 && !bad; ++iter) {
            const int seed = (int)k * 100 + iter;
            if (rank == 0) {
                for (size_t i = 0; i < sizes[k]; ++i) {
                    buf[i] = pattern(i, seed);
                }
                MPI_Send(buf, (int)sizes[k], MPI_BYTE, peer, iter, MPI_COMM_WORLD);
                memset(buf, 0, sizes[k]);
                MPI_Recv(buf, (int)sizes[k], MPI_BYTE, peer, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                bad = check(buf, sizes[k], seed + 1, "pong");
            } else {
                MPI_Recv(buf, (int)sizes[k], MPI_BYTE, peer, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                bad = check(buf, sizes[k], seed, "ping");
                for (size_t i = 0; i < sizes[k]; ++i) {
                    buf[i] = pattern(i, seed + 1);
                }
                MPI_Send(buf, (int)sizes[k], MPI_BYTE, peer, iter, MPI_COMM_WORLD);
            }
        }
    }
    for (int dir = 0; dir < 2 && !bad; ++dir) {
        const int seed = 9000 + dir;
        if (rank == dir) {
            for (size_t i = 0; i < big; ++i) {
                buf[i] = pattern(i, seed);
            }
            MPI_Send(buf, (int)big, MPI_BYTE, peer, 77, MPI_COMM_WORLD);
        } else {
            memset(buf, 0, big);
            MPI_Recv(buf, (int)big, MPI_BYTE, peer, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            bad = check(buf, big, seed, "4 MiB message");
        }
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any) {
        printf("pingpong: all bytes arrived intact\n");
    }
    free(buf);
    MPI_Finalize();
    return any;
}
