#include "ompi/coll/coll_checks.h"

#include <algorithm>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::coll {

int Call::raise(int code, const std::string &detail) const
{
    return raise_on_comm(handle, code, function, detail);
}

constinit thread_local const PersistentCall *current_persistent_call = nullptr;

PersistentCallScope::PersistentCallScope(const PersistentCall &call) : outer_(current_persistent_call)
{
    current_persistent_call = &call;
}

PersistentCallScope::~PersistentCallScope()
{
    current_persistent_call = outer_;
}

namespace failed {

int comm(const char *function, MPI_Comm handle, Call *out)
{
    if (int rc = require_initialized(handle, function); rc != MPI_SUCCESS) {
        return rc;
    }
    if (out->comm == nullptr) { /* only when called around the bindings */
        return out->raise(MPI_ERR_COMM, "invalid communicator in argument 'comm'");
    }
    return out->raise(MPI_ERR_INTERN, comm_label(*out->comm) + " has no collectives set up");
}

int root(const Call &c, int root)
{
    if (c.inter()) {
        return c.raise(MPI_ERR_ROOT, "root " + std::to_string(root) +
                                         " is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group of " +
                                         comm_label(*c.comm) + " (size " + std::to_string(c.peers()) + ")");
    }
    return c.raise(MPI_ERR_ROOT, "root " + std::to_string(root) + " is not a rank of " + comm_label(*c.comm) +
                                     " (size " + std::to_string(c.size()) + ")");
}

int intra(const Call &c)
{
    return c.raise(MPI_ERR_COMM, std::string(c.function) + " is not defined on an intercommunicator (MPI-4.1 6.11)");
}

int type(const Call &c, MPI_Datatype handle, const char *arg, const Datatype *found)
{
    if (found == nullptr) {
        return c.raise(MPI_ERR_TYPE, std::string(handle == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "an invalid datatype") +
                                         " in argument '" + arg + "'");
    }
    return c.raise(MPI_ERR_TYPE, std::string("the datatype in argument '") + arg +
                                     "' is not committed (MPI_Type_commit)");
}

int op(const Call &c, MPI_Op handle, const Datatype *type, const Op *found)
{
    if (found == nullptr) {
        return c.raise(MPI_ERR_OP, handle == MPI_OP_NULL ? "the op is MPI_OP_NULL" : "invalid op in argument 'op'");
    }
    return c.raise(MPI_ERR_OP, op_check(found, type));
}

int count(const Call &c, MPI_Count count, const char *arg)
{
    return c.raise(MPI_ERR_COUNT, "negative count " + std::to_string(count) + " in argument '" + arg + "'");
}

int in_place(const Call &c, const char *arg)
{
    return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE is not allowed in argument '") + arg + "' of " +
                                       c.function);
}

int null_buffer(const Call &c, std::size_t count, const Datatype *type, const char *arg)
{
    return c.raise(MPI_ERR_BUFFER, std::string("argument '") + arg + "' is NULL with a count of " +
                                       std::to_string(count) + " " + type->name);
}

int in_place_inter(const Call &c, const char *arg)
{
    return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE in argument '") + arg +
                                       "': no collective allows it on an intercommunicator");
}

int in_place_not_root(const Call &c, const char *arg)
{
    return c.raise(MPI_ERR_BUFFER, std::string("MPI_IN_PLACE in argument '") + arg +
                                       "' is allowed at the root only (rank " + std::to_string(c.rank()) +
                                       " is not the root)");
}

int same_buffer(const Call &c)
{
    return c.raise(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: a buffer may not be both (use "
                                   "MPI_IN_PLACE as sendbuf instead)");
}

int shared(const Call &c, const std::string &what)
{
    return c.raise(MPI_ERR_BUFFER, what + " share memory: a buffer may not be both sent from and received into "
                                          "(MPI_IN_PLACE as sendbuf says the data is in place)");
}

} // namespace failed

int check_types(const Call &c, const MPI_Datatype *handles, const char *arg, std::vector<mca_coll_dt_t> *out)
{
    if (handles == nullptr && c.peers() > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    out->resize(static_cast<std::size_t>(c.peers()));
    for (int i = 0; i < c.peers(); ++i) {
        const Datatype *type = datatype_lookup(handles[i]);
        if (type == nullptr || !datatype_committed(type)) [[unlikely]] {
            const std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
            return failed::type(c, handles[i], name.c_str(), type);
        }
        (*out)[static_cast<std::size_t>(i)] = to_c(type);
    }
    return MPI_SUCCESS;
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
            return failed::shared(c, std::string(own_is_send ? "sendbuf" : "recvbuf") + " and " + which);
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
