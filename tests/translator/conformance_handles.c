/* Translator conformance: predefined handles and constants survive the round trip to the runtime and
 * back. Every predefined datatype has its size and is NAMED, every predefined reduction op is
 * commutative, predefined communicators, groups, error handlers and requests come back as the same
 * application handles, special integers (ranks, tags, MPI_UNDEFINED, thread levels, comparison
 * results, combiners, topologies) keep their ABI values, and error codes the runtime returns have the
 * ABI's classes. Two or more ranks. */
#include "conformance.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#define T(x, size, optional) {x, #x, size, optional}
static const struct {
    MPI_Datatype type;
    const char *name;
    int size;     /* expected MPI_Type_size; 0: any positive size */
    int optional; /* the standard lets an implementation lack it */
} types[] = {
    T(MPI_CHAR, 1, 0), T(MPI_SIGNED_CHAR, 1, 0), T(MPI_UNSIGNED_CHAR, 1, 0), T(MPI_BYTE, 1, 0),
    T(MPI_SHORT, sizeof(short), 0), T(MPI_UNSIGNED_SHORT, sizeof(short), 0), T(MPI_INT, sizeof(int), 0),
    T(MPI_UNSIGNED, sizeof(int), 0), T(MPI_LONG, sizeof(long), 0), T(MPI_UNSIGNED_LONG, sizeof(long), 0),
    T(MPI_LONG_LONG, sizeof(long long), 0), T(MPI_LONG_LONG_INT, sizeof(long long), 0),
    T(MPI_UNSIGNED_LONG_LONG, sizeof(long long), 0), T(MPI_FLOAT, sizeof(float), 0),
    T(MPI_DOUBLE, sizeof(double), 0), T(MPI_LONG_DOUBLE, sizeof(long double), 0),
    T(MPI_WCHAR, sizeof(wchar_t), 0), T(MPI_C_BOOL, sizeof(bool), 0), T(MPI_INT8_T, 1, 0),
    T(MPI_INT16_T, 2, 0), T(MPI_INT32_T, 4, 0), T(MPI_INT64_T, 8, 0), T(MPI_UINT8_T, 1, 0),
    T(MPI_UINT16_T, 2, 0), T(MPI_UINT32_T, 4, 0), T(MPI_UINT64_T, 8, 0), T(MPI_AINT, sizeof(MPI_Aint), 0),
    T(MPI_COUNT, sizeof(MPI_Count), 0), T(MPI_OFFSET, sizeof(MPI_Offset), 0),
    T(MPI_C_COMPLEX, sizeof(float _Complex), 0), T(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), 0),
    T(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), 0),
    T(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), 0), T(MPI_PACKED, 1, 0),
    T(MPI_FLOAT_INT, sizeof(float) + sizeof(int), 0), T(MPI_DOUBLE_INT, sizeof(double) + sizeof(int), 0),
    T(MPI_LONG_INT, sizeof(long) + sizeof(int), 0), T(MPI_2INT, 2 * sizeof(int), 0),
    T(MPI_SHORT_INT, sizeof(short) + sizeof(int), 0),
    T(MPI_LONG_DOUBLE_INT, sizeof(long double) + sizeof(int), 0),
    /* C++ and Fortran types: present in both runtimes here, but optional for a C-only build. */
    T(MPI_CXX_BOOL, 0, 1), T(MPI_CXX_FLOAT_COMPLEX, 0, 1), T(MPI_CXX_DOUBLE_COMPLEX, 0, 1),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX, 0, 1), T(MPI_INTEGER, 0, 1), T(MPI_REAL, 0, 1),
    T(MPI_DOUBLE_PRECISION, 0, 1), T(MPI_COMPLEX, 0, 1), T(MPI_DOUBLE_COMPLEX, 0, 1), T(MPI_LOGICAL, 0, 1),
    T(MPI_CHARACTER, 0, 1), T(MPI_2REAL, 0, 1), T(MPI_2DOUBLE_PRECISION, 0, 1), T(MPI_2INTEGER, 0, 1),
    T(MPI_INTEGER1, 1, 1), T(MPI_INTEGER2, 2, 1), T(MPI_INTEGER4, 4, 1), T(MPI_INTEGER8, 8, 1),
    T(MPI_INTEGER16, 16, 1), T(MPI_REAL2, 2, 1), T(MPI_REAL4, 4, 1), T(MPI_REAL8, 8, 1), T(MPI_REAL16, 16, 1),
    T(MPI_COMPLEX4, 4, 1), T(MPI_COMPLEX8, 8, 1), T(MPI_COMPLEX16, 16, 1), T(MPI_COMPLEX32, 32, 1),
    T(MPI_LOGICAL1, 1, 1), T(MPI_LOGICAL2, 2, 1), T(MPI_LOGICAL4, 4, 1), T(MPI_LOGICAL8, 8, 1),
    T(MPI_LOGICAL16, 16, 1),
};
#undef T

#define O(x) {x, #x}
static const struct {
    MPI_Op op;
    const char *name;
} ops[] = {O(MPI_SUM), O(MPI_MIN), O(MPI_MAX), O(MPI_PROD), O(MPI_BAND), O(MPI_BOR), O(MPI_BXOR),
           O(MPI_LAND), O(MPI_LOR), O(MPI_LXOR), O(MPI_MINLOC), O(MPI_MAXLOC)};
#undef O

static void check_datatypes(void)
{
    int optional_missing = 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        int size = -1, ni = -1, na = -1, nd = -1, combiner = -1;
        int rc = MPI_Type_size(types[i].type, &size);
        if (rc != MPI_SUCCESS && types[i].optional) {
            int cls = -1;
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TYPE || cls == MPI_ERR_ARG, "%s: missing, but class %d", types[i].name, cls);
            ++optional_missing;
            continue;
        }
        CHECK(rc == MPI_SUCCESS, "MPI_Type_size(%s) returned %d", types[i].name, rc);
        CHECK(types[i].size == 0 ? size > 0 : size == types[i].size, "MPI_Type_size(%s) = %d, expected %d",
              types[i].name, size, types[i].size);
        /* Where two names share a handle, the standard's first name (its synonym's is the same type). */
        const char *expected = strcmp(types[i].name, "MPI_LONG_LONG") == 0         ? "MPI_LONG_LONG_INT"
                               : strcmp(types[i].name, "MPI_C_FLOAT_COMPLEX") == 0 ? "MPI_C_COMPLEX"
                                                                                   : types[i].name;
        char name[MPI_MAX_OBJECT_NAME] = "";
        int len = -1;
        rc = MPI_Type_get_name(types[i].type, name, &len);
        CHECK(rc == MPI_SUCCESS && strcmp(name, expected) == 0 && len == (int)strlen(expected),
              "MPI_Type_get_name(%s) = \"%s\" (%d), expected %s", types[i].name, name, len, expected);
        rc = MPI_Type_get_envelope(types[i].type, &ni, &na, &nd, &combiner);
        CHECK(rc == MPI_SUCCESS && combiner == MPI_COMBINER_NAMED, "%s: combiner %d, expected MPI_COMBINER_NAMED",
              types[i].name, combiner);
    }
    /* A derived type's envelope and contents name the predefined type it was built from. */
    MPI_Datatype vec = MPI_DATATYPE_NULL, dup = MPI_DATATYPE_NULL, inner[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    int ni = 0, na = 0, nd = 0, combiner = 0, ints[4] = {0};
    MPI_Aint addrs[2];
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vec);
    CHECK(MPI_Type_get_envelope(vec, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner == MPI_COMBINER_VECTOR &&
              ni == 3 && nd == 1, "vector envelope: combiner %d ni %d nd %d", combiner, ni, nd);
    CHECK(MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, inner) == MPI_SUCCESS && inner[0] == MPI_DOUBLE &&
              ints[0] == 3 && ints[1] == 2 && ints[2] == 4, "vector contents name MPI_DOUBLE");
    MPI_Type_dup(MPI_INT, &dup);
    CHECK(MPI_Type_get_envelope(dup, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner == MPI_COMBINER_DUP,
          "dup envelope: combiner %d", combiner);
    CHECK(MPI_Type_get_contents(dup, 0, 0, 1, ints, addrs, inner) == MPI_SUCCESS && inner[0] == MPI_INT,
          "MPI_Type_dup(MPI_INT)'s contents name MPI_INT");
    MPI_Type_free(&dup);
    CHECK(dup == MPI_DATATYPE_NULL, "MPI_Type_free sets MPI_DATATYPE_NULL");
    MPI_Type_free(&vec);
    if (optional_missing > 0) {
        printf("(%d optional datatypes absent in this runtime)\n", optional_missing);
    }
}

static void check_ops(void)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) {
        int commute = -1;
        CHECK(MPI_Op_commutative(ops[i].op, &commute) == MPI_SUCCESS && commute == 1, "%s: commutative %d",
              ops[i].name, commute);
    }
    int commute = -1;
    CHECK(MPI_Op_commutative(MPI_REPLACE, &commute) == MPI_SUCCESS, "MPI_Op_commutative(MPI_REPLACE)");
    int in = 3, out = 0;
    CHECK(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD) == MPI_SUCCESS, "Allreduce BXOR");
}

static void check_communicators(int rank, int size)
{
    int result = -1;
    MPI_Comm dup = MPI_COMM_NULL, split = MPI_COMM_NULL, parent = MPI_COMM_SELF;
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result) == MPI_SUCCESS && result == MPI_IDENT,
          "compare(WORLD, WORLD) = %d, expected MPI_IDENT", result);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result) == MPI_SUCCESS && result == MPI_UNEQUAL,
          "compare(WORLD, SELF) = %d, expected MPI_UNEQUAL", result);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result) == MPI_SUCCESS && result == MPI_CONGRUENT,
          "compare(WORLD, dup) = %d, expected MPI_CONGRUENT", result);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &split);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, split, &result) == MPI_SUCCESS && result == MPI_SIMILAR,
          "compare(WORLD, reversed split) = %d, expected MPI_SIMILAR", result);
    MPI_Comm_free(&split);
    CHECK(split == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &split) == MPI_SUCCESS && split == MPI_COMM_NULL,
          "color MPI_UNDEFINED gives MPI_COMM_NULL");
    CHECK(MPI_Comm_get_parent(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL, "no parent: MPI_COMM_NULL");
    MPI_Comm_free(&dup);

    int flag = 0, inter = -1, topo = -1;
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &inter) == MPI_SUCCESS && inter == 0, "WORLD is an intracommunicator");
    CHECK(MPI_Topo_test(MPI_COMM_WORLD, &topo) == MPI_SUCCESS && topo == MPI_UNDEFINED,
          "MPI_Topo_test(WORLD) = %d, expected MPI_UNDEFINED", topo);
    MPI_Comm cart = MPI_COMM_NULL;
    int dims[1] = {size}, periods[1] = {0}, src = -1, dst = -1;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    CHECK(MPI_Topo_test(cart, &topo) == MPI_SUCCESS && topo == MPI_CART, "MPI_Topo_test(cart) = %d", topo);
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(rank == 0 ? src == MPI_PROC_NULL : src == rank - 1, "cart shift source %d", src);
    CHECK(rank == size - 1 ? dst == MPI_PROC_NULL : dst == rank + 1, "cart shift dest %d", dst);
    MPI_Comm_free(&cart);

    int *tag_ub = NULL, *host = NULL, *io = NULL, *wtime_global = NULL;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag && *tag_ub >= 32767,
          "MPI_TAG_UB");
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &host, &flag) == MPI_SUCCESS && flag &&
              (*host == MPI_PROC_NULL || (*host >= 0 && *host < size)), "MPI_HOST = %d", flag ? *host : -99);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &io, &flag) == MPI_SUCCESS && flag &&
              (*io == MPI_ANY_SOURCE || *io == MPI_PROC_NULL || (*io >= 0 && *io < size)), "MPI_IO = %d",
          flag ? *io : -99);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &wtime_global, &flag) == MPI_SUCCESS,
          "MPI_WTIME_IS_GLOBAL");
}

static void check_groups(int rank, int size)
{
    MPI_Group world = MPI_GROUP_NULL, self = MPI_GROUP_NULL;
    int result = -1, n = -1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Comm_group(MPI_COMM_SELF, &self);
    CHECK(MPI_Group_compare(world, world, &result) == MPI_SUCCESS && result == MPI_IDENT, "group compare IDENT");
    CHECK(MPI_Group_size(MPI_GROUP_EMPTY, &n) == MPI_SUCCESS && n == 0, "MPI_GROUP_EMPTY has size 0");
    int ranks1[3] = {rank, MPI_PROC_NULL, (rank + 1) % size}, ranks2[3] = {-7, -7, -7};
    MPI_Group_translate_ranks(world, 3, ranks1, self, ranks2);
    CHECK(ranks2[0] == 0 && ranks2[1] == MPI_PROC_NULL && ranks2[2] == MPI_UNDEFINED,
          "translate_ranks: %d %d %d, expected 0 MPI_PROC_NULL MPI_UNDEFINED", ranks2[0], ranks2[1], ranks2[2]);
    MPI_Group_free(&self);
    MPI_Group_free(&world);
    CHECK(world == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
}

/* The predefined handlers come back as themselves; from here on errors are returned (the optional
 * datatypes a runtime lacks, and the errors provoked below). */
static void check_errhandlers(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_ARE_FATAL,
          "WORLD starts with MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&eh);
    CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free sets MPI_ERRHANDLER_NULL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN,
          "MPI_Comm_get_errhandler gives back MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);
}

static void check_errors(int rank, int size)
{
    /* Codes the runtime returns, by their ABI class. */
    int cls = -1, value = 0, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    int rc = MPI_Send(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_COUNT, "negative count: class %d", cls);
    rc = MPI_Send(&value, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK, "bad rank: class %d", cls);
    rc = MPI_Send(&value, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TAG, "bad tag: class %d", cls);
    rc = MPI_Send(&value, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TYPE, "null type: class %d", cls);
    rc = MPI_Comm_size(MPI_COMM_NULL, &value);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_COMM, "null comm: class %d", cls);
    CHECK(MPI_Error_string(rc, text, &len) == MPI_SUCCESS && len > 0 && (size_t)len == strlen(text),
          "the runtime's code has a string");
    /* Truncation: the runtime's class value differs from the ABI's in MPICH. */
    int big[4] = {1, 2, 3, 4}, small[2];
    MPI_Status status;
    if (rank == 0) {
        MPI_Send(big, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
        rc = MPI_Recv(small, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &status);
        CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TRUNCATE, "truncation: class %d", cls);
    }
    /* User classes and codes round-trip. */
    int newclass = -1, newcode = -1, lastused = 0, *lastused_attr = NULL, flag = 0;
    CHECK(MPI_Add_error_class(&newclass) == MPI_SUCCESS, "MPI_Add_error_class");
    CHECK(MPI_Add_error_code(newclass, &newcode) == MPI_SUCCESS, "MPI_Add_error_code");
    CHECK(MPI_Add_error_string(newcode, "tessera conformance error") == MPI_SUCCESS, "MPI_Add_error_string");
    CHECK(MPI_Error_class(newcode, &cls) == MPI_SUCCESS && cls == newclass, "user code %d has class %d, not %d",
          newcode, cls, newclass);
    CHECK(MPI_Error_string(newcode, text, &len) == MPI_SUCCESS && strcmp(text, "tessera conformance error") == 0,
          "user code's string: '%s'", text);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastused_attr, &flag) == MPI_SUCCESS && flag,
          "MPI_LASTUSEDCODE");
    lastused = flag ? *lastused_attr : -1;
    CHECK(lastused >= newclass, "MPI_LASTUSEDCODE %d >= new class %d", lastused, newclass);
    for (int c = MPI_SUCCESS; c <= MPI_ERR_RMA_FLAVOR; ++c) {
        /* Every class of MPI 3.1 (both runtimes have them all) is its own class. */
        if (MPI_Error_class(c, &cls) == MPI_SUCCESS) {
            CHECK(cls == c, "MPI_Error_class(%d) = %d", c, cls);
        }
    }
}

static void check_point_to_point(int rank, int size)
{
    MPI_Status status;
    int count = -1, flag = 0, value = 0;
    CHECK(MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &status) == MPI_SUCCESS,
          "receive from MPI_PROC_NULL");
    CHECK(status.MPI_SOURCE == MPI_PROC_NULL && status.MPI_TAG == MPI_ANY_TAG,
          "from MPI_PROC_NULL: source %d tag %d, expected MPI_PROC_NULL MPI_ANY_TAG", status.MPI_SOURCE,
          status.MPI_TAG);
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == 0, "count from MPI_PROC_NULL: %d",
          count);
    MPI_Message msg = MPI_MESSAGE_NULL;
    CHECK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &status) == MPI_SUCCESS && msg == MPI_MESSAGE_NO_PROC,
          "MPI_Mprobe(MPI_PROC_NULL) gives MPI_MESSAGE_NO_PROC");
    CHECK(MPI_Mrecv(&value, 1, MPI_INT, &msg, &status) == MPI_SUCCESS && msg == MPI_MESSAGE_NULL,
          "MPI_Mrecv of MPI_MESSAGE_NO_PROC leaves MPI_MESSAGE_NULL");

    /* Wildcards: the status names the sender and the tag. */
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Request req = MPI_REQUEST_NULL;
    value = 100 + rank;
    MPI_Isend(&value, 1, MPI_INT, peer, 40 + rank, MPI_COMM_WORLD, &req);
    CHECK(req != MPI_REQUEST_NULL, "MPI_Isend gives a request");
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    CHECK(status.MPI_SOURCE == from && status.MPI_TAG == 40 + from, "probe: source %d tag %d", status.MPI_SOURCE,
          status.MPI_TAG);
    int got = -1;
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    CHECK(got == 100 + from && status.MPI_SOURCE == from && status.MPI_TAG == 40 + from && status.MPI_ERROR >= 0,
          "wildcard receive: %d from %d tag %d", got, status.MPI_SOURCE, status.MPI_TAG);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(req == MPI_REQUEST_NULL, "a completed request becomes MPI_REQUEST_NULL");
    CHECK(MPI_Test(&req, &flag, &status) == MPI_SUCCESS && flag == 1, "MPI_Test(MPI_REQUEST_NULL) is complete");
    CHECK(status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG,
          "empty status: source %d tag %d, expected MPI_ANY_SOURCE MPI_ANY_TAG", status.MPI_SOURCE, status.MPI_TAG);
    int index = -2;
    MPI_Request none[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    CHECK(MPI_Waitany(2, none, &index, MPI_STATUS_IGNORE) == MPI_SUCCESS && index == MPI_UNDEFINED,
          "MPI_Waitany over null requests: index %d, expected MPI_UNDEFINED", index);
}

static void check_environment(void)
{
    int provided = -1, version = 0, subversion = 0, nkeys = -1;
    CHECK(MPI_Query_thread(&provided) == MPI_SUCCESS &&
              (provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
               provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE),
          "MPI_Query_thread: %d is no ABI thread level", provided);
    CHECK(MPI_Get_version(&version, &subversion) == MPI_SUCCESS && version >= 3, "MPI_Get_version %d.%d", version,
          subversion);
    CHECK(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys) == MPI_SUCCESS && nkeys >= 0, "MPI_INFO_ENV");
    MPI_Info info = MPI_INFO_NULL;
    char value[64];
    int flag = 0;
    MPI_Info_create(&info);
    MPI_Info_set(info, "tessera_key", "tessera_value");
    CHECK(MPI_Info_get(info, "tessera_key", sizeof value - 1, value, &flag) == MPI_SUCCESS && flag &&
              strcmp(value, "tessera_value") == 0, "info round trip");
    MPI_Info_free(&info);
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free sets MPI_INFO_NULL");
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    CHECK(keyval != MPI_KEYVAL_INVALID, "a new keyval");
    MPI_Comm_free_keyval(&keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID");
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS && strcmp(name, "MPI_COMM_WORLD") == 0,
          "the name of MPI_COMM_WORLD: '%s'", name);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    CHECK(provided == MPI_THREAD_FUNNELED || provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
          "MPI_THREAD_FUNNELED asked: provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs two ranks, has %d", size);
    check_errhandlers();
    check_datatypes();
    check_ops();
    check_communicators(rank, size);
    check_groups(rank, size);
    check_point_to_point(rank, size);
    check_environment();
    MPI_Barrier(MPI_COMM_WORLD);
    check_errors(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_handles");
}
