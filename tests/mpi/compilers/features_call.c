/* Calls functions the way a configure check would decide on them: tessera_features.h (through mpi.h)
 * says whether each one is implemented, and the call must agree (an unimplemented function answers
 * MPI_ERR_UNSUPPORTED_OPERATION under MPI_ERRORS_RETURN). Prints one line a function and exits 1 on
 * the first disagreement. */
#include <mpi.h>
#include <stdio.h>

#ifndef TESSERA_MPI_FUNCTIONS_TOTAL
#error "mpi.h did not include tessera_features.h"
#endif

static int failures;

static void expect(const char *name, int have, int rc)
{
    const int unsupported = rc == MPI_ERR_UNSUPPORTED_OPERATION;
    printf("%s: macro %d, call returned %d\n", name, have, rc);
    if (have == unsupported) {
        printf("FAIL: %s: the macro says %d but the call %s\n", name, have,
               unsupported ? "is not implemented" : "is implemented");
        ++failures;
    }
}

int main(void)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);

    int rank = -1;
    expect("MPI_Comm_rank", TESSERA_HAVE_MPI_COMM_RANK, MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    expect("MPI_Barrier", TESSERA_HAVE_MPI_BARRIER, MPI_Barrier(MPI_COMM_WORLD));
    MPI_Info info = MPI_INFO_NULL;
    expect("MPI_Get_hw_resource_info", TESSERA_HAVE_MPI_GET_HW_RESOURCE_INFO, MPI_Get_hw_resource_info(&info));
    MPI_File fh = MPI_FILE_NULL;
    expect("MPI_File_open", TESSERA_HAVE_MPI_FILE_OPEN,
           MPI_File_open(MPI_COMM_SELF, "/nonexistent/tessera-features", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_Comm joined = MPI_COMM_NULL;
    expect("MPI_Comm_join", TESSERA_HAVE_MPI_COMM_JOIN, MPI_Comm_join(-1, &joined));
    /* Whole categories, as a configure check would test them. */
#if TESSERA_HAVE_MPI_IO
    printf("TESSERA_HAVE_MPI_IO: 1\n");
#else
    printf("TESSERA_HAVE_MPI_IO: 0\n");
#endif
#if TESSERA_HAVE_MPI_DPM
    printf("TESSERA_HAVE_MPI_DPM: 1\n");
#else
    printf("TESSERA_HAVE_MPI_DPM: 0\n");
#endif
    printf("TESSERA_MPI_FUNCTIONS_IMPLEMENTED: %d of %d\n", TESSERA_MPI_FUNCTIONS_IMPLEMENTED,
           TESSERA_MPI_FUNCTIONS_TOTAL);
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
