/* The line a failed check prints, "rank R: FAILED file:line: what", shared by the test programs' CHECK
 * macros (mpi_check.h aborts the job after it, the translator conformance programs count it). Plain C;
 * __FILE__ and __LINE__ are those of the check. */
#ifndef TESSERA_TESTS_MPI_CHECK_REPORT_H
#define TESSERA_TESTS_MPI_CHECK_REPORT_H

#include <stdio.h>

#define CHECK_REPORT(rank, ...)                                                                            \
    do {                                                                                                   \
        fprintf(stderr, "rank %d: FAILED %s:%d: ", (rank), __FILE__, __LINE__);                            \
        fprintf(stderr, __VA_ARGS__);                                                                      \
        fprintf(stderr, "\n");                                                                             \
    } while (0)

#endif
