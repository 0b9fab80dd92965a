/* MPI_Op_create, MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local. */
#include "ompi/runtime/native_api.h"

#include <string>

#include "ompi/datatype/type_checks.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/op/op.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

namespace {

int op_error(const char *function, const std::string &detail)
{
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_OP, function, detail);
}

int create(const char *function, MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op)
{
    if (int rc = require_initialized(MPI_COMM_SELF, function); rc != MPI_SUCCESS) {
        return rc;
    }
    if (fn == nullptr && fn_c == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, function, "the user function (argument 'user_fn') is NULL");
    }
    *op = op_handle(op_create_user(fn, fn_c, commute != 0));
    return MPI_SUCCESS;
}

int reduce_local_impl(const char *function, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op)
{
    if (int rc = require_initialized(MPI_COMM_SELF, function); rc != MPI_SUCCESS) {
        return rc;
    }
    const Datatype *type = nullptr;
    if (int rc = type_committed_argument(function, datatype, MPI_COMM_SELF, &type); rc != MPI_SUCCESS) {
        return rc;
    }
    const Op *o = op_lookup(op);
    if (o == nullptr) {
        return op_error(function, op == MPI_OP_NULL ? "the op is MPI_OP_NULL" : "invalid op");
    }
    if (const std::string why = op_check(o, type); !why.empty()) {
        return op_error(function, why);
    }
    if (count > 0 && type->size > 0 && (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_BUFFER, function, "MPI_IN_PLACE is not allowed here");
    }
    if (count > 0 && type->size > 0 && inbuf == inoutbuf) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_BUFFER, function,
                             "inbuf and inoutbuf are the same buffer (they must not overlap)");
    }
    op_reduce(o, inbuf, inoutbuf, static_cast<std::size_t>(count), type);
    return MPI_SUCCESS;
}

} // namespace

int op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return create("MPI_Op_create", user_fn, nullptr, commute, op);
}

int op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return create("MPI_Op_create_c", nullptr, user_fn, commute, op);
}

int op_free(MPI_Op *op)
{
    if (int rc = require_initialized(MPI_COMM_SELF, "MPI_Op_free"); rc != MPI_SUCCESS) {
        return rc;
    }
    const Op *o = op_lookup(*op);
    if (o == nullptr) {
        return op_error("MPI_Op_free", *op == MPI_OP_NULL ? "the op is MPI_OP_NULL" : "invalid op");
    }
    if (o->kind != OpKind::User) {
        return op_error("MPI_Op_free", std::string(o->name) + " is predefined and cannot be freed");
    }
    op_release(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int op_commutative(MPI_Op op, int *commute)
{
    if (int rc = require_initialized(MPI_COMM_SELF, "MPI_Op_commutative"); rc != MPI_SUCCESS) {
        return rc;
    }
    const Op *o = op_lookup(op);
    if (o == nullptr) {
        return op_error("MPI_Op_commutative", op == MPI_OP_NULL ? "the op is MPI_OP_NULL" : "invalid op");
    }
    *commute = o->commutative ? 1 : 0;
    return MPI_SUCCESS;
}

int reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local_impl("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}

} // namespace tessera::ompi::native
