/* User error handlers and error classes as an application uses them (MPI-4.1 9.3-9.5):
 *   - an error (a send to a rank outside MPI_COMM_WORLD) is returned under MPI_ERRORS_RETURN and
 *     reaches a user handler with the application's communicator handle and the error code;
 *   - a handler set on a communicator keeps working after MPI_Errhandler_free of its handle;
 *   - MPI_Comm_call_errhandler, MPI_Comm_get_errhandler with user handlers;
 *   - MPI_Add_error_class/_code/_string show in MPI_Error_class/_string and MPI_LASTUSEDCODE, and
 *     MPI 4.1's MPI_Remove_error_* take them away (Tessera only: Open MPI 4.1 and MPICH 4.0 lack them);
 *   - MPI_FILE_NULL's handler can be replaced by a file handler;
 *   - a failed call that creates an object hands out its null handle.
 * Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

#include "../p2p/p2p_check.h"

static int calls;
static MPI_Comm seen_comm = MPI_COMM_NULL;
static int seen_code;

static void on_error(MPI_Comm *comm, int *code, ...)
{
    ++calls;
    seen_comm = *comm;
    seen_code = *code;
}

static int file_calls;

static void on_file_error(MPI_File *file, int *code, ...)
{
    (void)file;
    (void)code;
    ++file_calls;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int rank, size, value = 7, rc, native;
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    native = !runtime_is("Open MPI") && !runtime_is("MPICH");

    /* Returned, no handler involved. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    CHECK(error_class(rc) == MPI_ERR_RANK && calls == 0, "a send to rank %d returns MPI_ERR_RANK (got %d)", size, rc);
    /* A call that fails hands out the null handle, not what the variable held (also translated). */
    {
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* datatypes and groups raise there */
        MPI_Request rq = (MPI_Request)&value;
        MPI_Datatype t = MPI_INT;
        MPI_Comm c = MPI_COMM_WORLD;
        MPI_Group g = MPI_GROUP_EMPTY;
        CHECK(MPI_Isend(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &rq) != MPI_SUCCESS &&
                  (rq == MPI_REQUEST_NULL || !native),
              "a failed MPI_Isend gives MPI_REQUEST_NULL");
        CHECK(MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t) != MPI_SUCCESS && t == MPI_DATATYPE_NULL,
              "a failed MPI_Type_vector gives MPI_DATATYPE_NULL");
        CHECK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c) != MPI_SUCCESS && c == MPI_COMM_NULL,
              "a failed MPI_Comm_create gives MPI_COMM_NULL");
        MPI_Group world;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        CHECK(MPI_Group_incl(world, 1, (const int[]){size}, &g) != MPI_SUCCESS && g == MPI_GROUP_NULL,
              "a failed MPI_Group_incl gives MPI_GROUP_NULL");
        MPI_Group_free(&world);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    }

    /* A user handler, whose handle is freed at once: the communicator holds it. */
    CHECK(MPI_Comm_create_errhandler(on_error, &handler) == MPI_SUCCESS && handler != MPI_ERRHANDLER_NULL,
          "MPI_Comm_create_errhandler");
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler) == MPI_SUCCESS, "set the user handler");
    CHECK(MPI_Errhandler_free(&handler) == MPI_SUCCESS && handler == MPI_ERRHANDLER_NULL, "free its handle");
    rc = MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    CHECK(calls == 1, "the user handler ran once (%d)", calls);
    CHECK(seen_comm == MPI_COMM_WORLD, "the handler got MPI_COMM_WORLD's handle");
    CHECK(error_class(seen_code) == MPI_ERR_RANK, "the handler got an MPI_ERR_RANK code (%d)", seen_code);
    CHECK(rc == seen_code, "the call returns the code the handler got (%d vs %d)", rc, seen_code);

    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS && got != MPI_ERRHANDLER_NULL &&
              got != MPI_ERRORS_RETURN && got != MPI_ERRORS_ARE_FATAL,
          "MPI_Comm_get_errhandler gives the user handler");
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS && calls == 2 &&
              seen_code == MPI_ERR_OTHER && seen_comm == MPI_COMM_WORLD,
          "MPI_Comm_call_errhandler runs the handler with the code");
    /* The same handler on MPI_COMM_SELF gets that handle. */
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, got) == MPI_SUCCESS, "set it on MPI_COMM_SELF too");
    CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS, "free the handle MPI_Comm_get_errhandler returned");
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG) == MPI_SUCCESS && calls == 3 &&
              seen_comm == MPI_COMM_SELF && seen_code == MPI_ERR_ARG,
          "the handler sees MPI_COMM_SELF");

    /* Classes and codes of the application's own. */
    {
        int cls = -1, code = -1, code2 = -1, flag = 0, len = 0, *last = NULL;
        char text[MPI_MAX_ERROR_STRING];
        CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS, "MPI_Add_error_class");
        CHECK(MPI_Add_error_code(cls, &code) == MPI_SUCCESS && code != cls, "MPI_Add_error_code");
        CHECK(MPI_Add_error_code(MPI_ERR_TRUNCATE, &code2) == MPI_SUCCESS, "a code of a predefined class");
        CHECK(MPI_Add_error_string(code, "objects: the widget overflowed") == MPI_SUCCESS, "MPI_Add_error_string");
        CHECK(MPI_Add_error_string(cls, "objects: widget errors") == MPI_SUCCESS, "a class's string");
        CHECK(MPI_Error_string(code, text, &len) == MPI_SUCCESS && strcmp(text, "objects: the widget overflowed") == 0 &&
                  len == (int)strlen(text),
              "MPI_Error_string gives the code's string: '%s'", text);
        CHECK(MPI_Error_string(cls, text, &len) == MPI_SUCCESS && strcmp(text, "objects: widget errors") == 0,
              "MPI_Error_string gives the class's string: '%s'", text);
        CHECK(error_class(code) == cls && error_class(code2) == MPI_ERR_TRUNCATE, "the classes of the new codes");
        /* Open MPI 4.1 gives MPI_ERR_UNKNOWN as the class of a class it added. */
        CHECK(runtime_is("Open MPI") || error_class(cls) == cls, "a new class is its own class");
        CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag) == MPI_SUCCESS && flag,
              "MPI_LASTUSEDCODE is set");
        /* MPICH 4.0 keeps there the last class it added, below the codes' encoded values. */
        CHECK(runtime_is("MPICH") || (*last >= code2 && *last >= code && *last >= cls),
              "MPI_LASTUSEDCODE covers the new codes");
        CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code) == MPI_SUCCESS && seen_code == code && calls == 4,
              "the handler gets the application's code");
        if (native) {
            /* MPI 4.1 */
            CHECK(MPI_Remove_error_class(cls) != MPI_SUCCESS, "a class with a code cannot be removed");
            CHECK(MPI_Remove_error_string(code) == MPI_SUCCESS, "MPI_Remove_error_string");
            CHECK(MPI_Error_string(code, text, &len) == MPI_SUCCESS && len == 0, "the string is gone");
            CHECK(MPI_Remove_error_code(code) == MPI_SUCCESS && MPI_Remove_error_code(code2) == MPI_SUCCESS,
                  "MPI_Remove_error_code");
            CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS, "MPI_Remove_error_class");
            CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag) == MPI_SUCCESS && *last < cls,
                  "MPI_LASTUSEDCODE goes down again (%d)", *last);
        }
    }

    /* Files start with MPI_FILE_NULL's handler, MPI_ERRORS_RETURN; a file handler replaces it. */
    {
        MPI_Errhandler fh = MPI_ERRHANDLER_NULL, fgot = MPI_ERRHANDLER_NULL;
        CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &fgot) == MPI_SUCCESS && fgot == MPI_ERRORS_RETURN,
              "MPI_FILE_NULL starts with MPI_ERRORS_RETURN");
        CHECK(MPI_File_create_errhandler(on_file_error, &fh) == MPI_SUCCESS, "MPI_File_create_errhandler");
        CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, fh) == MPI_SUCCESS, "set it on MPI_FILE_NULL");
        CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &fgot) == MPI_SUCCESS && fgot == fh, "and get it back");
        MPI_Errhandler_free(&fgot);
        if (native) { /* calling MPI_FILE_NULL's handler is Tessera's extension (no file can be opened yet) */
            CHECK(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO) == MPI_SUCCESS && file_calls == 1,
                  "the file handler ran");
        }
        CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN) == MPI_SUCCESS, "restore MPI_FILE_NULL's");
        MPI_Errhandler_free(&fh);
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    p2p_barrier();
    MPI_Finalize();
    if (rank == 0) {
        printf("objects_errors: all checks passed on %d ranks\n", size);
    }
    return 0;
}
