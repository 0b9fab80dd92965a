/* What the point-to-point test programs share: a check that names the failure and ends the job with
 * MPI_Abort, and a byte pattern that depends on the message and the position. Plain MPI C. */
#ifndef TESSERA_TESTS_MPI_P2P_CHECK_H
#define TESSERA_TESTS_MPI_P2P_CHECK_H

#include "../mpi_check.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static inline unsigned char pattern(unsigned long message, unsigned long i)
{
    return (unsigned char)((message * 131u + i * 7u + (i >> 9)) & 0xffu);
}

static inline void fill(unsigned char *buf, size_t n, unsigned long message)
{
    for (size_t i = 0; i < n; ++i) {
        buf[i] = pattern(message, i);
    }
}

/* The first wrong byte, or -1. */
static inline long first_bad(const unsigned char *buf, size_t n, unsigned long message)
{
    for (size_t i = 0; i < n; ++i) {
        if (buf[i] != pattern(message, i)) {
            return (long)i;
        }
    }
    return -1;
}

/* A barrier from point-to-point calls (the p2p tests do not depend on the collectives). */
static inline void p2p_barrier(void)
{
    int rank, size, token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 1) {
        return;
    }
    if (rank == 0) {
        for (int i = 1; i < size; ++i) {
            MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 32000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int i = 1; i < size; ++i) {
            MPI_Send(&token, 1, MPI_INT, i, 32001, MPI_COMM_WORLD);
        }
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, 32000, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, 32001, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

#endif
