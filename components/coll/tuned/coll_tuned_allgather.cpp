/* coll tuned: allgather and allgatherv. */
#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

namespace {

/* The rank's own block into its place in recvbuf (already there in place). */
void own_block(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *slot,
               std::size_t rcount, const Datatype *rtype)
{
    if (sbuf != MPI_IN_PLACE) {
        s.copy(sbuf, scount, stype, slot, rcount, rtype);
    }
}

} // namespace

void allgather_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                      std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    void *mine = at(rbuf, static_cast<std::size_t>(me) * rcount, rtype);
    own_block(s, sbuf, scount, stype, mine, rcount, rtype);
    for (int i = 1; i < n; ++i) {
        const int from = (me - i + n) % n;
        s.recv(at(rbuf, static_cast<std::size_t>(from) * rcount, rtype), rcount, rtype, from);
    }
    for (int i = 1; i < n; ++i) {
        s.send(mine, rcount, rtype, (me + i) % n);
    }
}

/*
 * Bruck: in step k every rank sends the blocks it holds (at most 2^k) to rank - 2^k and receives as
 * many from rank + 2^k, so that after ceil(log2 n) steps its buffer holds the blocks of ranks
 * me, me + 1, ... in that order; a rotation puts them in place. Rank 0 needs no rotation and gathers
 * straight into recvbuf.
 */
void allgather_bruck(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const auto un = static_cast<std::size_t>(n), ume = static_cast<std::size_t>(me);
    void *mine = at(rbuf, ume * rcount, rtype);
    void *tmp = me == 0 ? rbuf : s.scratch(un * rcount, rtype);
    if (me == 0) {
        own_block(s, sbuf, scount, stype, rbuf, rcount, rtype);
    } else if (sbuf == MPI_IN_PLACE) {
        s.copy(mine, rcount, rtype, tmp, rcount, rtype);
    } else {
        s.copy(sbuf, scount, stype, tmp, rcount, rtype);
    }
    for (int dist = 1; dist < n; dist <<= 1) {
        const auto blocks = static_cast<std::size_t>(std::min(dist, n - dist));
        s.recv(at(tmp, static_cast<std::size_t>(dist) * rcount, rtype), blocks * rcount, rtype, (me + dist) % n);
        s.send(tmp, blocks * rcount, rtype, (me - dist + n) % n);
        s.round();
    }
    if (me != 0) {
        /* tmp[i] is the block of rank me + i. */
        const std::size_t head = un - ume;
        s.copy(tmp, head * rcount, rtype, mine, head * rcount, rtype);
        s.copy(at(tmp, head * rcount, rtype), ume * rcount, rtype, rbuf, ume * rcount, rtype);
    }
}

/* Power-of-two sizes: in step k partners 2^k apart exchange the 2^k blocks each holds, in place in
 * recvbuf. */
void allgather_recursive_doubling(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype,
                                  void *rbuf, std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    if (floor_pow2(n) != n) {
        allgather_bruck(s, sbuf, scount, stype, rbuf, rcount, rtype);
        return;
    }
    own_block(s, sbuf, scount, stype, at(rbuf, static_cast<std::size_t>(me) * rcount, rtype), rcount, rtype);
    for (int mask = 1; mask < n; mask <<= 1) {
        const auto base = static_cast<std::size_t>(me & ~(mask - 1)), other = base ^ static_cast<std::size_t>(mask);
        const std::size_t len = static_cast<std::size_t>(mask) * rcount;
        s.recv(at(rbuf, other * rcount, rtype), len, rtype, me ^ mask);
        s.send(at(rbuf, base * rcount, rtype), len, rtype, me ^ mask);
        s.round();
    }
}

void allgather_ring(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size();
    std::vector<std::size_t> counts(static_cast<std::size_t>(n), rcount);
    std::vector<std::ptrdiff_t> displs(static_cast<std::size_t>(n));
    for (std::size_t p = 0; p < displs.size(); ++p) {
        displs[p] = static_cast<std::ptrdiff_t>(p * rcount);
    }
    allgatherv_ring(s, sbuf, scount, stype, rbuf, counts.data(), displs.data(), rtype);
}

void allgatherv_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                       const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const auto slot = [&](int p) { return static_cast<char *>(rbuf) + displs[p] * rtype->extent; };
    own_block(s, sbuf, scount, stype, slot(me), rcounts[me], rtype);
    for (int i = 1; i < n; ++i) {
        const int from = (me - i + n) % n;
        s.recv(slot(from), rcounts[from], rtype, from);
    }
    for (int i = 1; i < n; ++i) {
        s.send(slot(me), rcounts[me], rtype, (me + i) % n);
    }
}

/* In step k rank r passes block r - k to r + 1 and receives block r - k - 1 from r - 1. */
void allgatherv_ring(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const auto slot = [&](int p) { return static_cast<char *>(rbuf) + displs[p] * rtype->extent; };
    own_block(s, sbuf, scount, stype, slot(me), rcounts[me], rtype);
    const int left = (me - 1 + n) % n, right = (me + 1) % n;
    for (int k = 0; k < n - 1; ++k) {
        const int out = (me - k + n) % n, in = (me - k - 1 + n) % n;
        s.recv(slot(in), rcounts[in], rtype, left);
        s.send(slot(out), rcounts[out], rtype, right);
        s.round();
    }
}

} // namespace tessera::ompi::coll_tuned
