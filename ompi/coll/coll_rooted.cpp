/* MPI_Bcast, MPI_Gather(v), MPI_Scatter(v) and their non-blocking and MPI_Count forms (MPI-4.1 6.4-6.6);
 * the int-count forms are generated from the MPI_Count ones (ompi/api/gen_native.py), which widen only
 * the arrays significant on the calling process (sig= in mpi_api.txt). Arguments the standard makes significant only at the root are
 * checked only there, and given to the module as NULL elsewhere; on an intercommunicator the root's group
 * gives MPI_ROOT (the root) or MPI_PROC_NULL (nothing is significant) and the root's blocks are the remote
 * group's. */
#include "ompi/coll/coll_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

using namespace coll;

namespace {

int bcast_impl(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    Call c;
    const Datatype *type = nullptr;
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS ? rc : check_root(c, root);
    if (rc == MPI_SUCCESS && (c.is_root(root) || c.is_member(root))) {
        rc = check_type(c, datatype, "datatype", &type);
        rc = rc != MPI_SUCCESS ? rc : check_buffer(c, buf, static_cast<std::size_t>(count), type, "buffer");
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, bcast), request, buf, static_cast<std::size_t>(count), to_c(type), root);
}

/* The send side of a gather (every rank but an in-place root) and, at the root, the receive side of
 * `total` elements; the same for the receive side of a scatter and its root's send side. */
struct Side {
    const Datatype *type = nullptr;
    std::size_t count = 0;
};

int check_side(const Call &c, const void *buf, MPI_Count count, MPI_Datatype datatype, const char *buf_arg,
               const char *count_arg, const char *type_arg, Side *out)
{
    if (int rc = check_count(c, count, count_arg); rc != MPI_SUCCESS) {
        return rc;
    }
    out->count = static_cast<std::size_t>(count);
    int rc = check_type(c, datatype, type_arg, &out->type);
    return rc != MPI_SUCCESS ? rc : check_buffer(c, buf, out->count, out->type, buf_arg);
}

bool holds_data(const Side &s)
{
    return s.type != nullptr && s.count * s.type->size > 0;
}

/* One direction's arguments of a rooted collective: a buffer, a count (or the root's counts and
 * displacements), a datatype, and their names for messages. */
template <typename Count, typename Disp>
struct Args {
    const void *buf;
    MPI_Count count;         /* per rank (the root's fixed-count form) or of this rank's own block */
    const Count *counts;     /* the root's vector form */
    const Disp *displs;
    MPI_Datatype type;
    const char *buf_arg, *count_arg, *type_arg;
};

/* The checks a gather and a scatter share, mirrored: `own` is the block every member gives (gather's
 * send side) or takes (scatter's receive side), and may be MPI_IN_PLACE at the root; `all` is the
 * root's buffer of every rank's blocks. */
struct Checked {
    Call c;
    bool at_root = false;
    Side own, all;
    std::vector<std::size_t> counts;
    std::vector<std::ptrdiff_t> offsets;
};

template <typename Count, typename Disp>
int check_rooted(const char *function, bool vector, bool own_is_send, const Args<Count, Disp> &own,
                 const Args<Count, Disp> &all, int root, MPI_Comm comm, Checked *k)
{
    Call &c = k->c;
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS ? rc : check_root(c, root);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    k->at_root = c.is_root(root);
    if (k->at_root && !vector && (rc = check_count(c, all.count, all.count_arg)) != MPI_SUCCESS) {
        return rc;
    }
    std::size_t total = static_cast<std::size_t>(all.count) * static_cast<std::size_t>(c.peers());
    rc = check_in_place_at_root(c, own.buf, k->at_root, own.buf_arg);
    if (rc == MPI_SUCCESS && own.buf != MPI_IN_PLACE && c.is_member(root)) {
        rc = check_side(c, own.buf, own.count, own.type, own.buf_arg, own.count_arg, own.type_arg, &k->own);
    }
    if (rc == MPI_SUCCESS && k->at_root && vector) {
        rc = check_counts(c, all.counts, all.count_arg, &k->counts, &total);
        rc = rc != MPI_SUCCESS ? rc : check_displs(c, all.displs, "displs", &k->offsets);
    }
    if (rc == MPI_SUCCESS && k->at_root) {
        rc = check_side(c, all.buf, static_cast<MPI_Count>(total), all.type, all.buf_arg, all.count_arg, all.type_arg,
                        &k->all);
        const Side &send = own_is_send ? k->own : k->all;
        const Side &recv = own_is_send ? k->all : k->own;
        const void *sbuf = own_is_send ? own.buf : all.buf;
        const void *rbuf = own_is_send ? all.buf : own.buf;
        rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, holds_data(send), rbuf, holds_data(recv));
        if (rc == MPI_SUCCESS && own.buf != MPI_IN_PLACE) {
            rc = check_apart_blocks(c, span_of(own.buf, k->own.count, k->own.type), own_is_send, all.buf, k->all.type,
                                    static_cast<std::size_t>(all.count), vector ? &k->counts : nullptr,
                                    vector ? &k->offsets : nullptr);
        }
    }
    return rc;
}

/* MPI_Gather (vector = false: rcount) and MPI_Gatherv (vector: rcounts and displs). */
template <typename Count, typename Disp>
int gather_impl(const char *function, bool vector, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                const Count *rcounts, const Disp *displs, Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    Checked k;
    const Args<Count, Disp> send{sbuf, scount, nullptr, nullptr, stype, "sendbuf", "sendcount", "sendtype"};
    const Args<Count, Disp> recv{rbuf, rcount, rcounts, displs, rtype, "recvbuf",
                                 vector ? "recvcounts" : "recvcount", "recvtype"};
    if (int rc = check_rooted(function, vector, true, send, recv, root, comm, &k); rc != MPI_SUCCESS) {
        return rc;
    }
    if (!vector) {
        return dispatch(k.c, TESSERA_COLL_SLOTS(k.c, gather), request, sbuf, k.own.count, to_c(k.own.type), rbuf,
                        static_cast<std::size_t>(rcount), to_c(k.all.type), root);
    }
    return dispatch(k.c, TESSERA_COLL_SLOTS(k.c, gatherv), request, sbuf, k.own.count, to_c(k.own.type), rbuf,
                    k.at_root ? k.counts.data() : nullptr, k.at_root ? k.offsets.data() : nullptr, to_c(k.all.type),
                    root);
}

int gather_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather_impl<MPI_Count, MPI_Aint>(function, false, sbuf, scount, stype, rbuf, nullptr, nullptr, rcount, rtype,
                                            root, comm, request);
}

template <typename Count, typename Disp>
int gatherv_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                 const Count *rcounts, const Disp *displs, MPI_Datatype rtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return gather_impl<Count, Disp>(function, true, sbuf, scount, stype, rbuf, rcounts, displs, 0, rtype, root, comm,
                                    request);
}

/* MPI_Scatter (vector = false: scount) and MPI_Scatterv (vector: scounts and displs). */
template <typename Count, typename Disp>
int scatter_impl(const char *function, bool vector, const void *sbuf, const Count *scounts, const Disp *displs,
                 Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    Checked k;
    const Args<Count, Disp> recv{rbuf, rcount, nullptr, nullptr, rtype, "recvbuf", "recvcount", "recvtype"};
    const Args<Count, Disp> send{sbuf, scount, scounts, displs, stype, "sendbuf",
                                 vector ? "sendcounts" : "sendcount", "sendtype"};
    if (int rc = check_rooted(function, vector, false, recv, send, root, comm, &k); rc != MPI_SUCCESS) {
        return rc;
    }
    if (!vector) {
        return dispatch(k.c, TESSERA_COLL_SLOTS(k.c, scatter), request, sbuf, static_cast<std::size_t>(scount),
                        to_c(k.all.type), rbuf, k.own.count, to_c(k.own.type), root);
    }
    return dispatch(k.c, TESSERA_COLL_SLOTS(k.c, scatterv), request, sbuf, k.at_root ? k.counts.data() : nullptr,
                    k.at_root ? k.offsets.data() : nullptr, to_c(k.all.type), rbuf, k.own.count, to_c(k.own.type),
                    root);
}

int scatter_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                 MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter_impl<MPI_Count, MPI_Aint>(function, false, sbuf, nullptr, nullptr, scount, stype, rbuf, rcount,
                                             rtype, root, comm, request);
}

template <typename Count, typename Disp>
int scatterv_impl(const char *function, const void *sbuf, const Count *scounts, const Disp *displs, MPI_Datatype stype,
                  void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter_impl<Count, Disp>(function, true, sbuf, scounts, displs, 0, stype, rbuf, rcount, rtype, root, comm,
                                     request);
}

} // namespace

int bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_impl("MPI_Bcast_c", buffer, count, datatype, root, comm, nullptr);
}

int ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return bcast_impl("MPI_Ibcast_c", buffer, count, datatype, root, comm, request);
}

int gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_impl("MPI_Gather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}

int igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather_impl("MPI_Igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request);
}

int gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gatherv_impl("MPI_Gatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm, nullptr);
}

int igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    return gatherv_impl("MPI_Igatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm, request);
}

int scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_impl("MPI_Scatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        nullptr);
}

int iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter_impl("MPI_Iscatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request);
}

int scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatterv_impl("MPI_Scatterv_c", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm, nullptr);
}

int iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return scatterv_impl("MPI_Iscatterv_c", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm, request);
}

} // namespace tessera::ompi::native
