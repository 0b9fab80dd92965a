/* What every translator conformance program shares: a check that counts failures and names them, and the
 * end of the program. Plain MPI C against Tessera's mpi.h; the same binary runs over every translator. */
#ifndef TESSERA_TESTS_TRANSLATOR_CONFORMANCE_H
#define TESSERA_TESTS_TRANSLATOR_CONFORMANCE_H

#include <mpi.h>

#include "../mpi/check_report.h"

#include <stdio.h>
#include <string.h>

static int conformance_failures;
static int conformance_checks;

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        ++conformance_checks;                                                                              \
        if (!(cond)) {                                                                                     \
            int r_ = -1;                                                                                   \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                                            \
            CHECK_REPORT(r_, __VA_ARGS__);                                                                 \
            ++conformance_failures;                                                                        \
        }                                                                                                  \
    } while (0)

/* Whether the MPI library underneath names itself `name` ("Open MPI", "MPICH"). */
static inline int runtime_is(const char *name)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, name) != NULL;
}

/* Prints the verdict of this rank (with the runtime's name, so a log says what was tested) and returns
 * the exit status. */
static int conformance_end(const char *program)
{
    int rank = -1, len = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_library_version(version, &len);
    for (int i = 0; i < len; ++i) {
        if (version[i] == '\n') {
            version[i] = '\0';
            break;
        }
    }
    MPI_Finalize();
    printf("%s rank %d: %d checks, %d failed [%s]\n", program, rank, conformance_checks, conformance_failures,
           version);
    return conformance_failures != 0;
}

#endif
