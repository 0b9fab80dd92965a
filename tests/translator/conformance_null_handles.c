/* Translator conformance: null handles where the standard says what happens. MPI-4.1 gives the null
 * communicator, datatype and window names ("MPI_COMM_NULL", "MPI_DATATYPE_NULL", "MPI_WIN_NULL");
 * setting MPI_ERRHANDLER_NULL as a communicator's handler is MPI_ERR_ARG, and disconnecting
 * MPI_COMM_NULL is MPI_ERR_COMM (both raised on MPI_ERRORS_RETURN here). Any number of ranks. */
#include "conformance.h"

#include <string.h>

static void null_name(const char *what, int rc, const char *name, int len, const char *expected)
{
    CHECK(rc == MPI_SUCCESS && strcmp(name, expected) == 0 && len == (int)strlen(expected),
          "%s: rc %d, name '%s' (%d), '%s' expected", what, rc, name, len, expected);
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1, rc;
    strcpy(name, "?");
    rc = MPI_Comm_get_name(MPI_COMM_NULL, name, &len);
    null_name("MPI_Comm_get_name(MPI_COMM_NULL)", rc, name, len, "MPI_COMM_NULL");
    strcpy(name, "?");
    len = -1;
    rc = MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len);
    null_name("MPI_Type_get_name(MPI_DATATYPE_NULL)", rc, name, len, "MPI_DATATYPE_NULL");
    strcpy(name, "?");
    len = -1;
    rc = MPI_Win_get_name(MPI_WIN_NULL, name, &len);
    null_name("MPI_Win_get_name(MPI_WIN_NULL)", rc, name, len, "MPI_WIN_NULL");

    rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRHANDLER_NULL);
    CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRHANDLER_NULL): class %d, "
          "MPI_ERR_ARG (%d) expected", error_class(rc), MPI_ERR_ARG);
    MPI_Errhandler kept = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &kept) == MPI_SUCCESS && kept == MPI_ERRORS_RETURN,
          "MPI_COMM_SELF keeps its handler");

    MPI_Comm none = MPI_COMM_NULL;
    rc = MPI_Comm_disconnect(&none);
    CHECK(error_class(rc) == MPI_ERR_COMM, "MPI_Comm_disconnect(MPI_COMM_NULL): class %d, MPI_ERR_COMM (%d) expected",
          error_class(rc), MPI_ERR_COMM);

    /* A communicator of the job can be disconnected: collectively freed. */
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_Comm_disconnect(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL, "MPI_Comm_disconnect of a duplicate");
    return conformance_end("conformance_null_handles");
}
