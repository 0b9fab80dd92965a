/* An application's view of the generated mpi.h: a program that uses the sentinels, callbacks and
 * predefined handles the way real codes do. The test only compiles it (as C99, C11 and C++17 with
 * -Wall -Wextra -pedantic -Werror), so every line must be valid in all three languages. */
#include <mpi.h>
#include <stddef.h>

#if defined(__cplusplus)
#define ABI_CHECK(cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define ABI_CHECK(cond, msg) _Static_assert(cond, msg)
#else
#define ABI_CHECK_CAT2(a, b) a##b
#define ABI_CHECK_CAT(a, b) ABI_CHECK_CAT2(a, b)
#define ABI_CHECK(cond, msg) typedef char ABI_CHECK_CAT(abi_check_line_, __LINE__)[(cond) ? 1 : -1]
#endif

/* The layout facts of the standard ABI (MPI-5.0 chapter 20). */
ABI_CHECK(sizeof(MPI_Status) == 32, "MPI_Status is 32 bytes");
ABI_CHECK(offsetof(MPI_Status, MPI_SOURCE) == 0, "MPI_SOURCE first");
ABI_CHECK(offsetof(MPI_Status, MPI_TAG) == 4, "MPI_TAG second");
ABI_CHECK(offsetof(MPI_Status, MPI_ERROR) == 8, "MPI_ERROR third");
ABI_CHECK(sizeof(MPI_Aint) == sizeof(void *), "MPI_Aint is pointer-sized");
ABI_CHECK(sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8, "MPI_Count and MPI_Offset are 64-bit");
ABI_CHECK(sizeof(MPI_Comm) == sizeof(void *) && sizeof(MPI_Datatype) == sizeof(void *),
          "handles are pointers");
ABI_CHECK(MPI_VERSION == 5 && MPI_SUBVERSION == 0, "MPI 5.0");
ABI_CHECK(MPI_ABI_VERSION == 1 && MPI_ABI_SUBVERSION == 0, "ABI 1.0");
ABI_CHECK(MPI_ANY_SOURCE == -1 && MPI_ANY_TAG == -2 && MPI_PROC_NULL == -3 && MPI_ROOT == -4,
          "rank and tag sentinels");
ABI_CHECK(MPI_MAX_PROCESSOR_NAME == 256 && MPI_MAX_ERROR_STRING == 512, "string limits");
ABI_CHECK(MPI_THREAD_MULTIPLE == 4096, "thread levels");

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int i;
    (void)type;
    for (i = 0; i < *len; ++i)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static int query(void *state, MPI_Status *status)
{
    (void)state;
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    status->MPI_ERROR = MPI_SUCCESS;
    return MPI_SUCCESS;
}

static int release(void *state)
{
    (void)state;
    return MPI_SUCCESS;
}

static int cancel(void *state, int complete)
{
    (void)state;
    (void)complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, provided = 0, len = 0, flag = 0, keyval = MPI_KEYVAL_INVALID;
    int value = 1, total = 0, errcodes[2];
    char name[MPI_MAX_PROCESSOR_NAME];
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Status status, statuses[2];
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Request greq = MPI_REQUEST_NULL;
    MPI_Op op = MPI_OP_NULL;
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    MPI_Comm graph = MPI_COMM_NULL, children = MPI_COMM_NULL;
    MPI_Datatype pair = MPI_DATATYPE_NULL;
    int blocklengths[2] = {1, 1};
    MPI_Aint displacements[2] = {0, 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    int sources[1] = {0}, degrees[1] = {1}, destinations[1] = {0};
    MPI_Info infos[1] = {MPI_INFO_NULL};
    double t0;
    void *attr = NULL;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Get_library_version(version, &len);
    t0 = MPI_Wtime();

    MPI_Comm_create_errhandler(on_error, &handler);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Op_create(sum_ints, 1, &op);
    MPI_Allreduce(&value, &total, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &value, &total, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);

    MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MPI_Waitall(2, requests, statuses);
    MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, &value, 1, MPI_INT, MPI_PROC_NULL, 0,
                 MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &len);

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &attr, &flag);
    MPI_Comm_free_keyval(&keyval);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL);
    MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &keyval, NULL);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &keyval, NULL);

    MPI_Type_create_struct(2, blocklengths, displacements, types, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_free(&pair);

    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, destinations, MPI_UNWEIGHTED,
                          MPI_INFO_NULL, 0, &graph);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, sources, MPI_WEIGHTS_EMPTY, 0, destinations,
                                   MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &graph);
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children, errcodes);
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children,
                   MPI_ERRCODES_IGNORE);
    MPI_Comm_spawn_multiple(1, argv, MPI_ARGVS_NULL, &size, infos, 0, MPI_COMM_SELF, &children,
                            MPI_ERRCODES_IGNORE);
    MPI_Grequest_start(query, release, cancel, NULL, &greq);
    MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0);
    MPI_Register_datarep("external32x", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, NULL, NULL);
    MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, MPI_T_PVAR_ALL_HANDLES);

    if (MPI_Comm_toint(MPI_COMM_WORLD) < 0 || MPI_Comm_fromint(0) == MPI_COMM_NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    (void)t0;
    (void)MPI_Wtick();
    PMPI_Barrier(MPI_COMM_WORLD);
    return MPI_Finalize();
}
