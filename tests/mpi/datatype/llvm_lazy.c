/*
 * LLVM is mapped only when a derived type is committed under the jit engine: MPI_Init and
 * point-to-point traffic of predefined types must not load it, the first committed vector must (in the
 * background: the commit does not wait for it, so the check waits a while).
 * Run with `--mca dte jit`; the argument "absent" checks that it never loads (--mca dte interp).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int llvm_mapped(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    if (maps == NULL)
        return -1;
    while (!found && fgets(line, sizeof line, maps) != NULL)
        found = strstr(line, "libLLVM") != NULL;
    fclose(maps);
    return found;
}

/* Whether LLVM is mapped within `ms` milliseconds. */
static int llvm_mapped_within(int ms)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < ms; waited += 10) {
        if (llvm_mapped() == 1)
            return 1;
        nanosleep(&tick, NULL);
    }
    return llvm_mapped();
}

int main(int argc, char **argv)
{
    const int expect_later = !(argc > 1 && strcmp(argv[1], "absent") == 0);
    int rank, size, value, failures = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    value = rank;
    MPI_Sendrecv_replace(&value, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    if (llvm_mapped() != 0) {
        fprintf(stderr, "rank %d: LLVM is mapped before any derived type\n", rank);
        ++failures;
    }
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    /* Absent: a fifth of a second is long after a background load would have begun. */
    if (llvm_mapped_within(expect_later ? 30000 : 200) != expect_later) {
        fprintf(stderr, "rank %d: LLVM is %s after committing a vector\n", rank, expect_later ? "not mapped" : "mapped");
        ++failures;
    }
    MPI_Type_free(&vec);
    MPI_Finalize();
    if (failures == 0)
        printf("llvm_lazy: rank %d passed\n", rank);
    return failures != 0;
}
