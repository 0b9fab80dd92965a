/* Error classes and the predefined error handlers, as an application sees them:
 *   - every error class of the ABI has its own non-empty MPI_Error_string, and is its own class;
 *   - with MPI_ERRORS_RETURN a function nobody provides returns MPI_ERR_UNSUPPORTED_OPERATION instead
 *     of ending the job; the argument checks return their class;
 *   - MPI_Comm_get_errhandler / MPI_Errhandler_free / MPI_Comm_call_errhandler behave as the standard
 *     says (MPI-4.1 9.3).
 * The same binary runs over the translators (tests/translator): checks of what Tessera's native engine
 * promises beyond the standard — each class has a distinct string naming it, a made-up handle is
 * refused rather than dereferenced — are made only when the native engine serves the process (MPI_Get_library_version
 * does not say "translator"); the program says which it skipped.
 * The class list is every MPI_SUCCESS, MPI_ERR_* and MPI_T_ERR_* constant of ompi/api/constants.tsv
 * (MPI_ERR_LASTCODE is a bound, not a class). */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

#define C(x) {x, #x}
static const struct {
    int code;
    const char *name;
} classes[] = {
    C(MPI_SUCCESS),
    C(MPI_ERR_BUFFER),
    C(MPI_ERR_COUNT),
    C(MPI_ERR_TYPE),
    C(MPI_ERR_TAG),
    C(MPI_ERR_COMM),
    C(MPI_ERR_RANK),
    C(MPI_ERR_REQUEST),
    C(MPI_ERR_ROOT),
    C(MPI_ERR_GROUP),
    C(MPI_ERR_OP),
    C(MPI_ERR_TOPOLOGY),
    C(MPI_ERR_DIMS),
    C(MPI_ERR_ARG),
    C(MPI_ERR_UNKNOWN),
    C(MPI_ERR_TRUNCATE),
    C(MPI_ERR_OTHER),
    C(MPI_ERR_INTERN),
    C(MPI_ERR_PENDING),
    C(MPI_ERR_IN_STATUS),
    C(MPI_ERR_ACCESS),
    C(MPI_ERR_AMODE),
    C(MPI_ERR_ASSERT),
    C(MPI_ERR_BAD_FILE),
    C(MPI_ERR_BASE),
    C(MPI_ERR_CONVERSION),
    C(MPI_ERR_DISP),
    C(MPI_ERR_DUP_DATAREP),
    C(MPI_ERR_FILE_EXISTS),
    C(MPI_ERR_FILE_IN_USE),
    C(MPI_ERR_FILE),
    C(MPI_ERR_INFO_KEY),
    C(MPI_ERR_INFO_NOKEY),
    C(MPI_ERR_INFO_VALUE),
    C(MPI_ERR_INFO),
    C(MPI_ERR_IO),
    C(MPI_ERR_KEYVAL),
    C(MPI_ERR_LOCKTYPE),
    C(MPI_ERR_NAME),
    C(MPI_ERR_NO_MEM),
    C(MPI_ERR_NOT_SAME),
    C(MPI_ERR_NO_SPACE),
    C(MPI_ERR_NO_SUCH_FILE),
    C(MPI_ERR_PORT),
    C(MPI_ERR_QUOTA),
    C(MPI_ERR_READ_ONLY),
    C(MPI_ERR_RMA_ATTACH),
    C(MPI_ERR_RMA_CONFLICT),
    C(MPI_ERR_RMA_RANGE),
    C(MPI_ERR_RMA_SHARED),
    C(MPI_ERR_RMA_SYNC),
    C(MPI_ERR_SERVICE),
    C(MPI_ERR_SIZE),
    C(MPI_ERR_SPAWN),
    C(MPI_ERR_UNSUPPORTED_DATAREP),
    C(MPI_ERR_UNSUPPORTED_OPERATION),
    C(MPI_ERR_WIN),
    C(MPI_ERR_RMA_FLAVOR),
    C(MPI_ERR_PROC_ABORTED),
    C(MPI_ERR_VALUE_TOO_LARGE),
    C(MPI_ERR_SESSION),
    C(MPI_ERR_ERRHANDLER),
    C(MPI_ERR_ABI),
    C(MPI_T_ERR_CANNOT_INIT),
    C(MPI_T_ERR_NOT_ACCESSIBLE),
    C(MPI_T_ERR_NOT_INITIALIZED),
    C(MPI_T_ERR_NOT_SUPPORTED),
    C(MPI_T_ERR_MEMORY),
    C(MPI_T_ERR_INVALID),
    C(MPI_T_ERR_INVALID_INDEX),
    C(MPI_T_ERR_INVALID_ITEM),
    C(MPI_T_ERR_INVALID_SESSION),
    C(MPI_T_ERR_INVALID_HANDLE),
    C(MPI_T_ERR_INVALID_NAME),
    C(MPI_T_ERR_OUT_OF_HANDLES),
    C(MPI_T_ERR_OUT_OF_SESSIONS),
    C(MPI_T_ERR_CVAR_SET_NOT_NOW),
    C(MPI_T_ERR_CVAR_SET_NEVER),
    C(MPI_T_ERR_PVAR_NO_WRITE),
    C(MPI_T_ERR_PVAR_NO_STARTSTOP),
    C(MPI_T_ERR_PVAR_NO_ATOMIC),
};
#undef C
#define NCLASSES (sizeof classes / sizeof classes[0])

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAILED: %s\n", what);
        ++failures;
    }
}

static char strings[NCLASSES][MPI_MAX_ERROR_STRING];

/* An MPI function returns an error code; the standard promises only its class. */
static int class_of(int code)
{
    int cls = -1;
    return MPI_Error_class(code, &cls) == MPI_SUCCESS ? cls : -1;
}

int main(int argc, char **argv)
{
    int rank = 0, value = -1, len = 0, rc, native;
    size_t i, j;
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    char text[MPI_MAX_ERROR_STRING], version[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_library_version(version, &len);
    native = strstr(version, "(translator") == NULL;

    for (i = 0; i < NCLASSES; ++i) {
        char what[MPI_MAX_ERROR_STRING + 200];
        snprintf(what, sizeof what, "%s has a string", classes[i].name);
        rc = MPI_Error_string(classes[i].code, strings[i], &len);
        check(rc == MPI_SUCCESS && len > 0 && (size_t)len == strlen(strings[i]), what);
        snprintf(what, sizeof what, "the string of %s names it: '%s'", classes[i].name, strings[i]);
        check(!native || strstr(strings[i], classes[i].name) != NULL, what);
        snprintf(what, sizeof what, "%s is its own class", classes[i].name);
        check(MPI_Error_class(classes[i].code, &value) == MPI_SUCCESS && value == classes[i].code, what);
        for (j = 0; j < i; ++j) {
            snprintf(what, sizeof what, "%s and %s have different strings", classes[j].name, classes[i].name);
            check(!native || strcmp(strings[i], strings[j]) != 0, what);
        }
    }

    /* MPI_ERRORS_ARE_FATAL is the default on both predefined communicators. */
    check(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler) == MPI_SUCCESS && handler == MPI_ERRORS_ARE_FATAL,
          "MPI_COMM_WORLD starts with MPI_ERRORS_ARE_FATAL");
    check(MPI_Errhandler_free(&handler) == MPI_SUCCESS && handler == MPI_ERRHANDLER_NULL,
          "MPI_Errhandler_free sets the handle to MPI_ERRHANDLER_NULL");
    check(MPI_Comm_get_errhandler(MPI_COMM_SELF, &handler) == MPI_SUCCESS && handler == MPI_ERRORS_ARE_FATAL,
          "MPI_COMM_SELF starts with MPI_ERRORS_ARE_FATAL");

    check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS, "set MPI_ERRORS_RETURN");
    check(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler) == MPI_SUCCESS && handler == MPI_ERRORS_RETURN,
          "MPI_Comm_get_errhandler gives back MPI_ERRORS_RETURN");

    /* A function nobody provides (MPI 4.1's, so nor Open MPI 4.1, nor MPICH 4.0): it raises on MPI_COMM_SELF. */
    check(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN) == MPI_SUCCESS, "set MPI_ERRORS_RETURN on SELF");
    /* Twice: the library says once which function is missing (mpi_hello.unsupported_notice). */
    for (int call = 0; call < 2; ++call) {
        MPI_Info hw = MPI_INFO_NULL;
        rc = MPI_Get_hw_resource_info(&hw);
    }
    check(class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Get_hw_resource_info returns MPI_ERR_UNSUPPORTED_OPERATION");
    check(MPI_Error_class(rc, &value) == MPI_SUCCESS && value == MPI_ERR_UNSUPPORTED_OPERATION,
          "its class is MPI_ERR_UNSUPPORTED_OPERATION");
    check(MPI_Error_string(rc, text, &len) == MPI_SUCCESS && len > 0, "its string is not empty");
    check(!native || strstr(text, "not supported") != NULL, "its string says the operation is not supported");

    /* Argument checks. */
    check(class_of(MPI_Comm_rank(MPI_COMM_WORLD, NULL)) == MPI_ERR_ARG, "a NULL rank pointer is MPI_ERR_ARG");
    check(class_of(MPI_Comm_size(MPI_COMM_NULL, &value)) == MPI_ERR_COMM, "MPI_COMM_NULL is MPI_ERR_COMM");
    if (native) {
        check(MPI_Comm_size((MPI_Comm)(void *)&value, &value) == MPI_ERR_COMM, "a made-up handle is MPI_ERR_COMM");
        check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL) == MPI_ERR_ARG,
              "MPI_ERRHANDLER_NULL cannot be set (MPI_ERR_ARG)");
        check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)(void *)&value) == MPI_ERR_ERRHANDLER,
              "a made-up error handler is MPI_ERR_ERRHANDLER");
        check(MPI_Wait(NULL, MPI_STATUS_IGNORE) == MPI_ERR_ARG, "MPI_Wait(NULL) is MPI_ERR_ARG");
        check(MPI_Comm_free(NULL) == MPI_ERR_ARG && MPI_Type_free(NULL) == MPI_ERR_ARG, "freeing NULL is MPI_ERR_ARG");
    } else if (rank == 0) {
        printf("errors: over a translated runtime, skipped the native engine's own checks (a distinct string "
               "naming each class, made-up handles, MPI_ERRHANDLER_NULL's class, invalid error codes)\n");
    }

    /* The handler runs and the call itself succeeds (MPI-4.1 9.3.5). */
    check(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS,
          "MPI_Comm_call_errhandler with MPI_ERRORS_RETURN returns MPI_SUCCESS");

    /* Calls without an object raise on MPI_COMM_SELF, which returns now. */
    if (native) { /* an invalid code is erroneous: what happens is the implementation's choice */
        check(class_of(MPI_Error_string(12345, text, &len)) == MPI_ERR_ARG, "an unknown error code is MPI_ERR_ARG");
        check(class_of(MPI_Error_class(-7, &value)) == MPI_ERR_ARG, "a negative error code is MPI_ERR_ARG");
    }

    MPI_Finalize();
    if (failures == 0) {
        printf("rank %d: %u error classes, each with its own string; error handlers ok\n", rank, (unsigned)NCLASSES);
    }
    return failures != 0;
}
