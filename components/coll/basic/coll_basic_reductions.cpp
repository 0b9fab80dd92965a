/* coll basic: the reductions built from the rooted ones (reduce to rank 0, then bcast or scatter), and
 * the prefix reductions, passed along the ranks in order. */
#include "components/coll/basic/coll_basic.h"

#include <vector>

namespace tessera::ompi::coll_basic {

/* Reduce to rank 0, then broadcast. In place, a rank's operand is in recvbuf, which the broadcast
 * overwrites only in the next round, once the operand has left. */
void allreduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    const void *operand = sbuf == MPI_IN_PLACE && s.rank() != 0 ? rbuf : sbuf;
    reduce(s, operand, rbuf, count, type, op, 0);
    s.round();
    bcast(s, rbuf, count, type, 0);
}

/* Reduce the whole vector to rank 0 (in place: the vector is in recvbuf), then scatter its blocks. */
void reduce_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                    const Op *op)
{
    const auto n = static_cast<std::size_t>(s.size());
    std::vector<std::ptrdiff_t> displs(n);
    std::size_t total = 0;
    for (std::size_t p = 0; p < n; ++p) {
        displs[p] = static_cast<std::ptrdiff_t>(total);
        total += rcounts[p];
    }
    const void *operand = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    void *result = s.rank() == 0 ? s.scratch(total, type) : nullptr;
    reduce(s, operand, result, total, type, op, 0);
    s.round();
    scatterv(s, result, rcounts, displs.data(), type, rbuf, rcounts[static_cast<std::size_t>(s.rank())], type, 0);
}

void reduce_scatter_block(Schedule &s, const void *sbuf, void *rbuf, std::size_t rcount, const Datatype *type,
                          const Op *op)
{
    reduce_scatter(s, sbuf, rbuf, uniform_blocks(s, rcount).counts.data(), type, op);
}

/* Rank r receives a0 op ... op a(r-1) from r-1, computes that op a(r) into recvbuf and passes it on. */
void scan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    if (sbuf != MPI_IN_PLACE) {
        s.copy(sbuf, count, type, rbuf, count, type);
    }
    if (s.rank() > 0) {
        void *prefix = s.scratch(count, type);
        s.recv(prefix, count, type, s.rank() - 1);
        s.round();
        s.reduce(prefix, rbuf, count, type, op);
    }
    if (s.rank() < s.size() - 1) {
        s.send(rbuf, count, type, s.rank() + 1);
    }
}

/* Rank r receives a0 op ... op a(r-1) from r-1 into recvbuf (rank 0's stays undefined, MPI-4.1 6.11.2)
 * and passes that op a(r) on. */
void exscan(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op)
{
    const int me = s.rank(), last = s.size() - 1;
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (me == 0) {
        if (last > 0) {
            s.send(own, count, type, 1);
        }
        return;
    }
    if (sbuf == MPI_IN_PLACE && me < last) {
        void *saved = s.scratch(count, type);
        s.copy(rbuf, count, type, saved, count, type);
        own = saved;
    }
    s.recv(rbuf, count, type, me - 1);
    if (me < last) {
        void *next = s.scratch(count, type);
        s.round();
        s.copy(own, count, type, next, count, type);
        s.reduce(rbuf, next, count, type, op);
        s.send(next, count, type, me + 1);
    }
}

} // namespace tessera::ompi::coll_basic
