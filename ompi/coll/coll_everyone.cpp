/* MPI_Barrier, MPI_Allgather(v), MPI_Alltoall(v,w) and their non-blocking and MPI_Count forms
 * (MPI-4.1 6.3, 6.7, 6.8); the int-count forms are generated from the MPI_Count ones
 * (ompi/api/gen_native.py). MPI_IN_PLACE as sendbuf makes the send
 * arguments insignificant: they are neither checked nor given to the module. On an intercommunicator the
 * blocks and per-rank arrays are the remote group's, and MPI_IN_PLACE is not allowed. */
#include "ompi/coll/coll_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

using namespace coll;

namespace {

int barrier_impl(const char *function, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    if (int rc = check_comm(function, comm, &c); rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, barrier), request);
}

/* The checked arguments of one side (send or receive) of an all-to-all style call. */
struct Side {
    const Datatype *type = nullptr;
    std::size_t count = 0;           /* per rank, for the fixed-count forms */
    std::vector<std::size_t> counts; /* the vector forms */
    std::vector<std::ptrdiff_t> displs;
    std::vector<mca_coll_dt_t> types; /* MPI_Alltoallw */
    bool data = false;                /* holds any data */
};

int check_fixed(const Call &c, const void *buf, MPI_Count count, MPI_Datatype datatype, std::size_t per_rank_total,
                const char *buf_arg, const char *count_arg, const char *type_arg, Side *out)
{
    if (int rc = check_count(c, count, count_arg); rc != MPI_SUCCESS) {
        return rc;
    }
    out->count = static_cast<std::size_t>(count);
    int rc = check_type(c, datatype, type_arg, &out->type);
    rc = rc != MPI_SUCCESS ? rc : check_buffer(c, buf, out->count * per_rank_total, out->type, buf_arg);
    out->data = rc == MPI_SUCCESS && out->count * out->type->size > 0;
    return rc;
}

template <typename Count, typename Disp>
int check_vector(const Call &c, const void *buf, const Count *counts, const Disp *displs, MPI_Datatype datatype,
                 const char *buf_arg, const char *counts_arg, const char *displs_arg, const char *type_arg, Side *out)
{
    std::size_t total = 0;
    int rc = check_counts(c, counts, counts_arg, &out->counts, &total);
    rc = rc != MPI_SUCCESS ? rc : check_displs(c, displs, displs_arg, &out->displs);
    rc = rc != MPI_SUCCESS ? rc : check_type(c, datatype, type_arg, &out->type);
    rc = rc != MPI_SUCCESS ? rc : check_buffer(c, buf, total, out->type, buf_arg);
    out->data = rc == MPI_SUCCESS && total * out->type->size > 0;
    return rc;
}

template <typename Count, typename Disp>
int check_w(const Call &c, const void *buf, const Count *counts, const Disp *displs, const MPI_Datatype *types,
            const char *counts_arg, const char *displs_arg, const char *types_arg, Side *out)
{
    std::size_t total = 0;
    int rc = check_counts(c, counts, counts_arg, &out->counts, &total);
    rc = rc != MPI_SUCCESS ? rc : check_displs(c, displs, displs_arg, &out->displs);
    rc = rc != MPI_SUCCESS ? rc : check_types(c, types, types_arg, &out->types);
    (void)buf; /* with a datatype per rank, MPI_BOTTOM (NULL) and absolute addresses are the usual case */
    out->data = rc == MPI_SUCCESS && total > 0;
    return rc;
}

/* MPI_Allgather and MPI_Alltoall: `count` elements per rank on both sides. */
enum class Fixed { Allgather, Alltoall };

int fixed_impl(Fixed which, const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
               MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Side send, recv;
    int rc = check_comm(function, comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const auto n = static_cast<std::size_t>(c.peers());
    rc = check_in_place_inter(c, sbuf, "sendbuf");
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = check_fixed(c, sbuf, scount, stype, which == Fixed::Alltoall ? n : 1, "sendbuf", "sendcount", "sendtype",
                         &send);
    }
    rc = rc != MPI_SUCCESS ? rc : check_fixed(c, rbuf, rcount, rtype, n, "recvbuf", "recvcount", "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, send.data, rbuf, recv.data);
    if (rc == MPI_SUCCESS && which == Fixed::Allgather) {
        rc = check_apart_blocks(c, span_of(sbuf, send.count, send.type), true, rbuf, recv.type, recv.count, nullptr,
                                nullptr);
    } else if (rc == MPI_SUCCESS) {
        rc = check_apart(c, span_of(sbuf, n * send.count, send.type), span_of(rbuf, n * recv.count, recv.type));
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (which == Fixed::Allgather) {
        return dispatch(c, TESSERA_COLL_SLOTS(c, allgather), request, sbuf, send.count, to_c(send.type), rbuf,
                        recv.count, to_c(recv.type));
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, alltoall), request, sbuf, send.count, to_c(send.type), rbuf, recv.count,
                    to_c(recv.type));
}

int allgather_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                   MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    return fixed_impl(Fixed::Allgather, function, sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
}

int alltoall_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                  MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    return fixed_impl(Fixed::Alltoall, function, sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
}

template <typename Count, typename Disp>
int allgatherv_impl(const char *function, const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                    const Count *rcounts, const Disp *displs, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Side send, recv;
    int rc = check_comm(function, comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = check_in_place_inter(c, sbuf, "sendbuf");
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = check_fixed(c, sbuf, scount, stype, 1, "sendbuf", "sendcount", "sendtype", &send);
    }
    rc = rc != MPI_SUCCESS
             ? rc
             : check_vector(c, rbuf, rcounts, displs, rtype, "recvbuf", "recvcounts", "displs", "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, send.data, rbuf, recv.data);
    rc = rc != MPI_SUCCESS ? rc
                           : check_apart_blocks(c, span_of(sbuf, send.count, send.type), true, rbuf, recv.type, 0,
                                                &recv.counts, &recv.displs);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, allgatherv), request, sbuf, send.count, to_c(send.type), rbuf,
                    recv.counts.data(), recv.displs.data(), to_c(recv.type));
}

template <typename Count, typename Disp>
int alltoallv_impl(const char *function, const void *sbuf, const Count *scounts, const Disp *sdispls,
                   MPI_Datatype stype, void *rbuf, const Count *rcounts, const Disp *rdispls, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Side send, recv;
    int rc = check_comm(function, comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = check_in_place_inter(c, sbuf, "sendbuf");
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = check_vector(c, sbuf, scounts, sdispls, stype, "sendbuf", "sendcounts", "sdispls", "sendtype", &send);
    }
    rc = rc != MPI_SUCCESS
             ? rc
             : check_vector(c, rbuf, rcounts, rdispls, rtype, "recvbuf", "recvcounts", "rdispls", "recvtype", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, send.data, rbuf, recv.data);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const bool in_place = sbuf == MPI_IN_PLACE;
    return dispatch(c, TESSERA_COLL_SLOTS(c, alltoallv), request, sbuf, in_place ? nullptr : send.counts.data(),
                    in_place ? nullptr : send.displs.data(), to_c(send.type), rbuf, recv.counts.data(),
                    recv.displs.data(), to_c(recv.type));
}

template <typename Count, typename Disp>
int alltoallw_impl(const char *function, const void *sbuf, const Count *scounts, const Disp *sdispls,
                   const MPI_Datatype *stypes, void *rbuf, const Count *rcounts, const Disp *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Side send, recv;
    int rc = check_comm(function, comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = check_in_place_inter(c, sbuf, "sendbuf");
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = check_w(c, sbuf, scounts, sdispls, stypes, "sendcounts", "sdispls", "sendtypes", &send);
    }
    rc = rc != MPI_SUCCESS ? rc
                           : check_w(c, rbuf, rcounts, rdispls, rtypes, "recvcounts", "rdispls", "recvtypes", &recv);
    rc = rc != MPI_SUCCESS ? rc : check_not_in_place(c, rbuf, "recvbuf");
    rc = rc != MPI_SUCCESS ? rc : check_distinct(c, sbuf, send.data, rbuf, recv.data);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    const bool in_place = sbuf == MPI_IN_PLACE;
    return dispatch(c, TESSERA_COLL_SLOTS(c, alltoallw), request, sbuf, in_place ? nullptr : send.counts.data(),
                    in_place ? nullptr : send.displs.data(), in_place ? nullptr : send.types.data(), rbuf,
                    recv.counts.data(), recv.displs.data(), recv.types.data());
}

} // namespace

int barrier(MPI_Comm comm)
{
    return barrier_impl("MPI_Barrier", comm, nullptr);
}

int ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return barrier_impl("MPI_Ibarrier", comm, request);
}

int allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_impl("MPI_Allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}

int iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather_impl("MPI_Iallgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
}

int allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_impl("MPI_Allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm, nullptr);
}

int iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                  MPI_Request *request)
{
    return allgatherv_impl("MPI_Iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm, request);
}

int alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
               MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_impl("MPI_Alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}

int ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_impl("MPI_Ialltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                MPI_Comm comm)
{
    return alltoallv_impl("MPI_Alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm, nullptr);
}

int ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                 void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                 MPI_Comm comm, MPI_Request *request)
{
    return alltoallv_impl("MPI_Ialltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm, request);
}

int alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_impl("MPI_Alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm, nullptr);
}

int ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                 const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return alltoallw_impl("MPI_Ialltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm, request);
}

} // namespace tessera::ompi::native
