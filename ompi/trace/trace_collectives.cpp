/*
 * The feed's collectives (trace_feed.h): begin before the call, end after it with the bytes this rank
 * contributes and receives, as the buffer arguments significant at this rank describe them — the
 * data the operation reads from its send buffer and writes into its receive buffer, once, not once per
 * peer (a bcast root sends count elements, a scatter root its whole buffer). With MPI_IN_PLACE the part
 * of the receive buffer that stands for the send buffer counts as sent. A nonblocking collective is
 * reported whole when it starts, a persistent one at each MPI_Start.
 */
#include "frameworks/trace/base/base.h"
#include "ompi/trace/trace_comms.h"
#include "ompi/trace/trace_feed.h"
#include "ompi/trace/trace_queries.h"
#include "ompi/trace/trace_requests.h"

using namespace tessera::ompi::trace;

namespace {

struct Bytes {
    uint64_t sent = 0;
    uint64_t received = 0;
};

/* One side of the arguments: a count or per-block counts, a datatype or per-block datatypes. */
struct Side {
    MPI_Count count;
    const int *counts;
    const MPI_Count *counts_c;
    MPI_Datatype type;
    const MPI_Datatype *types;

    MPI_Count count_at(int i) const
    {
        return counts != nullptr ? counts[i] : counts_c != nullptr ? counts_c[i] : count;
    }
    uint64_t block(int i) const { return type_bytes(count_at(i), types != nullptr ? types[i] : type); }
    /* Blocks [0, n). */
    uint64_t blocks(int n) const
    {
        uint64_t total = 0;
        for (int i = 0; i < n; ++i) {
            total += block(i);
        }
        return total;
    }
    /* n blocks of `count` elements (the non-v forms). */
    uint64_t uniform(int n) const { return static_cast<uint64_t>(n) * type_bytes(count, type); }
};

Bytes count_bytes(const tessera_trace_coll_args_t &a)
{
    const Side send{a.sendcount, a.sendcounts, a.sendcounts_c, a.sendtype, a.sendtypes};
    const Side recv{a.recvcount, a.recvcounts, a.recvcounts_c, a.recvtype, a.recvtypes};
    const CollGroup g = coll_group(a.comm);
    int n = g.size; /* blocks to send and to receive */
    int n_in = g.size;
    if (a.neighbor != 0) {
        neighbor_counts(a.comm, g.rank, &n_in, &n);
    }
    const bool in_place = a.sendbuf == MPI_IN_PLACE;
    /* Rooted operations: on an intercommunicator the root group passes MPI_ROOT (or MPI_PROC_NULL),
     * the other group the root's rank. */
    const bool is_root = g.inter ? a.root == MPI_ROOT : a.root == g.rank;
    const bool rooted_peer = g.inter ? a.root >= 0 : true;
    Bytes b;
    switch (a.op) {
    case MCA_TRACE_COLL_BARRIER:
        break;
    case MCA_TRACE_COLL_BCAST:
        (is_root ? b.sent : b.received) = rooted_peer || is_root ? send.uniform(1) : 0;
        break;
    case MCA_TRACE_COLL_GATHER:
    case MCA_TRACE_COLL_GATHERV: {
        const bool v = a.op == MCA_TRACE_COLL_GATHERV;
        if (is_root) {
            b.received = v ? recv.blocks(n) : recv.uniform(n);
            b.sent = g.inter ? 0 : in_place ? (v ? recv.block(g.rank) : recv.uniform(1)) : send.uniform(1);
        } else if (rooted_peer) {
            b.sent = send.uniform(1);
        }
        break;
    }
    case MCA_TRACE_COLL_SCATTER:
    case MCA_TRACE_COLL_SCATTERV: {
        const bool v = a.op == MCA_TRACE_COLL_SCATTERV;
        if (is_root) {
            b.sent = v ? send.blocks(n) : send.uniform(n);
            b.received = g.inter ? 0 : a.recvbuf == MPI_IN_PLACE ? (v ? send.block(g.rank) : send.uniform(1))
                                                                    : recv.uniform(1);
        } else if (rooted_peer) {
            b.received = recv.uniform(1);
        }
        break;
    }
    case MCA_TRACE_COLL_ALLGATHER:
        b.received = recv.uniform(n_in);
        b.sent = in_place ? recv.uniform(1) : send.uniform(1);
        break;
    case MCA_TRACE_COLL_ALLGATHERV:
        b.received = recv.blocks(n_in);
        b.sent = in_place ? recv.block(g.rank) : send.uniform(1);
        break;
    case MCA_TRACE_COLL_ALLTOALL:
        b.received = recv.uniform(n_in);
        b.sent = in_place ? b.received : send.uniform(n);
        break;
    case MCA_TRACE_COLL_ALLTOALLV:
    case MCA_TRACE_COLL_ALLTOALLW:
        b.received = recv.blocks(n_in);
        b.sent = in_place ? b.received : send.blocks(n);
        break;
    case MCA_TRACE_COLL_ALLREDUCE:
    case MCA_TRACE_COLL_SCAN:
    case MCA_TRACE_COLL_EXSCAN:
        b.sent = b.received = recv.uniform(1);
        break;
    case MCA_TRACE_COLL_REDUCE:
        b.sent = (g.inter && is_root) || (g.inter && !rooted_peer) ? 0 : send.uniform(1);
        b.received = is_root ? recv.uniform(1) : 0;
        break;
    case MCA_TRACE_COLL_REDUCE_SCATTER:
        b.sent = recv.blocks(n);
        b.received = recv.block(g.rank);
        break;
    case MCA_TRACE_COLL_REDUCE_SCATTER_BLOCK:
        b.sent = recv.uniform(n);
        b.received = recv.uniform(1);
        break;
    default:
        break;
    }
    return b;
}

/* The root as a rank of the communicator, -1 for none (an intercommunicator's root group passes
 * MPI_ROOT: the root is this process, which has no rank in the remote group the events use). */
int trace_root(const tessera_trace_coll_args_t &a)
{
    return a.root >= 0 ? a.root : -1;
}

} // namespace

extern "C" {

void tessera_trace_coll_begin(void)
{
    if (wants(MCA_TRACE_HOOK_COLLECTIVE)) {
        mca_trace_collective_begin();
    }
}

void tessera_trace_coll_end(const tessera_trace_coll_args_t *args, int rc)
{
    if (!wants(MCA_TRACE_HOOK_COLLECTIVE)) {
        return;
    }
    /* A collective that failed moved nothing that can be trusted; the begin still needs its end. */
    const Bytes b = rc == MPI_SUCCESS ? count_bytes(*args) : Bytes{};
    mca_trace_collective_end(static_cast<mca_trace_base_collective_t>(args->op), comms().id_of(args->comm),
                             trace_root(*args), b.sent, b.received);
}

void tessera_trace_op_coll(tessera_trace_op_t *op, const tessera_trace_coll_args_t *args)
{
    if (!wants(MCA_TRACE_HOOK_COLLECTIVE)) {
        return;
    }
    const Bytes b = count_bytes(*args);
    op->parts = TESSERA_TRACE_OP_COLL | TESSERA_TRACE_OP_PERSISTENT;
    op->comm = comms().id_of(args->comm);
    op->coll_op = args->op;
    op->coll_root = trace_root(*args);
    op->coll_sent = b.sent;
    op->coll_received = b.received;
}

} // extern "C"
