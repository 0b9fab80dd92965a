/* The neighbourhood collectives (MPI-4.1 8.6, 8.7; the int-count forms are generated from the
 * MPI_Count ones, ompi/api/gen_native.py). Each checks its arguments against the communicator's
 * topology and calls the function the communicator's coll table selected (the neighbor component serves
 * them). MPI_IN_PLACE is not allowed anywhere in them; the arrays are as long as the calling process's
 * in- and out-degree. */
#include "ompi/runtime/native_api.h"

#include <string>
#include <vector>

#include "ompi/coll/coll_checks.h"
#include "ompi/topo/topology.h"

namespace tessera::ompi::native {

using namespace coll;

namespace {

/* The call on a communicator with a topology, and this process's degrees in it. */
struct Hood {
    Call call;
    std::size_t in = 0;  /* blocks received */
    std::size_t out = 0; /* blocks sent */
};

int check_hood(const char *function, MPI_Comm comm, Hood *h)
{
    if (int rc = check_comm(function, comm, &h->call); rc != MPI_SUCCESS) {
        return rc;
    }
    const Communicator *c = h->call.comm;
    if (c->topo == nullptr) {
        return h->call.raise(MPI_ERR_TOPOLOGY, comm_label(*c) + " has no topology: the neighbourhood collectives "
                                                                "follow one (MPI_Cart_create, MPI_Dist_graph_create...)");
    }
    h->in = static_cast<std::size_t>(indegree(*c->topo, c->rank));
    h->out = static_cast<std::size_t>(outdegree(*c->topo, c->rank));
    return MPI_SUCCESS;
}

/* One side of the call, checked and converted for the module. */
struct Side {
    const Datatype *type = nullptr;
    std::size_t count = 0;
    std::vector<std::size_t> counts;
    std::vector<std::ptrdiff_t> displs;
    std::vector<mca_coll_dt_t> types;
    std::size_t total = 0; /* elements over all blocks (the w form: blocks with data) */
};

template <typename Count>
int check_counts(const Call &c, const Count *counts, std::size_t n, const char *arg, Side *s)
{
    if (counts == nullptr && n > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (counts[i] < 0) {
            return c.raise(MPI_ERR_COUNT, "negative count " + std::to_string(counts[i]) + " in " + arg + "[" +
                                              std::to_string(i) + "]");
        }
        s->counts.push_back(static_cast<std::size_t>(counts[i]));
        s->total += static_cast<std::size_t>(counts[i]);
    }
    return MPI_SUCCESS;
}

template <typename Disp>
int check_displs(const Call &c, const Disp *displs, std::size_t n, const char *arg, Side *s)
{
    if (displs == nullptr && n > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    s->displs.assign(displs, displs + n);
    return MPI_SUCCESS;
}

int check_types(const Call &c, const MPI_Datatype *handles, std::size_t n, const char *arg, Side *s)
{
    if (handles == nullptr && n > 0) {
        return c.raise(MPI_ERR_ARG, std::string("argument '") + arg + "' is NULL");
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
        const Datatype *type = nullptr;
        if (int rc = check_type(c, handles[i], name.c_str(), &type); rc != MPI_SUCCESS) {
            return rc;
        }
        s->types.push_back(to_c(type));
    }
    return MPI_SUCCESS;
}

/* `count` elements of `datatype` per block, `blocks` blocks. */
int check_fixed(const Call &c, const void *buf, MPI_Count count, MPI_Datatype datatype, std::size_t blocks,
                const char *buf_arg, const char *type_arg, Side *s)
{
    s->count = static_cast<std::size_t>(count);
    s->total = s->count * blocks;
    int rc = check_type(c, datatype, type_arg, &s->type);
    return rc != MPI_SUCCESS ? rc : check_buffer(c, buf, s->total, s->type, buf_arg);
}

template <typename Count, typename Disp>
int check_vector(const Call &c, const void *buf, const Count *counts, const Disp *displs, MPI_Datatype datatype,
                 std::size_t blocks, const char *buf_arg, const char *counts_arg, const char *displs_arg,
                 const char *type_arg, Side *s)
{
    int rc = check_counts(c, counts, blocks, counts_arg, s);
    rc = rc != MPI_SUCCESS ? rc : check_displs(c, displs, blocks, displs_arg, s);
    rc = rc != MPI_SUCCESS ? rc : check_type(c, datatype, type_arg, &s->type);
    return rc != MPI_SUCCESS ? rc : check_buffer(c, buf, s->total, s->type, buf_arg);
}

template <typename Count>
int check_w(const Call &c, const void *buf, const Count *counts, const MPI_Aint *displs, const MPI_Datatype *types,
            std::size_t blocks, const char *buf_arg, const char *counts_arg, const char *displs_arg,
            const char *types_arg, Side *s)
{
    int rc = check_not_in_place(c, buf, buf_arg);
    rc = rc != MPI_SUCCESS ? rc : check_counts(c, counts, blocks, counts_arg, s);
    rc = rc != MPI_SUCCESS ? rc : check_displs(c, displs, blocks, displs_arg, s);
    return rc != MPI_SUCCESS ? rc : check_types(c, types, blocks, types_arg, s);
}

bool holds_data(const Side &s, std::size_t blocks)
{
    return blocks > 0 && s.total > 0 && (s.type == nullptr || s.type->size > 0);
}

int allgather_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                   MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    Hood h;
    Side send, recv;
    int rc = check_hood(function, comm, &h);
    const Call &c = h.call;
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, sbuf, scount, stype, 1, "sendbuf", "sendtype", &send);
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, rbuf, rcount, rtype, h.in, "recvbuf", "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, holds_data(send, h.out), rbuf, holds_data(recv, h.in));
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, neighbor_allgather), request, sbuf, send.count, to_c(send.type), rbuf,
                    recv.count, to_c(recv.type));
}

template <typename Count, typename Disp>
int allgatherv_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                    const Count *rcounts, const Disp *displs, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    Hood h;
    Side send, recv;
    int rc = check_hood(function, comm, &h);
    const Call &c = h.call;
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, sbuf, scount, stype, 1, "sendbuf", "sendtype", &send);
    rc = rc != MPI_SUCCESS ? rc
                           : check_vector(c, rbuf, rcounts, displs, rtype, h.in, "recvbuf", "recvcounts", "displs",
                                          "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, holds_data(send, h.out), rbuf, holds_data(recv, h.in));
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, neighbor_allgatherv), request, sbuf, send.count, to_c(send.type), rbuf,
                    recv.counts.data(), recv.displs.data(), to_c(recv.type));
}

int alltoall_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                  MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    Hood h;
    Side send, recv;
    int rc = check_hood(function, comm, &h);
    const Call &c = h.call;
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, sbuf, scount, stype, h.out, "sendbuf", "sendtype", &send);
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, rbuf, rcount, rtype, h.in, "recvbuf", "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, holds_data(send, h.out), rbuf, holds_data(recv, h.in));
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, neighbor_alltoall), request, sbuf, send.count, to_c(send.type), rbuf,
                    recv.count, to_c(recv.type));
}

template <typename Count, typename Disp>
int alltoallv_impl(const char *function, const void *sbuf, const Count *scounts, const Disp *sdispls,
                   MPI_Datatype stype, void *rbuf, const Count *rcounts, const Disp *rdispls, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *request)
{
    Hood h;
    Side send, recv;
    int rc = check_hood(function, comm, &h);
    const Call &c = h.call;
    rc = rc != MPI_SUCCESS ? rc
                           : check_vector(c, sbuf, scounts, sdispls, stype, h.out, "sendbuf", "sendcounts", "sdispls",
                                          "sendtype", &send);
    rc = rc != MPI_SUCCESS ? rc
                           : check_vector(c, rbuf, rcounts, rdispls, rtype, h.in, "recvbuf", "recvcounts", "rdispls",
                                          "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, holds_data(send, h.out), rbuf, holds_data(recv, h.in));
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, neighbor_alltoallv), request, sbuf, send.counts.data(),
                    send.displs.data(), to_c(send.type), rbuf, recv.counts.data(), recv.displs.data(), to_c(recv.type));
}

template <typename Count>
int alltoallw_impl(const char *function, const void *sbuf, const Count *scounts, const MPI_Aint *sdispls,
                   const MPI_Datatype *stypes, void *rbuf, const Count *rcounts, const MPI_Aint *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request)
{
    Hood h;
    Side send, recv;
    int rc = check_hood(function, comm, &h);
    const Call &c = h.call;
    rc = rc != MPI_SUCCESS ? rc
                           : check_w(c, sbuf, scounts, sdispls, stypes, h.out, "sendbuf", "sendcounts", "sdispls",
                                     "sendtypes", &send);
    rc = rc != MPI_SUCCESS ? rc
                           : check_w(c, rbuf, rcounts, rdispls, rtypes, h.in, "recvbuf", "recvcounts", "rdispls",
                                     "recvtypes", &recv);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, neighbor_alltoallw), request, sbuf, send.counts.data(),
                    send.displs.data(), send.types.data(), rbuf, recv.counts.data(), recv.displs.data(),
                    recv.types.data());
}

} // namespace

int neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_impl("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                          comm, nullptr);
}

int ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather_impl("MPI_Ineighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                          comm, request);
}

int neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_impl("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                           recvtype, comm, nullptr);
}

int ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
    return allgatherv_impl("MPI_Ineighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                           recvtype, comm, request);
}

int neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_impl("MPI_Neighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                         nullptr);
}

int ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_impl("MPI_Ineighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                         request);
}

int neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_impl("MPI_Neighbor_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                          rdispls, recvtype, comm, nullptr);
}

int ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoallv_impl("MPI_Ineighbor_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                          rdispls, recvtype, comm, request);
}

int neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_impl("MPI_Neighbor_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                          rdispls, recvtypes, comm, nullptr);
}

int ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *request)
{
    return alltoallw_impl("MPI_Ineighbor_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                          rdispls, recvtypes, comm, request);
}

} // namespace tessera::ompi::native
