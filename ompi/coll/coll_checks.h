/*
 * Argument checks of the collective functions (MPI-4.1 chapter 6) that need the library's state, and
 * the call of the selected module (the generated checks in mpi_checked.c cover the communicator handle,
 * the scalar counts every call uses and NULL request pointers). Errors are raised on the communicator's handler
 * with a message that names the argument and says what is wrong.
 */
#ifndef TESSERA_OMPI_COLL_COLL_CHECKS_H
#define TESSERA_OMPI_COLL_COLL_CHECKS_H

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "frameworks/coll/base/base.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::coll {

/* One collective call: its name, its communicator (handle and object) and the communicator's table. */
struct Call {
    const char *function = "";
    MPI_Comm handle = MPI_COMM_NULL;
    Communicator *comm = nullptr;
    mca_coll_base_comm_coll_t *table = nullptr;

    int rank() const { return comm->rank; }
    int size() const { return comm->size; }
    bool inter() const { return comm->is_inter(); }
    /* The ranks a per-rank array or a block layout covers (counts, displacements, the blocks of an
     * allgather or alltoall, a gather's root's blocks): the remote group on an intercommunicator
     * (MPI-4.1 6.2.2), else the communicator. */
    int peers() const { return inter() ? comm->remote_size() : comm->size; }
    /* A rooted collective's parts on this process: the root (MPI_ROOT on an intercommunicator), and a
     * member that sends to or receives from it (every rank of an intracommunicator; the other group of
     * an intercommunicator, whose root is a rank of the remote group, while the root's own group
     * gives MPI_PROC_NULL and takes no part). */
    bool is_root(int root) const { return inter() ? root == MPI_ROOT : rank() == root; }
    bool is_member(int root) const { return inter() ? root >= 0 : true; }
    /* Raises `code` with `detail` on the communicator's handler. */
    int raise(int code, const std::string &detail) const;
};

/* A persistent collective's call running through its I-form entry (coll_persistent.cpp): the _init
 * call (the checks only: dispatch starts nothing) or MPI_Start. Errors are named after it. */
struct PersistentCall {
    const char *function;
    bool check_only;
};
class PersistentCallScope {
public:
    explicit PersistentCallScope(const PersistentCall &call);
    ~PersistentCallScope();
    PersistentCallScope(const PersistentCallScope &) = delete;
    PersistentCallScope &operator=(const PersistentCallScope &) = delete;

private:
    const PersistentCall *outer_;
};
/* The call in progress on this thread, or nullptr. initial-exec: read by every collective call's
 * checks, where the general model's __tls_get_addr call showed in profiles (libmpi is loaded with the
 * program, so its thread-local block is static). */
[[gnu::tls_model("initial-exec")]] extern constinit thread_local const PersistentCall *current_persistent_call;
inline const PersistentCall *persistent_call()
{
    return current_persistent_call;
}

/*
 * The checks below pass in a few inlined instructions; what a failing one says is built out of line,
 * in the cold functions of namespace `failed` (coll_checks.cpp). A small collective's call is
 * mostly its checks otherwise: 2-rank MPI_Allreduce of one double on the AMD EPYC of stop 20,
 * 0.240 -> 0.205 us without them.
 */
namespace failed {
[[gnu::cold]] int comm(const char *function, MPI_Comm handle, Call *out);
[[gnu::cold]] int root(const Call &c, int root);
[[gnu::cold]] int intra(const Call &c);
[[gnu::cold]] int type(const Call &c, MPI_Datatype handle, const char *arg, const Datatype *found);
[[gnu::cold]] int op(const Call &c, MPI_Op handle, const Datatype *type, const Op *found);
[[gnu::cold]] int count(const Call &c, MPI_Count count, const char *arg);
[[gnu::cold]] int in_place(const Call &c, const char *arg);
[[gnu::cold]] int null_buffer(const Call &c, std::size_t count, const Datatype *type, const char *arg);
[[gnu::cold]] int in_place_inter(const Call &c, const char *arg);
[[gnu::cold]] int in_place_not_root(const Call &c, const char *arg);
[[gnu::cold]] int same_buffer(const Call &c);
[[gnu::cold]] int shared(const Call &c, const std::string &what);
} // namespace failed

/* MPI is initialized and the communicator exists. */
inline int check_comm(const char *function, MPI_Comm handle, Call *out)
{
    const PersistentCall *p = persistent_call();
    out->function = p != nullptr ? p->function : function;
    out->handle = handle;
    out->comm = mpi_initialized() ? comm_lookup(handle) : nullptr;
    out->table = out->comm != nullptr ? out->comm->coll : nullptr;
    return out->table != nullptr ? MPI_SUCCESS : failed::comm(function, handle, out);
}
/* A root rank of the communicator; of the remote group, MPI_ROOT or MPI_PROC_NULL on an
 * intercommunicator. */
inline int check_root(const Call &c, int root)
{
    const bool ok = c.inter() ? root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c.peers())
                              : root >= 0 && root < c.size();
    return ok ? MPI_SUCCESS : failed::root(c, root);
}
/* MPI_Scan and MPI_Exscan: intracommunicators only (MPI-4.1 6.11). */
inline int check_intra(const Call &c)
{
    return c.inter() ? failed::intra(c) : MPI_SUCCESS;
}
/* A datatype the call moves data of on this rank: valid and committed. `arg` names the argument. */
inline int check_type(const Call &c, MPI_Datatype handle, const char *arg, const Datatype **out)
{
    *out = datatype_lookup(handle);
    return *out != nullptr && datatype_committed(*out) ? MPI_SUCCESS : failed::type(c, handle, arg, *out);
}
/* Every datatype of an array (MPI_Alltoallw), into `out`. */
int check_types(const Call &c, const MPI_Datatype *handles, const char *arg, std::vector<mca_coll_dt_t> *out);
/* An op, defined on `type` (op_defined_on). */
inline int check_op(const Call &c, MPI_Op handle, const Datatype *type, const Op **out)
{
    *out = op_lookup(handle);
    return *out != nullptr && op_defined_on(*out, type) ? MPI_SUCCESS : failed::op(c, handle, type, *out);
}
/* A scalar count where this call makes it significant: not negative. The generated checks leave the
 * counts some calls ignore (at the root only, or not with MPI_IN_PLACE: `conditional` in mpi_api.txt)
 * to this. */
inline int check_count(const Call &c, MPI_Count count, const char *arg)
{
    return count < 0 ? failed::count(c, count, arg) : MPI_SUCCESS;
}
/* MPI_IN_PLACE where the standard does not allow it. */
inline int check_not_in_place(const Call &c, const void *buf, const char *arg)
{
    return buf == MPI_IN_PLACE ? failed::in_place(c, arg) : MPI_SUCCESS;
}
/* A buffer of `count` elements of `type`: not MPI_IN_PLACE (where the standard does not allow it there)
 * and not NULL when it holds data of a predefined type (a derived type may address memory from
 * MPI_BOTTOM, which is NULL). */
inline int check_buffer(const Call &c, const void *buf, std::size_t count, const Datatype *type, const char *arg)
{
    if (buf == MPI_IN_PLACE) {
        return failed::in_place(c, arg);
    }
    if (buf == nullptr && count > 0 && type->size > 0 && type->derived == nullptr) {
        return failed::null_buffer(c, count, type, arg);
    }
    return MPI_SUCCESS;
}
/* MPI_IN_PLACE on an intercommunicator, where no collective allows it (MPI-4.1 6.2.2). */
inline int check_in_place_inter(const Call &c, const void *buf, const char *arg)
{
    return buf == MPI_IN_PLACE && c.inter() ? failed::in_place_inter(c, arg) : MPI_SUCCESS;
}
/* MPI_IN_PLACE where only the root may give it. */
inline int check_in_place_at_root(const Call &c, const void *buf, bool root, const char *arg)
{
    if (buf != MPI_IN_PLACE) {
        return MPI_SUCCESS;
    }
    return c.inter() ? failed::in_place_inter(c, arg) : root ? MPI_SUCCESS : failed::in_place_not_root(c, arg);
}
/* The send and receive buffers of a rank are distinct unless MPI_IN_PLACE says otherwise (MPI-4.1 6.1:
 * a buffer may not be both). Only when both hold data. */
inline int check_distinct(const Call &c, const void *sbuf, bool sends, const void *rbuf, bool receives)
{
    return sends && receives && sbuf == rbuf && sbuf != nullptr ? failed::same_buffer(c) : MPI_SUCCESS;
}

/* Where the data of `count` elements of `type` at `buf` lies: bytes [lo, hi), the first element's
 * first data byte, and whether every byte of [lo, hi) is data (a contiguous type). Empty (lo == hi)
 * when it holds no data or is MPI_IN_PLACE. */
struct Span {
    std::uintptr_t lo = 0, hi = 0, first = 0;
    bool dense = false;
    bool empty() const { return lo == hi; }
};
inline Span span_of(const void *buf, std::size_t count, const Datatype *type)
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
/* Whether two spans certainly share data: the same first data byte, or overlapping and both dense. */
inline bool shares_data(const Span &a, const Span &b)
{
    if (a.empty() || b.empty()) {
        return false;
    }
    return a.first == b.first || (a.dense && b.dense && a.lo < b.hi && b.lo < a.hi);
}
/* Beyond check_distinct: a rank's send and receive data may not share memory at all (MPI-4.1 6.1). It
 * is raised where the sharing is certain: overlapping spans that are both dense, or the same first data
 * byte (the common slip of passing one's own block of the receive buffer instead of MPI_IN_PLACE).
 * Spans with holes may interleave without sharing a byte, so they are not judged further. */
inline int check_apart(const Call &c, const Span &send, const Span &recv)
{
    return shares_data(send, recv) ? failed::shared(c, "sendbuf and recvbuf") : MPI_SUCCESS;
}
/* check_apart of `own`, this rank's block (a gather's or allgather's send block, a scatter's receive
 * block), against each block of the buffer of every rank's blocks at `buf`: block i holds counts[i]
 * elements at displs[i] extents (the vector forms), or `count` elements at i * count extents. */
int check_apart_blocks(const Call &c, const Span &own, bool own_is_send, const void *buf, const Datatype *type,
                       std::size_t count, const std::vector<std::size_t> *counts,
                       const std::vector<std::ptrdiff_t> *displs);

/* A count array of one entry per rank (c.peers(), or `n`), non-negative, as size_t; also its sum. */
template <typename Count>
int check_counts(const Call &c, const Count *counts, const char *arg, std::vector<std::size_t> *out,
                 std::size_t *sum = nullptr, int n = -1);
/* A displacement array of one entry per rank (c.peers()), as ptrdiff_t. */
template <typename Disp>
int check_displs(const Call &c, const Disp *displs, const char *arg, std::vector<std::ptrdiff_t> *out);

/*
 * Calls the selected blocking function (request == nullptr) or its non-blocking form, as
 * fn(args..., comm, module) or ifn(args..., &request, comm, module), and raises what fails. A function
 * no component provides is MPI_ERR_UNSUPPORTED_OPERATION naming the communicator.
 */
int missing(const Call &c);
int finish(const Call &c, int rc);

template <typename Fn, typename IFn, typename... Args>
int dispatch(const Call &c, Fn fn, mca_coll_base_module_t *module, IFn ifn, mca_coll_base_module_t *imodule,
             MPI_Request *request, Args... args)
{
    if (request == nullptr) {
        return fn == nullptr ? missing(c) : finish(c, fn(args..., to_c(c.comm), module));
    }
    if (ifn == nullptr) {
        *request = MPI_REQUEST_NULL;
        return missing(c);
    }
    if (const PersistentCall *p = persistent_call(); p != nullptr && p->check_only) {
        return MPI_SUCCESS;
    }
    tessera_request *r = nullptr;
    const int rc = ifn(args..., &r, to_c(c.comm), imodule);
    *request = rc == MPI_SUCCESS ? pml::to_handle(of(r)) : MPI_REQUEST_NULL;
    return finish(c, rc);
}

/* The four slots of collective `name` in the call's table, for dispatch(). */
#define TESSERA_COLL_SLOTS(c, name)                                                                                   \
    (c).table->coll_##name, (c).table->coll_##name##_module, (c).table->coll_i##name,                                 \
        (c).table->coll_i##name##_module

template <typename Count>
int check_counts(const Call &c, const Count *counts, const char *arg, std::vector<std::size_t> *out, std::size_t *sum,
                 int n)
{
    n = n < 0 ? c.peers() : n;
    if (counts == nullptr && n > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    out->resize(static_cast<std::size_t>(n));
    std::size_t total = 0;
    for (int i = 0; i < n; ++i) {
        if (counts[i] < 0) {
            return c.raise(MPI_ERR_COUNT, std::string("negative count ") + std::to_string(counts[i]) + " in " + arg +
                                              "[" + std::to_string(i) + "]");
        }
        (*out)[static_cast<std::size_t>(i)] = static_cast<std::size_t>(counts[i]);
        total += static_cast<std::size_t>(counts[i]);
    }
    if (sum != nullptr) {
        *sum = total;
    }
    return MPI_SUCCESS;
}

template <typename Disp>
int check_displs(const Call &c, const Disp *displs, const char *arg, std::vector<std::ptrdiff_t> *out)
{
    if (displs == nullptr && c.peers() > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    out->resize(static_cast<std::size_t>(c.peers()));
    for (int i = 0; i < c.peers(); ++i) {
        (*out)[static_cast<std::size_t>(i)] = static_cast<std::ptrdiff_t>(displs[i]);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::coll

#endif
