/* What every multi-rank test program shares: a check that names the failure and ends the job with
 * MPI_Abort, and which MPI library runs underneath. Plain MPI C: the programs also run over the
 * translators. */
#ifndef TESSERA_TESTS_MPI_MPI_CHECK_H
#define TESSERA_TESTS_MPI_MPI_CHECK_H

#include <mpi.h>

#include "check_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            int r_ = -1;                                                                                   \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                                            \
            CHECK_REPORT(r_, __VA_ARGS__);                                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                  \
        }                                                                                                  \
    } while (0)

/* Whether the MPI library underneath names itself `name` ("Open MPI", "MPICH"): translated, the tests
 * spare a runtime the promises it breaks natively too. */
static inline int runtime_is(const char *name)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, name) != NULL;
}

#endif
