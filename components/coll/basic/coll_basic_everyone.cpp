/* coll basic: barrier, and the collectives where every rank sends to every other directly. */
#include "components/coll/basic/coll_basic.h"

#include <vector>

namespace tessera::ompi::coll_basic {

namespace {

const Datatype *byte_type()
{
    return datatype_lookup(MPI_BYTE);
}

} // namespace

void barrier_fan_in(Schedule &s)
{
    if (s.rank() != 0) {
        s.send(nullptr, 0, byte_type(), 0);
        return;
    }
    for (int peer = 1; peer < s.size(); ++peer) {
        s.recv(nullptr, 0, byte_type(), peer);
    }
}

void barrier_fan_out(Schedule &s)
{
    if (s.rank() != 0) {
        s.recv(nullptr, 0, byte_type(), 0);
        return;
    }
    for (int peer = 1; peer < s.size(); ++peer) {
        s.send(nullptr, 0, byte_type(), peer);
    }
}

/* Everyone tells rank 0 it has arrived; rank 0 then lets everyone go. */
void barrier(Schedule &s)
{
    barrier_fan_in(s);
    s.round();
    barrier_fan_out(s);
}

void allgatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    const auto me = static_cast<std::size_t>(s.rank());
    char *mine = element(rbuf, displs[me], rtype);
    if (sbuf == MPI_IN_PLACE) {
        /* This rank's contribution is already in its place in recvbuf. */
        sbuf = mine;
        scount = rcounts[me];
        stype = rtype;
    } else {
        s.copy(sbuf, scount, stype, mine, rcounts[me], rtype);
    }
    for (int peer = 0; peer < s.size(); ++peer) {
        const auto p = static_cast<std::size_t>(peer);
        if (p != me) {
            s.send(sbuf, scount, stype, peer);
            s.recv(element(rbuf, displs[p], rtype), rcounts[p], rtype, peer);
        }
    }
}

void allgather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
               std::size_t rcount, const Datatype *rtype)
{
    const Blocks b = uniform_blocks(s, rcount);
    allgatherv(s, sbuf, scount, stype, rbuf, b.counts.data(), b.displs.data(), rtype);
}

/*
 * The general exchange, MPI_Alltoallw's: block p of the send side (byte displacement, count, type)
 * goes to rank p, block p of the receive side comes from it. In place, the blocks to send are first
 * copied out of recvbuf into scratch memory, since the receives overwrite them.
 */
void alltoallw(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const mca_coll_dt_t *rtypes)
{
    const auto n = static_cast<std::size_t>(s.size());
    const auto me = static_cast<std::size_t>(s.rank());
    auto *recv_base = static_cast<char *>(rbuf);
    std::vector<const void *> blocks(n);
    std::vector<std::size_t> counts(n);
    std::vector<const Datatype *> types(n);
    for (std::size_t p = 0; p < n; ++p) {
        if (sbuf != MPI_IN_PLACE) {
            blocks[p] = static_cast<const char *>(sbuf) + sdispls[p];
            counts[p] = scounts[p];
            types[p] = coll::of(stypes[p]);
        } else if (p != me) {
            const Datatype *type = coll::of(rtypes[p]);
            void *saved = s.scratch(rcounts[p], type);
            s.copy(recv_base + rdispls[p], rcounts[p], type, saved, rcounts[p], type);
            blocks[p] = saved;
            counts[p] = rcounts[p];
            types[p] = type;
        }
    }
    for (std::size_t p = 0; p < n; ++p) {
        const Datatype *rtype = coll::of(rtypes[p]);
        if (p == me) {
            if (sbuf != MPI_IN_PLACE) {
                s.copy(blocks[p], counts[p], types[p], recv_base + rdispls[p], rcounts[p], rtype);
            }
            continue;
        }
        s.send(blocks[p], counts[p], types[p], static_cast<int>(p));
        s.recv(recv_base + rdispls[p], rcounts[p], rtype, static_cast<int>(p));
    }
}

void alltoallv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *sdispls,
               const Datatype *stype, void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *rdispls,
               const Datatype *rtype)
{
    /* The same exchange with one datatype per side and displacements in its extents. */
    const auto n = static_cast<std::size_t>(s.size());
    std::vector<std::ptrdiff_t> sbytes(n), rbytes(n);
    std::vector<mca_coll_dt_t> stypes(n, coll::to_c(stype)), rtypes(n, coll::to_c(rtype));
    for (std::size_t p = 0; p < n; ++p) {
        sbytes[p] = sbuf != MPI_IN_PLACE ? sdispls[p] * stype->extent : 0;
        rbytes[p] = rdispls[p] * rtype->extent;
    }
    alltoallw(s, sbuf, scounts, sbytes.data(), stypes.data(), rbuf, rcounts, rbytes.data(), rtypes.data());
}

void alltoall(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype)
{
    const Blocks send = uniform_blocks(s, scount), recv = uniform_blocks(s, rcount);
    alltoallv(s, sbuf, send.counts.data(), send.displs.data(), stype, rbuf, recv.counts.data(), recv.displs.data(),
              rtype);
}

} // namespace tessera::ompi::coll_basic
