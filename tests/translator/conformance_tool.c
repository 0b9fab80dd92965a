/* Translator conformance: the MPI tool information interface. Variable bindings (MPI_T_BIND_*) come
 * back as the ABI's values, and a performance or control variable bound to a communicator gets the
 * runtime's own communicator when the application passes &MPI_COMM_WORLD to MPI_T_*_handle_alloc (Open
 * MPI's ob1 queue lengths are bound to communicators and read the object behind the pointer: an
 * unconverted application handle there is a crash). Runtimes without bound variables exercise the
 * unbound path only, which the program says; `--expect-bound` (given where the runtime is known to have
 * such variables: Open MPI with its ob1 pml) makes their absence a failure. */
#include "conformance.h"

#include <string.h>

static int known_bind(int bind)
{
    const int binds[] = {MPI_T_BIND_NO_OBJECT, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
                         MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP,
                         MPI_T_BIND_MPI_OP, MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
                         MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO, MPI_T_BIND_MPI_SESSION};
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; ++i) {
        if (bind == binds[i]) {
            return 1;
        }
    }
    return 0;
}

/* Reads every pvar bound to a communicator through a handle bound to MPI_COMM_WORLD. */
static int read_comm_pvars(void)
{
    int num = 0, read = 0;
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    CHECK(MPI_T_pvar_get_num(&num) == MPI_SUCCESS, "MPI_T_pvar_get_num");
    CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS, "MPI_T_pvar_session_create");
    for (int i = 0; i < num; ++i) {
        char name[256];
        int name_len = sizeof name, verbosity = 0, var_class = 0, bind = -1, readonly = 0, continuous = 0,
            atomic = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_T_enum enumtype = MPI_T_ENUM_NULL;
        if (MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, NULL, NULL, &bind,
                                &readonly, &continuous, &atomic) != MPI_SUCCESS) {
            continue;
        }
        CHECK(known_bind(bind), "pvar %s: binding %d is one of the ABI's MPI_T_BIND_*", name, bind);
        if (bind != MPI_T_BIND_MPI_COMM || type != MPI_UNSIGNED || var_class == MPI_T_PVAR_CLASS_TIMER) {
            continue;
        }
        MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
        MPI_Comm comm = MPI_COMM_WORLD;
        int count = -1;
        CHECK(MPI_T_pvar_handle_alloc(session, i, &comm, &handle, &count) == MPI_SUCCESS,
              "pvar %s: a handle bound to MPI_COMM_WORLD", name);
        /* ob1's queue lengths have one element per rank of the communicator they are bound to. */
        CHECK(count >= 1 && count <= 64, "pvar %s: %d elements", name, count);
        if (handle == MPI_T_PVAR_HANDLE_NULL || count < 1 || count > 64) {
            continue;
        }
        unsigned values[64];
        for (int k = 0; k < count; ++k) {
            values[k] = 12345u;
        }
        if (!continuous) {
            MPI_T_pvar_start(session, handle);
        }
        CHECK(MPI_T_pvar_read(session, handle, values) == MPI_SUCCESS && values[count - 1] != 12345u,
              "pvar %s: read through the bound handle", name);
        if (!continuous) {
            MPI_T_pvar_stop(session, handle);
        }
        CHECK(MPI_T_pvar_handle_free(session, &handle) == MPI_SUCCESS && handle == MPI_T_PVAR_HANDLE_NULL,
              "pvar %s: handle freed", name);
        ++read;
    }
    CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS && session == MPI_T_PVAR_SESSION_NULL,
          "MPI_T_pvar_session_free");
    return read;
}

/* Every cvar's binding is an ABI value; unbound cvars get a handle with obj_handle NULL. */
static int alloc_unbound_cvars(void)
{
    int num = 0, allocated = 0;
    CHECK(MPI_T_cvar_get_num(&num) == MPI_SUCCESS, "MPI_T_cvar_get_num");
    for (int i = 0; i < num; ++i) {
        char name[256];
        int name_len = sizeof name, verbosity = 0, bind = -1, scope = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_T_enum enumtype = MPI_T_ENUM_NULL;
        if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, NULL, NULL, &bind, &scope) !=
            MPI_SUCCESS) {
            continue;
        }
        CHECK(known_bind(bind), "cvar %s: binding %d is one of the ABI's MPI_T_BIND_*", name, bind);
        if (bind != MPI_T_BIND_NO_OBJECT || allocated >= 8) {
            continue;
        }
        MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
        int count = -1;
        CHECK(MPI_T_cvar_handle_alloc(i, NULL, &handle, &count) == MPI_SUCCESS && count >= 0,
              "cvar %s: an unbound handle", name);
        CHECK(MPI_T_cvar_handle_free(&handle) == MPI_SUCCESS && handle == MPI_T_CVAR_HANDLE_NULL,
              "cvar %s: handle freed", name);
        ++allocated;
    }
    return allocated;
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
    const int cvars = alloc_unbound_cvars();
    const int bound = read_comm_pvars();
    if (argc > 1 && strcmp(argv[1], "--expect-bound") == 0) {
        CHECK(bound > 0, "a pvar bound to a communicator was read (--expect-bound)");
    }
    CHECK(MPI_T_finalize() == MPI_SUCCESS, "MPI_T_finalize");
    if (rank == 0) {
        printf("conformance_tool: %d unbound cvar handles, %d pvars read through a handle bound to "
               "MPI_COMM_WORLD%s\n", cvars, bound, bound == 0 ? " (the runtime binds none to communicators)" : "");
    }
    return conformance_end("conformance_tool");
}
