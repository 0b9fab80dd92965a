/* MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan and their non-blocking
 * and MPI_Count forms (MPI-4.1 6.9-6.11). Every one checks that its op is defined on its datatype. The
 * int-count forms are generated from the MPI_Count ones (ompi/api/gen_native.py). */
#include "ompi/coll/coll_checks.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

using namespace coll;

namespace {

/* The datatype and op of a reduction, and the send buffer of `send_count` elements unless in place. */
struct Reduction {
    const Datatype *type = nullptr;
    const Op *op = nullptr;
};

int check_reduction(const Call &c, MPI_Datatype datatype, MPI_Op op, const void *sbuf, std::size_t send_count,
                    Reduction *out)
{
    int rc = check_type(c, datatype, "datatype", &out->type);
    rc = rc != MPI_SUCCESS ? rc : check_op(c, op, out->type, &out->op);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = check_buffer(c, sbuf, send_count, out->type, "sendbuf");
    }
    return rc;
}

/* The receive buffer of `count` elements, apart from the send buffer. */
int check_result(const Call &c, const Reduction &r, const void *sbuf, std::size_t send_count, void *rbuf,
                 std::size_t count)
{
    int rc = check_buffer(c, rbuf, count, r.type, "recvbuf");
    rc = rc != MPI_SUCCESS ? rc
                           : check_distinct(c, sbuf, send_count * r.type->size > 0, rbuf, count * r.type->size > 0);
    return rc != MPI_SUCCESS ? rc : check_apart(c, span_of(sbuf, send_count, r.type), span_of(rbuf, count, r.type));
}

int reduce_impl(const char *function, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Reduction r;
    const auto n = static_cast<std::size_t>(count);
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS ? rc : check_root(c, root);
    rc = rc != MPI_SUCCESS ? rc : check_in_place_at_root(c, sbuf, c.is_root(root), "sendbuf");
    if (rc == MPI_SUCCESS && (c.is_root(root) || c.is_member(root))) {
        /* The root of an intercommunicator gives no operand. */
        rc = check_reduction(c, datatype, op, c.is_member(root) ? sbuf : MPI_IN_PLACE, n, &r);
    }
    if (rc == MPI_SUCCESS && c.is_root(root)) {
        rc = check_result(c, r, c.is_member(root) ? sbuf : nullptr, c.is_member(root) ? n : 0, rbuf, n);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, reduce), request, sbuf, rbuf, n, to_c(r.type), to_c(r.op), root);
}

/* MPI_Allreduce, MPI_Scan and MPI_Exscan: the same arguments, MPI_IN_PLACE allowed everywhere. */
enum class Everyone { Allreduce, Scan, Exscan };

int everyone_impl(Everyone which, const char *function, const void *sbuf, void *rbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Reduction r;
    const auto n = static_cast<std::size_t>(count);
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS || which == Everyone::Allreduce ? rc : check_intra(c);
    rc = rc != MPI_SUCCESS ? rc : check_in_place_inter(c, sbuf, "sendbuf");
    rc = rc != MPI_SUCCESS ? rc : check_reduction(c, datatype, op, sbuf, n, &r);
    rc = rc != MPI_SUCCESS ? rc : check_result(c, r, sbuf, n, rbuf, n);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    switch (which) {
    case Everyone::Allreduce:
        return dispatch(c, TESSERA_COLL_SLOTS(c, allreduce), request, sbuf, rbuf, n, to_c(r.type), to_c(r.op));
    case Everyone::Scan:
        return dispatch(c, TESSERA_COLL_SLOTS(c, scan), request, sbuf, rbuf, n, to_c(r.type), to_c(r.op));
    case Everyone::Exscan:
        break;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, exscan), request, sbuf, rbuf, n, to_c(r.type), to_c(r.op));
}

int allreduce_impl(const char *function, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return everyone_impl(Everyone::Allreduce, function, sbuf, rbuf, count, datatype, op, comm, request);
}

int scan_impl(const char *function, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    return everyone_impl(Everyone::Scan, function, sbuf, rbuf, count, datatype, op, comm, request);
}

int exscan_impl(const char *function, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    return everyone_impl(Everyone::Exscan, function, sbuf, rbuf, count, datatype, op, comm, request);
}

template <typename Count>
int reduce_scatter_impl(const char *function, const void *sbuf, void *rbuf, const Count *rcounts, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Reduction r;
    std::vector<std::size_t> counts;
    std::size_t total = 0;
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS ? rc : check_in_place_inter(c, sbuf, "sendbuf");
    /* One count per rank of the (local) group: on an intercommunicator the remote group's result is
     * scattered over the local one (MPI-4.1 6.10.1). */
    rc = rc != MPI_SUCCESS ? rc : check_counts(c, rcounts, "recvcounts", &counts, &total, c.size());
    rc = rc != MPI_SUCCESS ? rc : check_reduction(c, datatype, op, sbuf, total, &r);
    rc = rc != MPI_SUCCESS ? rc : check_result(c, r, sbuf, total, rbuf, counts[static_cast<std::size_t>(c.rank())]);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, reduce_scatter), request, sbuf, rbuf,
                    static_cast<const std::size_t *>(counts.data()), to_c(r.type), to_c(r.op));
}

int reduce_scatter_block_impl(const char *function, const void *sbuf, void *rbuf, MPI_Count rcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    Call c;
    Reduction r;
    const auto n = static_cast<std::size_t>(rcount);
    int rc = check_comm(function, comm, &c);
    rc = rc != MPI_SUCCESS ? rc : check_in_place_inter(c, sbuf, "sendbuf");
    rc = rc != MPI_SUCCESS ? rc : check_reduction(c, datatype, op, sbuf, n * static_cast<std::size_t>(c.size()), &r);
    rc = rc != MPI_SUCCESS ? rc : check_result(c, r, sbuf, n * static_cast<std::size_t>(c.size()), rbuf, n);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return dispatch(c, TESSERA_COLL_SLOTS(c, reduce_scatter_block), request, sbuf, rbuf, n, to_c(r.type), to_c(r.op));
}

} // namespace

int reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
             MPI_Comm comm)
{
    return reduce_impl("MPI_Reduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, nullptr);
}

int ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
              MPI_Comm comm, MPI_Request *request)
{
    return reduce_impl("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_impl("MPI_Allreduce_c", sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return allreduce_impl("MPI_Iallreduce_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return reduce_scatter_impl("MPI_Reduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr);
}

int ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_impl("MPI_Ireduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm)
{
    return reduce_scatter_block_impl("MPI_Reduce_scatter_block_c", sendbuf, recvbuf, recvcount, datatype, op, comm,
                                     nullptr);
}

int ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_block_impl("MPI_Ireduce_scatter_block_c", sendbuf, recvbuf, recvcount, datatype, op, comm,
                                     request);
}

int scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_impl("MPI_Scan_c", sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            MPI_Request *request)
{
    return scan_impl("MPI_Iscan_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return exscan_impl("MPI_Exscan_c", sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request)
{
    return exscan_impl("MPI_Iexscan_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

} // namespace tessera::ompi::native
