/* Translator conformance: the communicator MPI_Comm_idup hands out before its request completes takes
 * an error handler, a name and attributes at once (Open MPI and MPICH accept them, and programs set the
 * error handler right after the call); the completed communicator has them. Its original keeps its own.
 * Any number of ranks. */
#include "conformance.h"

#include <string.h>

static int handler_calls, handler_code;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    ++handler_calls;
    handler_code = *code;
}

static void pending(int with_info)
{
    const char *what = with_info ? "MPI_Comm_idup_with_info" : "MPI_Comm_idup";
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    const int rc = with_info ? MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &req)
                             : MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (with_info && cls == MPI_ERR_UNSUPPORTED_OPERATION) { /* MPI-4.0's; Open MPI 4.1 lacks it */
        printf("conformance_idup_pending: %s is not provided by this runtime\n", what);
        MPI_Comm_free_keyval(&keyval);
        MPI_Errhandler_free(&eh);
        return;
    }
    CHECK(rc == MPI_SUCCESS, "%s", what);

    /* Before the request completes. */
    CHECK(MPI_Comm_set_errhandler(dup, eh) == MPI_SUCCESS, "%s: MPI_Comm_set_errhandler on the pending result",
          what);
    CHECK(MPI_Comm_set_name(dup, "pending dup") == MPI_SUCCESS, "%s: MPI_Comm_set_name on the pending result", what);
    CHECK(MPI_Comm_set_attr(dup, keyval, (void *)(MPI_Aint)7) == MPI_SUCCESS,
          "%s: MPI_Comm_set_attr on the pending result", what);

    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && dup != MPI_COMM_NULL, "%s: MPI_Wait", what);

    /* After: what was set stays. */
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(dup, &got) == MPI_SUCCESS && got == eh, "%s: the handler set while pending", what);
    if (got != MPI_ERRHANDLER_NULL) {
        MPI_Errhandler_free(&got);
    }
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = -1;
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && strcmp(name, "pending dup") == 0,
          "%s: the name set while pending: '%s'", what, name);
    void *value = NULL;
    int flag = 0;
    CHECK(MPI_Comm_get_attr(dup, keyval, &value, &flag) == MPI_SUCCESS && flag && value == (void *)(MPI_Aint)7,
          "%s: the attribute set while pending: flag %d value %p", what, flag, value);
    handler_calls = 0;
    CHECK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER) == MPI_SUCCESS && handler_calls == 1 &&
              handler_code == MPI_ERR_OTHER,
          "%s: the handler set while pending runs (%d calls)", what, handler_calls);
    int size = 0, world = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    CHECK(MPI_Barrier(dup) == MPI_SUCCESS && MPI_Comm_size(dup, &size) == MPI_SUCCESS && size == world,
          "%s: the duplicate works: size %d", what, size);

    /* The original keeps its handler. */
    got = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS && got == MPI_ERRORS_RETURN,
          "%s: MPI_COMM_WORLD's handler changed", what);
    if (got != MPI_ERRHANDLER_NULL) {
        MPI_Errhandler_free(&got);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free_keyval(&keyval);
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    pending(0);
    pending(1);
    return conformance_end("conformance_idup_pending");
}
