/* Translator conformance: the application's callbacks run with application-side values. User reduction
 * ops (commutative and not) see the application's datatype handle (MPI_INT, a derived type) in
 * MPI_Allreduce and MPI_Reduce; error handlers see MPI_COMM_WORLD or the duplicated communicator and ABI
 * error codes; attribute copy/delete functions see the communicator or datatype handles and the extra
 * state, and MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN / MPI_TYPE_DUP_FN behave as predefined; a
 * generalized request's query, free and cancel functions get their extra state and fill the status.
 * Two or more ranks. */
#include "conformance.h"

#include <string.h>

static MPI_Datatype pair_type = MPI_DATATYPE_NULL;
static int op_calls, op_wrong_type;
/* Calls to MPI made from inside callbacks that failed: the runtime runs the callback, but the callback's
 * own MPI calls carry application handles and must be translated again. */
static int nested_failures;

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int size = 0;
    ++op_calls;
    if (*type != MPI_INT) {
        ++op_wrong_type;
        return;
    }
    nested_failures += MPI_Type_size(*type, &size) != MPI_SUCCESS || size != (int)sizeof(int);
    for (int i = 0; i < *len; ++i) {
        ((int *)inout)[i] += ((int *)in)[i];
    }
}

/* Not commutative: inout = in "followed by" inout, as 2x2 integer matrix product, on pair_type
 * elements of four ints. The result over ranks 0..n-1 is M0 * M1 * ... in rank order. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    ++op_calls;
    if (*type != pair_type) {
        ++op_wrong_type;
        return;
    }
    for (int i = 0; i < *len; ++i) {
        const int *a = (const int *)in + 4 * i;
        int *b = (int *)inout + 4 * i;
        int r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                    a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof r);
    }
}

static void check_ops(int rank, int size)
{
    MPI_Op sum = MPI_OP_NULL, mat = MPI_OP_NULL, sum2 = MPI_OP_NULL;
    int commute = -1;
    CHECK(MPI_Op_create(sum_ints, 1, &sum) == MPI_SUCCESS && sum != MPI_OP_NULL, "MPI_Op_create (commutative)");
    CHECK(MPI_Op_create(sum_ints, 1, &sum2) == MPI_SUCCESS && sum2 != sum, "a second op of the same function");
    CHECK(MPI_Op_create(matmul, 0, &mat) == MPI_SUCCESS, "MPI_Op_create (not commutative)");
    CHECK(MPI_Op_commutative(sum, &commute) == MPI_SUCCESS && commute == 1, "commutative: %d", commute);
    CHECK(MPI_Op_commutative(mat, &commute) == MPI_SUCCESS && commute == 0, "not commutative: %d", commute);
    MPI_Type_contiguous(4, MPI_INT, &pair_type);
    MPI_Type_commit(&pair_type);

    int in[3] = {rank, 2 * rank, 1}, out[3] = {0, 0, 0};
    CHECK(MPI_Allreduce(in, out, 3, MPI_INT, sum, MPI_COMM_WORLD) == MPI_SUCCESS, "Allreduce with a user op");
    const int total = size * (size - 1) / 2;
    CHECK(out[0] == total && out[1] == 2 * total && out[2] == size, "user sum: %d %d %d", out[0], out[1], out[2]);
    memset(out, 0, sizeof out);
    CHECK(MPI_Reduce(in, out, 3, MPI_INT, sum2, size - 1, MPI_COMM_WORLD) == MPI_SUCCESS, "Reduce with a user op");
    if (rank == size - 1) {
        CHECK(out[0] == total && out[2] == size, "user sum at the root: %d %d", out[0], out[2]);
    }
    /* M_r = [[r+1+e, 1], [1, 0]]: products of these depend on the order. */
    int m[8], res[8], expect[4] = {1, 0, 0, 1};
    for (int e = 0; e < 2; ++e) {
        m[4 * e + 0] = rank + 1 + e;
        m[4 * e + 1] = 1;
        m[4 * e + 2] = 1;
        m[4 * e + 3] = 0;
    }
    CHECK(MPI_Allreduce(m, res, 2, pair_type, mat, MPI_COMM_WORLD) == MPI_SUCCESS, "Allreduce, non-commutative");
    for (int e = 0; e < 2; ++e) {
        expect[0] = 1, expect[1] = 0, expect[2] = 0, expect[3] = 1;
        for (int r = 0; r < size; ++r) {
            const int a[4] = {expect[0], expect[1], expect[2], expect[3]}, b[4] = {r + 1 + e, 1, 1, 0};
            expect[0] = a[0] * b[0] + a[1] * b[2];
            expect[1] = a[0] * b[1] + a[1] * b[3];
            expect[2] = a[2] * b[0] + a[3] * b[2];
            expect[3] = a[2] * b[1] + a[3] * b[3];
        }
        CHECK(memcmp(&res[4 * e], expect, sizeof expect) == 0, "ordered product %d: %d %d %d %d, expected %d %d %d %d",
              e, res[4 * e], res[4 * e + 1], res[4 * e + 2], res[4 * e + 3], expect[0], expect[1], expect[2],
              expect[3]);
    }
    MPI_Request req = MPI_REQUEST_NULL;
    memset(out, 0, sizeof out);
    CHECK(MPI_Iallreduce(in, out, 3, MPI_INT, sum, MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
              MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && out[0] == total, "Iallreduce with a user op: %d",
          out[0]);
    CHECK(size == 1 || op_calls > 0, "the user functions ran");
    CHECK(op_wrong_type == 0, "%d calls saw another datatype handle than the application's", op_wrong_type);
    MPI_Op_free(&sum);
    MPI_Op_free(&sum2);
    MPI_Op_free(&mat);
    CHECK(sum == MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");
}

static MPI_Comm expected_comm;
static int handler_calls, handler_bad_comm, handler_last_code;

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    int size = 0, cls = -1;
    ++handler_calls;
    handler_bad_comm += *comm != expected_comm;
    handler_last_code = *code;
    nested_failures += MPI_Comm_size(*comm, &size) != MPI_SUCCESS || size < 1;
    nested_failures += MPI_Error_class(*code, &cls) != MPI_SUCCESS;
}

static void other_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_last_code = -*code;
}

static void check_errhandlers(int size)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, eh2 = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    MPI_Comm dup = MPI_COMM_NULL;
    CHECK(MPI_Comm_create_errhandler(comm_handler, &eh) == MPI_SUCCESS && eh != MPI_ERRHANDLER_NULL,
          "MPI_Comm_create_errhandler");
    CHECK(MPI_Comm_create_errhandler(other_handler, &eh2) == MPI_SUCCESS && eh2 != eh, "a second handler");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS && got == eh, "get gives the handler back");
    MPI_Errhandler_free(&got);
    expected_comm = MPI_COMM_WORLD;
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS, "MPI_Comm_call_errhandler");
    CHECK(handler_calls == 1 && handler_bad_comm == 0 && handler_last_code == MPI_ERR_OTHER,
          "the handler saw MPI_COMM_WORLD and MPI_ERR_OTHER: calls %d, bad comm %d, code %d", handler_calls,
          handler_bad_comm, handler_last_code);
    /* Set on a duplicate: the handler sees the duplicate, and a real error's code has the ABI class. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, eh);
    expected_comm = dup;
    int value = 0, cls = -1;
    const int rc = MPI_Send(&value, 1, MPI_INT, size + 3, 0, dup);
    CHECK(handler_calls == 2 && handler_bad_comm == 0, "a real error on the duplicate: calls %d, bad comm %d",
          handler_calls, handler_bad_comm);
    CHECK(MPI_Error_class(handler_last_code, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK,
          "the handler's code has class %d, expected MPI_ERR_RANK", cls);
    CHECK(rc == handler_last_code, "the call returns the code the handler saw (%d, %d)", rc, handler_last_code);
    MPI_Comm_set_errhandler(dup, eh2);
    CHECK(MPI_Comm_call_errhandler(dup, MPI_ERR_ARG) == MPI_SUCCESS && handler_last_code == -MPI_ERR_ARG,
          "the second handler ran: %d", handler_last_code);
    MPI_Comm_free(&dup);
    MPI_Errhandler_free(&eh);
    MPI_Errhandler_free(&eh2);
    /* WORLD keeps the handler after the application freed its handle. */
    expected_comm = MPI_COMM_WORLD;
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS && handler_calls == 3 &&
              handler_bad_comm == 0, "the freed handler still serves WORLD: calls %d", handler_calls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static int copies, deletes, bad_handles, bad_extra;
static MPI_Comm attr_comm;
static char extra_state_target;

static int copy_attr(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    int size = 0;
    (void)keyval;
    ++copies;
    bad_handles += oldcomm != attr_comm;
    nested_failures += MPI_Comm_size(oldcomm, &size) != MPI_SUCCESS || size < 1;
    bad_extra += extra != &extra_state_target;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)value;
    ++deletes;
    bad_extra += extra != &extra_state_target;
    (void)comm;
    return MPI_SUCCESS;
}

static int type_deletes;
static MPI_Datatype attr_type;

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)value;
    (void)extra;
    ++type_deletes;
    bad_handles += type != attr_type;
    return MPI_SUCCESS;
}

static void check_attributes(void)
{
    static char base[4];
    int key = MPI_KEYVAL_INVALID, dupkey = MPI_KEYVAL_INVALID, nullkey = MPI_KEYVAL_INVALID, flag = 0;
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL;
    void *value = NULL;
    MPI_Comm_create_keyval(copy_attr, delete_attr, &key, &extra_state_target);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nullkey, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, key, &base[0]);
    MPI_Comm_set_attr(a, dupkey, &base[2]);
    MPI_Comm_set_attr(a, nullkey, &base[3]);
    attr_comm = a;
    MPI_Comm_dup(a, &b);
    CHECK(copies == 1 && bad_handles == 0 && bad_extra == 0, "copy callback: %d calls, bad handle %d, bad extra %d",
          copies, bad_handles, bad_extra);
    CHECK(MPI_Comm_get_attr(b, key, &value, &flag) == MPI_SUCCESS && flag && value == &base[1],
          "the copy callback's value");
    CHECK(MPI_Comm_get_attr(b, dupkey, &value, &flag) == MPI_SUCCESS && flag && value == &base[2],
          "MPI_COMM_DUP_FN copies the value");
    CHECK(MPI_Comm_get_attr(b, nullkey, &value, &flag) == MPI_SUCCESS && !flag, "MPI_COMM_NULL_COPY_FN copies nothing");
    MPI_Comm_free(&b);
    CHECK(deletes == 1 && bad_extra == 0, "delete callback on MPI_Comm_free: %d", deletes);
    CHECK(MPI_Comm_delete_attr(a, key) == MPI_SUCCESS && deletes == 2, "delete callback on MPI_Comm_delete_attr");
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free_keyval(&dupkey);
    MPI_Comm_free_keyval(&nullkey);
    MPI_Comm_free(&a);

    /* Datatype attributes: MPI_TYPE_DUP_FN, and a delete callback that sees the application's handle. */
    int tkey = MPI_KEYVAL_INVALID;
    MPI_Datatype t = MPI_DATATYPE_NULL, t2 = MPI_DATATYPE_NULL;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &tkey, NULL);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_attr(t, tkey, &base[1]);
    MPI_Type_dup(t, &t2);
    CHECK(MPI_Type_get_attr(t2, tkey, &value, &flag) == MPI_SUCCESS && flag && value == &base[1],
          "MPI_TYPE_DUP_FN copies the value");
    attr_type = t2;
    MPI_Type_free(&t2);
    attr_type = t;
    MPI_Type_free(&t);
    CHECK(type_deletes == 2 && bad_handles == 0, "type delete callback: %d calls, bad handles %d", type_deletes,
          bad_handles);
    MPI_Type_free_keyval(&tkey);
}

struct greq_state {
    int queried, freed, cancelled;
};

static int greq_query(void *extra, MPI_Status *status)
{
    struct greq_state *s = extra;
    ++s->queried;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = 7;
    status->MPI_TAG = 77;
    status->MPI_ERROR = MPI_SUCCESS;
    return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
    ++((struct greq_state *)extra)->freed;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    (void)complete;
    ++((struct greq_state *)extra)->cancelled;
    return MPI_SUCCESS;
}

static void check_grequest(void)
{
    struct greq_state s = {0, 0, 0};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status status;
    int count = -1, flag = -1;
    CHECK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &s, &req) == MPI_SUCCESS && req != MPI_REQUEST_NULL,
          "MPI_Grequest_start");
    CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag == 0, "not complete before completion");
    MPI_Grequest_complete(req);
    CHECK(MPI_Wait(&req, &status) == MPI_SUCCESS && req == MPI_REQUEST_NULL, "wait for the generalized request");
    CHECK(s.queried >= 1 && s.freed == 1 && s.cancelled == 0, "query %d free %d cancel %d", s.queried, s.freed,
          s.cancelled);
    CHECK(status.MPI_SOURCE == 7 && status.MPI_TAG == 77, "the query's status: source %d tag %d", status.MPI_SOURCE,
          status.MPI_TAG);
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == 3, "the query's count: %d", count);
    struct greq_state c = {0, 0, 0};
    MPI_Grequest_start(greq_query, greq_free, greq_cancel, &c, &req);
    MPI_Cancel(&req);
    MPI_Grequest_complete(req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(c.cancelled == 1 && c.freed == 1, "cancelled generalized request: cancel %d free %d", c.cancelled, c.freed);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_ops(rank, size);
    check_errhandlers(size);
    check_attributes();
    check_grequest();
    CHECK(nested_failures == 0, "%d MPI calls made from inside callbacks failed", nested_failures);
    MPI_Type_free(&pair_type);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_callbacks");
}
