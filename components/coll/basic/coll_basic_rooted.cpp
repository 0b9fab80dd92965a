/* coll basic: the rooted collectives — the root sends to or receives from every other rank directly. */
#include "components/coll/basic/coll_basic.h"

namespace tessera::ompi::coll_basic {

void bcast(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    if (s.rank() != root) {
        s.recv(buf, count, type, root);
        return;
    }
    for (int peer = 0; peer < s.size(); ++peer) {
        if (peer != root) {
            s.send(buf, count, type, peer);
        }
    }
}

void gatherv(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype, int root)
{
    if (s.rank() != root) {
        s.send(sbuf, scount, stype, root);
        return;
    }
    for (int peer = 0; peer < s.size(); ++peer) {
        const auto p = static_cast<std::size_t>(peer);
        char *slot = element(rbuf, displs[p], rtype);
        if (peer != root) {
            s.recv(slot, rcounts[p], rtype, peer);
        } else if (sbuf != MPI_IN_PLACE) {
            s.copy(sbuf, scount, stype, slot, rcounts[p], rtype);
        }
    }
}

Blocks uniform_blocks(const Schedule &s, std::size_t count)
{
    const auto n = static_cast<std::size_t>(s.size());
    Blocks b{std::vector<std::size_t>(n, count), std::vector<std::ptrdiff_t>(n)};
    for (std::size_t p = 0; p < n; ++p) {
        b.displs[p] = static_cast<std::ptrdiff_t>(p * count);
    }
    return b;
}

void gather(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
            std::size_t rcount, const Datatype *rtype, int root)
{
    const Blocks b = uniform_blocks(s, rcount);
    gatherv(s, sbuf, scount, stype, rbuf, b.counts.data(), b.displs.data(), rtype, root);
}

void scatterv(Schedule &s, const void *sbuf, const std::size_t *scounts, const std::ptrdiff_t *displs,
              const Datatype *stype, void *rbuf, std::size_t rcount, const Datatype *rtype, int root)
{
    if (s.rank() != root) {
        s.recv(rbuf, rcount, rtype, root);
        return;
    }
    for (int peer = 0; peer < s.size(); ++peer) {
        const auto p = static_cast<std::size_t>(peer);
        const char *slot = element(sbuf, displs[p], stype);
        if (peer != root) {
            s.send(slot, scounts[p], stype, peer);
        } else if (rbuf != MPI_IN_PLACE) {
            s.copy(slot, scounts[p], stype, rbuf, rcount, rtype);
        }
    }
}

void scatter(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
             std::size_t rcount, const Datatype *rtype, int root)
{
    const Blocks b = uniform_blocks(s, scount);
    scatterv(s, sbuf, b.counts.data(), b.displs.data(), stype, rbuf, rcount, rtype, root);
}

/*
 * The root folds the operands from the last rank down to the first, one receive at a time:
 * acc = a(n-1), then acc = a(i) op acc for i = n-2 .. 0, so that the result is a0 op (a1 op (...)) in
 * rank order whatever the op. The accumulator is recvbuf; with MPI_IN_PLACE the root's own operand is
 * saved first, since recvbuf is overwritten before its turn comes.
 */
void reduce(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, const Op *op,
            int root)
{
    const int n = s.size();
    if (s.rank() != root) {
        s.send(sbuf, count, type, root);
        return;
    }
    const void *own = sbuf;
    if (sbuf == MPI_IN_PLACE) {
        own = rbuf;
        if (root != n - 1) {
            void *saved = s.scratch(count, type);
            s.copy(rbuf, count, type, saved, count, type);
            own = saved;
        }
    }
    if (root == n - 1) {
        if (own != rbuf) {
            s.copy(own, count, type, rbuf, count, type);
        }
    } else {
        s.recv(rbuf, count, type, n - 1);
    }
    void *operand = n > 1 ? s.scratch(count, type) : nullptr;
    for (int peer = n - 2; peer >= 0; --peer) {
        if (peer == root) {
            s.round();
            s.reduce(own, rbuf, count, type, op);
        } else {
            s.recv(operand, count, type, peer);
            s.round();
            s.reduce(operand, rbuf, count, type, op);
        }
    }
}

} // namespace tessera::ompi::coll_basic
