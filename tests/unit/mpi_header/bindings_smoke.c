/* The generated bindings as a program sees them: the first call bootstraps the table, once; the fallback
 * of a function nobody provides answers MPI_ERR_UNSUPPORTED_OPERATION, names itself and raises on the
 * object its errh= names; a filled slot is called with the arguments given; the native engine's
 * argument checks are in the checked wrappers that tessera_mpi_install_checked puts in front of an
 * implementation, never in the binding itself (a runtime translator's entries are not checked);
 * inside the runtime (re-entrancy depth set) a binding calls the direct table with the arguments
 * untouched; MPI_x is a weak alias of PMPI_x, so a tool's own MPI_x wins and still reaches the library
 * through PMPI_x; while a trace module is active a binding takes its traced variant instead; the slot
 * list counts what an engine provides. The library's entry points are
 * replaced by recorders here (libmpi defines the real ones, and the depth). */
#include "tessera_mpi_dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread int tessera_translator_depth __attribute__((tls_model("initial-exec")));

static int bootstraps;
static int expect_boot_entries; /* the table held its boot entries when the bootstrap ran */
static const char *last_unsupported = "";
static int last_kind = -1;
static const void *last_object;
static const char *last_function = "";
static const char *last_detail = "";

void tessera_mpi_bootstrap(void)
{
    ++bootstraps;
    expect_boot_entries = memcmp(&tessera_mpi_dispatch, &tessera_mpi_boot_entries, sizeof tessera_mpi_dispatch) == 0;
    tessera_mpi_dispatch = tessera_mpi_unsupported_fallbacks;
    __atomic_store_n(&tessera_mpi_dispatch_ready, 1, __ATOMIC_RELEASE);
}

int tessera_mpi_unsupported(const char *name, int kind, const void *object)
{
    last_unsupported = name;
    last_kind = kind;
    last_object = object;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int tessera_mpi_raise(int kind, const void *object, int code, const char *function, const char *detail)
{
    last_kind = kind;
    last_object = object;
    last_function = function;
    last_detail = detail;
    return code;
}

/* Only the predefined communicators and error handlers exist here. */
int tessera_mpi_handle_valid(int kind, const void *handle)
{
    if (kind == TESSERA_MPI_OBJ_COMM)
        return handle == (const void *)MPI_COMM_WORLD || handle == (const void *)MPI_COMM_SELF;
    if (kind == TESSERA_MPI_OBJ_ERRHANDLER)
        return handle == (const void *)MPI_ERRORS_ARE_FATAL || handle == (const void *)MPI_ERRORS_RETURN ||
               handle == (const void *)MPI_ERRORS_ABORT;
    return 0;
}

/* No MPI_Comm_idup here: no communicator is pending. */
int tessera_mpi_comm_settable(const void *handle)
{
    return tessera_mpi_handle_valid(TESSERA_MPI_OBJ_COMM, handle);
}

static int fake_comm_rank(MPI_Comm comm, int *rank)
{
    *rank = comm == MPI_COMM_WORLD ? 3 : -1;
    return MPI_SUCCESS;
}

static int sends;

static int fake_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    (void)buf, (void)count, (void)datatype, (void)dest, (void)tag, (void)comm;
    ++sends;
    return MPI_SUCCESS;
}

static int unchecked_sends;

/* A runtime translator's entry: gets the arguments as given, checked or not. */
static int runtime_send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    (void)buf, (void)count, (void)datatype, (void)dest, (void)tag, (void)comm;
    ++unchecked_sends;
    return MPI_SUCCESS;
}

static int direct_calls;

/* The runtime's own function: a binding never calls it (only a runtime translator's thunk does). */
static int direct_comm_rank(MPI_Comm comm, int *rank)
{
    (void)comm;
    ++direct_calls;
    *rank = 42;
    return MPI_SUCCESS;
}

/* The trace framework's switch (libmpi's trace base) and the traced variants (libmpi's mpi_trace.c):
 * a recorder here. */
uint32_t mca_trace_base_hook_mask;
static int traced_ranks;

static int traced_comm_rank(MPI_Comm comm, int *rank)
{
    (void)comm;
    ++traced_ranks;
    *rank = 7;
    return MPI_SUCCESS;
}

const tessera_mpi_dispatch_t tessera_mpi_traced = {.Comm_rank = traced_comm_rank};

/* What a blocking send's binding calls after the table's entry when only send_done is wanted (libmpi's
 * mpi_trace.c): MPI_Send's records its result, the others are never reached here. */
static int sends_done, last_done_rc = -1;
void tessera_mpi_traced_after_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                   int rc)
{
    (void)buf, (void)count, (void)type, (void)dest, (void)tag, (void)comm;
    ++sends_done;
    last_done_rc = rc;
}
#define UNREACHED_AFTER(name, count_type)                                                                    \
    void tessera_mpi_traced_after_##name(const void *buf, count_type count, MPI_Datatype type, int dest,   \
                                         int tag, MPI_Comm comm, int rc)                                   \
    {                                                                                                      \
        (void)buf, (void)count, (void)type, (void)dest, (void)tag, (void)comm, (void)rc;                    \
        abort();                                                                                           \
    }
UNREACHED_AFTER(Send_c, MPI_Count)
UNREACHED_AFTER(Bsend, int)
UNREACHED_AFTER(Bsend_c, MPI_Count)
UNREACHED_AFTER(Ssend, int)
UNREACHED_AFTER(Ssend_c, MPI_Count)
UNREACHED_AFTER(Rsend, int)
UNREACHED_AFTER(Rsend_c, MPI_Count)

static int tool_barriers;

/* A profiling tool's wrapper, linked into the program. */
int MPI_Barrier(MPI_Comm comm)
{
    ++tool_barriers;
    return PMPI_Barrier(comm);
}

static int checks, failures;

static void expect(int ok, const char *what)
{
    ++checks;
    if (!ok) {
        printf("FAILED: %s\n", what);
        ++failures;
    }
}

int main(void)
{
    int rank = -1;
    size_t i, filled = 0;
    const char *filled_name = "";
    MPI_Comm bogus = (MPI_Comm)(void *)&rank;

    expect(MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_ERR_UNSUPPORTED_OPERATION,
           "an empty slot returns MPI_ERR_UNSUPPORTED_OPERATION");
    expect(bootstraps == 1, "the first call bootstraps the table");
    expect(expect_boot_entries, "before the bootstrap every entry is its boot entry");
    expect(strcmp(last_unsupported, "MPI_Send") == 0, "an empty slot names its function");
    expect(last_kind == TESSERA_MPI_OBJ_COMM && last_object == (const void *)MPI_COMM_WORLD,
           "MPI_Send raises on its communicator");
    expect(MPI_Comm_fromint(0) == MPI_COMM_NULL, "MPI_Comm_fromint without engine gives MPI_COMM_NULL");
    expect(MPI_T_init_thread(MPI_THREAD_SINGLE, &rank) == MPI_T_ERR_NOT_SUPPORTED,
           "an MPI_T function without engine answers MPI_T_ERR_NOT_SUPPORTED");
    expect(MPI_Error_class(MPI_ERR_ARG, &rank) == MPI_ERR_UNSUPPORTED_OPERATION &&
               last_kind == TESSERA_MPI_OBJ_COMM && last_object == (const void *)MPI_COMM_SELF,
           "a call without an object raises on MPI_COMM_SELF");
    expect(MPI_File_open(MPI_COMM_WORLD, "f", 0, MPI_INFO_NULL, NULL) == MPI_ERR_UNSUPPORTED_OPERATION &&
               last_kind == TESSERA_MPI_OBJ_FILE && last_object == (const void *)MPI_FILE_NULL,
           "MPI_File_open raises on MPI_FILE_NULL");

    {
        /* The native translator: implementations behind their checks. */
        tessera_mpi_dispatch_t native;
        memset(&native, 0, sizeof native);
        native.Comm_rank = fake_comm_rank;
        native.Send = fake_send;
        tessera_mpi_install_checked(&tessera_mpi_dispatch, &native);
        expect(tessera_mpi_dispatch.Comm_rank != fake_comm_rank && tessera_mpi_dispatch.Comm_rank != NULL,
               "a function with checks gets its checked wrapper");
        expect(tessera_mpi_dispatch.Barrier == tessera_mpi_unsupported_fallbacks.Barrier,
               "an entry the engine lacks keeps its fallback");
    }
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3,
           "MPI_Comm_rank reaches the engine through the table");
    rank = -1;
    expect(PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3,
           "PMPI_Comm_rank reaches the engine through the table");
    expect(MPI_Comm_rank(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG && strcmp(last_function, "MPI_Comm_rank") == 0 &&
               strstr(last_detail, "rank") != NULL,
           "a NULL output pointer is MPI_ERR_ARG naming the argument");
    expect(MPI_Comm_rank(MPI_COMM_NULL, &rank) == MPI_ERR_COMM, "MPI_COMM_NULL is MPI_ERR_COMM");
    expect(MPI_Comm_rank(bogus, &rank) == MPI_ERR_COMM && last_object == (const void *)bogus,
           "an unknown communicator is MPI_ERR_COMM, raised on it");

    expect(MPI_Send(NULL, -1, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT, "a negative count is MPI_ERR_COUNT");
    expect(MPI_Send(NULL, 0, MPI_INT, 0, -5, MPI_COMM_WORLD) == MPI_ERR_TAG, "a negative tag is MPI_ERR_TAG");
    expect(MPI_Send(NULL, 0, MPI_INT, 0, 5, MPI_COMM_WORLD) == MPI_SUCCESS && sends == 1,
           "a correct call passes the checks");
    expect(sends == 1, "a call that fails a check never reaches the engine");

    {
        /* A runtime translator's entry: the binding itself checks nothing. */
        int (*saved)(const void *, int, MPI_Datatype, int, int, MPI_Comm) = tessera_mpi_dispatch.Send;
        tessera_mpi_dispatch.Send = runtime_send;
        expect(MPI_Send(NULL, -1, MPI_INT, 0, -5, bogus) == MPI_SUCCESS && unchecked_sends == 1,
               "the binding has no argument checks of its own");
        tessera_mpi_dispatch.Send = saved;
    }

    /* Re-entrancy: the binding is only a jump through the table (a runtime translator's thunk tests the
     * depth and calls the direct table, see tests/translator); a fallback reached from inside the runtime
     * has the runtime's arguments and raises on no object of ours. */
    tessera_mpi_direct.Comm_rank = direct_comm_rank;
    tessera_translator_enter();
    expect(tessera_translator_inside(), "enter sets the depth");
    rank = -1;
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3 && direct_calls == 0,
           "inside the runtime the binding still calls the table entry, which decides");
    expect(MPI_Recv(NULL, 0, MPI_INT, 0, 0, bogus, MPI_STATUS_IGNORE) == MPI_ERR_UNSUPPORTED_OPERATION &&
               last_kind == TESSERA_MPI_OBJ_NONE && strcmp(last_unsupported, "MPI_Recv") == 0,
           "inside the runtime a function it lacks is unsupported, raised on no object of ours");
    {
        int saved = tessera_translator_suspend();
        expect(!tessera_translator_inside() && saved == 1, "a trampoline suspends the depth");
        expect(MPI_Recv(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_ERR_UNSUPPORTED_OPERATION &&
                   last_kind == TESSERA_MPI_OBJ_COMM && last_object == (const void *)MPI_COMM_WORLD,
               "an application callback's call raises on the application's object");
        tessera_translator_resume(saved);
    }
    expect(tessera_translator_inside(), "resume restores the depth");
    tessera_translator_leave();
    expect(!tessera_translator_inside(), "leave clears the depth");
    tessera_mpi_direct.Comm_rank = NULL;

    /* Tracing: while a module has a hook the call feeds (every call is a region), the binding calls the
     * traced variant, never the table itself; a module that only counts sends leaves MPI_Comm_rank alone. */
    mca_trace_base_hook_mask = MCA_TRACE_HOOK_SEND;
    rank = -1;
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3 && traced_ranks == 0,
           "a trace module without the hooks a call feeds leaves it untraced");
    mca_trace_base_hook_mask = MCA_TRACE_HOOK_REGION;
    rank = -1;
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 7 && traced_ranks == 1,
           "while a trace module is active a binding takes its traced variant");
    mca_trace_base_hook_mask = 0;
    expect(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 3 && traced_ranks == 1,
           "without one it goes straight to the table");
    /* A module that wants only send_done: the send goes straight to the table, then its end is reported. */
    mca_trace_base_hook_mask = MCA_TRACE_HOOK_SEND_DONE;
    expect(MPI_Send(NULL, 0, MPI_INT, 0, 5, MPI_COMM_WORLD) == MPI_SUCCESS && sends == 2 && sends_done == 1 &&
               last_done_rc == MPI_SUCCESS,
           "a send wanted only when done reaches the table, then reports its result");
    mca_trace_base_hook_mask = 0;
    expect(MPI_Send(NULL, 0, MPI_INT, 0, 5, MPI_COMM_WORLD) == MPI_SUCCESS && sends == 3 && sends_done == 1,
           "without such a module nothing is reported");

    expect(MPI_Barrier(MPI_COMM_WORLD) == MPI_ERR_UNSUPPORTED_OPERATION && tool_barriers == 1,
           "a tool's MPI_Barrier replaces the weak one and reaches PMPI_Barrier");
    expect(strcmp(last_unsupported, "MPI_Barrier") == 0, "PMPI_Barrier names MPI_Barrier");
    expect(bootstraps == 1, "the table is bootstrapped only once");

    for (i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
        if (tessera_mpi_slot_filled(&tessera_mpi_dispatch, i)) {
            ++filled;
            filled_name = tessera_mpi_slots[i].name;
        }
    }
    expect(filled == 2 && strcmp(filled_name, "MPI_Send") == 0,
           "the slot list sees exactly the two filled slots");
    expect(TESSERA_MPI_FUNCTION_COUNT == 664, "the table has a slot for each of the 664 functions");

    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
