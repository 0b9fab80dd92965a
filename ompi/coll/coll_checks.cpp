#include "ompi/coll/coll_checks.h"

#include <algorithm>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::coll {

int Call::raise(int code, const std::string &detail) const
{
    return raise_on_comm(handle, code, function, detail);
}

namespace {

thread_local const PersistentCall *current_persistent = nullptr;

} // namespace

PersistentCallScope::PersistentCallScope(const PersistentCall &call) : outer_(current_persistent)
{
    current_persistent = &call;
}

PersistentCallScope::~PersistentCallScope()
{
    current_persistent = outer_;
}

const PersistentCall *persistent_call()
{
    return current_persistent;
}

int check_comm(const char *function, MPI_Comm handle, Call *out)
{
    out->function = current_persistent != nullptr ? current_persistent->function : function;
    out->handle = handle;
    if (int rc = require_initialized(handle, function); rc != MPI_SUCCESS) {
        return rc;
    }
    out->comm = comm_lookup(handle);
    if (out->comm == nullptr) { /* only when called around the bindings */
        return out->raise(MPI_ERR_COMM, "invalid communicator in argument 'comm'");
    }
    out->table = out->comm->coll;
    if (out->table == nullptr) {
        return out->raise(MPI_ERR_INTERN, comm_label(*out->comm) + " has no collectives set up");
    }
    return MPI_SUCCESS;
}

int check_root(const Call &c, int root)
{
    if (c.inter()) {
        if (root != MPI_ROOT && root != MPI_PROC_NULL && (root < 0 || root >= c.peers())) {
            return c.raise(MPI_ERR_ROOT, "root " + std::to_string(root) +
                                             " is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group of " +
                                             comm_label(*c.comm) + " (size " + std::to_string(c.peers()) + ")");
        }
        return MPI_SUCCESS;
    }
    if (root < 0 || root >= c.size()) {
        return c.raise(MPI_ERR_ROOT, "root " + std::to_string(root) + " is not a rank of " + comm_label(*c.comm) +
                                         " (size " + std::to_string(c.size()) + ")");
    }
    return MPI_SUCCESS;
}

int check_intra(const Call &c)
{
    if (c.inter()) {
        return c.raise(MPI_ERR_COMM,
                       std::string(c.function) + " is not defined on an intercommunicator (MPI-4.1 6.11)");
    }
    return MPI_SUCCESS;
}

int check_type(const Call &c, MPI_Datatype handle, const char *arg, const Datatype **out)
{
    *out = datatype_lookup(handle);
    if (*out == nullptr) {
        return c.raise(MPI_ERR_TYPE, std::string(handle == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "an invalid datatype") +
                                         " in argument '" + arg + "'");
    }
    if (!datatype_committed(*out)) {
        return c.raise(MPI_ERR_TYPE, std::string("the datatype in argument '") + arg +
                                         "' is not committed (MPI_Type_commit)");
    }
    return MPI_SUCCESS;
}

int check_types(const Call &c, const MPI_Datatype *handles, const char *arg, std::vector<mca_coll_dt_t> *out)
{
    if (handles == nullptr && c.peers() > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    out->resize(static_cast<std::size_t>(c.peers()));
    for (int i = 0; i < c.peers(); ++i) {
        const std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
        const Datatype *type = nullptr;
        if (int rc = check_type(c, handles[i], name.c_str(), &type); rc != MPI_SUCCESS) {
            return rc;
        }
        (*out)[static_cast<std::size_t>(i)] = to_c(type);
    }
    return MPI_SUCCESS;
}

int check_op(const Call &c, MPI_Op handle, const Datatype *type, const Op **out)
{
    *out = op_lookup(handle);
    if (*out == nullptr) {
        return c.raise(MPI_ERR_OP, handle == MPI_OP_NULL ? "the op is MPI_OP_NULL" : "invalid op in argument 'op'");
    }
    if (const std::string why = op_check(*out, type); !why.empty()) {
        return c.raise(MPI_ERR_OP, why);
    }
    return MPI_SUCCESS;
}

int check_count(const Call &c, MPI_Count count, const char *arg)
{
    if (count < 0) {
        return c.raise(MPI_ERR_COUNT, "negative count " + std::to_string(count) + " in argument '" + arg + "'");
    }
    return MPI_SUCCESS;
}

int check_not_in_place(const Call &c, const void *buf, const char *arg)
{
    if (buf == MPI_IN_PLACE) {
        return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE is not allowed in argument '") + arg + "' of " +
                                           c.function);
    }
    return MPI_SUCCESS;
}

int check_buffer(const Call &c, const void *buf, std::size_t count, const Datatype *type, const char *arg)
{
    if (int rc = check_not_in_place(c, buf, arg); rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == nullptr && count > 0 && type->size > 0 && type->derived == nullptr) {
        return c.raise(MPI_ERR_BUFFER, std::string("argument '") + arg + "' is NULL with a count of " +
                                           std::to_string(count) + " " + type->name);
    }
    return MPI_SUCCESS;
}

int check_in_place_inter(const Call &c, const void *buf, const char *arg)
{
    if (buf == MPI_IN_PLACE && c.inter()) {
        return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE in argument '") + arg +
                                           "': no collective allows it on an intercommunicator");
    }
    return MPI_SUCCESS;
}

int check_in_place_at_root(const Call &c, const void *buf, bool root, const char *arg)
{
    if (int rc = check_in_place_inter(c, buf, arg); rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == MPI_IN_PLACE && !root) {
        return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE in argument '") + arg + "' is allowed at the root only (rank " +
                                           std::to_string(c.rank()) + " is not the root)");
    }
    return MPI_SUCCESS;
}

int check_distinct(const Call &c, const void *sbuf, bool sends, const void *rbuf, bool receives)
{
    if (sends && receives && sbuf == rbuf && sbuf != nullptr) {
        return c.raise(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: a buffer may not be both (use "
                                       "MPI_IN_PLACE as sendbuf instead)");
    }
    return MPI_SUCCESS;
}

Span span_of(const void *buf, std::size_t count, const Datatype *type)
{
    if (buf == MPI_IN_PLACE || type == nullptr || count == 0 || type->size == 0) {
        return {};
    }
    const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(count - 1) * type->extent;
    const auto base = reinterpret_cast<std::uintptr_t>(buf);
    return {base + static_cast<std::uintptr_t>(std::min(type->true_lb, last + type->true_lb)),
            base + static_cast<std::uintptr_t>(std::max(type->true_ub, last + type->true_ub)),
            base + static_cast<std::uintptr_t>(type->true_lb), type->contiguous};
}

namespace {

bool shares_data(const Span &a, const Span &b)
{
    if (a.empty() || b.empty()) {
        return false;
    }
    return a.first == b.first || (a.dense && b.dense && a.lo < b.hi && b.lo < a.hi);
}

int raise_shared(const Call &c, const std::string &what)
{
    return c.raise(MPI_ERR_BUFFER, what + " share memory: a buffer may not be both sent from and received into "
                                          "(MPI_IN_PLACE as sendbuf says the data is in place)");
}

} // namespace

int check_apart(const Call &c, const Span &send, const Span &recv)
{
    return shares_data(send, recv) ? raise_shared(c, "sendbuf and recvbuf") : MPI_SUCCESS;
}

int check_apart_blocks(const Call &c, const Span &own, bool own_is_send, const void *buf, const Datatype *type,
                       std::size_t count, const std::vector<std::size_t> *counts,
                       const std::vector<std::ptrdiff_t> *displs)
{
    const auto n = static_cast<std::size_t>(c.peers());
    if (own.empty() || type == nullptr) {
        return MPI_SUCCESS;
    }
    if (displs == nullptr) {
        /* Equal blocks one after the other: the whole buffer is n * count elements, so nothing to look
         * for when `own` lies outside it (the usual case, at the cost of one span). */
        const Span all = span_of(buf, n * count, type);
        if (all.empty() || own.hi <= all.lo || all.hi <= own.lo) {
            return MPI_SUCCESS;
        }
    }
    const auto base = reinterpret_cast<std::uintptr_t>(buf); /* MPI_BOTTOM (NULL) with absolute displacements */
    for (std::size_t i = 0; i < n; ++i) {
        const std::ptrdiff_t at = displs != nullptr ? (*displs)[i] : static_cast<std::ptrdiff_t>(i * count);
        const auto address = reinterpret_cast<const void *>(base + static_cast<std::uintptr_t>(at * type->extent));
        const Span block = span_of(address, counts != nullptr ? (*counts)[i] : count, type);
        if (shares_data(own, block)) {
            const std::string which = "rank " + std::to_string(i) + "'s block of " + (own_is_send ? "recvbuf" : "sendbuf");
            return raise_shared(c, std::string(own_is_send ? "sendbuf" : "recvbuf") + " and " + which);
        }
    }
    return MPI_SUCCESS;
}

int missing(const Call &c)
{
    return c.raise(MPI_ERR_UNSUPPORTED_OPERATION, std::string("no coll component provides it on ") + comm_label(*c.comm) +
                                                      " (see the coll parameter)");
}

int finish(const Call &c, int rc)
{
    if (rc == MPI_SUCCESS) {
        return rc;
    }
    return c.raise(rc, rc == MPI_ERR_TRUNCATE ? "a message of the collective was longer than its receive buffer: the "
                                                "ranks' counts and datatypes do not match"
                       : rc == MPI_ERR_COUNT ? "a message of the collective was shorter than its receive buffer: the "
                                               "ranks' counts and datatypes do not match"
                       : rc == MPI_ERR_TYPE ? "a message of the collective ended inside a basic element of its receive "
                                              "datatype: the ranks' datatypes do not match"
                                            : "the collective failed");
}

} // namespace tessera::ompi::coll
