/* coll tuned: gather and scatter. */
#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

void gather_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                   std::size_t rcount, const Datatype *rtype, int root)
{
    const int n = s.size(), me = s.rank();
    if (me != root) {
        s.send(sbuf, scount, stype, root);
        return;
    }
    for (int i = 1; i < n; ++i) {
        const int p = absolute(i, root, n);
        s.recv(at(rbuf, static_cast<std::size_t>(p) * rcount, rtype), rcount, rtype, p);
    }
    if (sbuf != MPI_IN_PLACE) {
        s.copy(sbuf, scount, stype, at(rbuf, static_cast<std::size_t>(me) * rcount, rtype), rcount, rtype);
    }
}

/*
 * Binomial tree of ranks relative to root: each rank collects its subtree's blocks (relative ranks
 * v .. v + size - 1, in that order) and sends them to its parent in one message. Inner ranks collect in
 * scratch laid out as their send type (their receive arguments are not significant); the root collects
 * straight into recvbuf when it is rank 0, otherwise in scratch that it then rotates into place.
 */
void gather_binomial(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype, int root)
{
    const int n = s.size(), me = s.rank(), v = relative(me, root, n);
    const int span = low_bit(v, n), size = subtree_size(v, n);
    if (size == 1) {
        if (v != 0) {
            s.send(sbuf, scount, stype, absolute(v - span, root, n));
        } else if (sbuf != MPI_IN_PLACE) {
            s.copy(sbuf, scount, stype, rbuf, rcount, rtype);
        }
        return;
    }
    /* The collecting buffer, as (buffer, elements per block, type). */
    const bool at_root = v == 0;
    void *buf = at_root ? (root == 0 ? rbuf : s.scratch(static_cast<std::size_t>(n) * rcount, rtype))
                        : s.scratch(static_cast<std::size_t>(size) * scount, stype);
    const std::size_t per = at_root ? rcount : scount;
    const Datatype *type = at_root ? rtype : stype;
    if (sbuf != MPI_IN_PLACE) {
        s.copy(sbuf, scount, stype, buf, per, type);
    } else if (root != 0) {
        s.copy(at(rbuf, static_cast<std::size_t>(me) * rcount, rtype), rcount, rtype, buf, per, type);
    }
    for (int m = 1; m < span && v + m < n; m <<= 1) {
        const auto blocks = static_cast<std::size_t>(subtree_size(v + m, n));
        s.recv(at(buf, static_cast<std::size_t>(m) * per, type), blocks * per, type, absolute(v + m, root, n));
    }
    s.round();
    if (!at_root) {
        s.send(buf, static_cast<std::size_t>(size) * per, type, absolute(v - span, root, n));
    } else if (root != 0) {
        /* buf[i] is the block of rank root + i. */
        const auto head = static_cast<std::size_t>(n - root), tail = static_cast<std::size_t>(root);
        s.copy(buf, head * rcount, rtype, at(rbuf, tail * rcount, rtype), head * rcount, rtype);
        s.copy(at(buf, head * rcount, rtype), tail * rcount, rtype, rbuf, tail * rcount, rtype);
    }
}

void scatter_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype, int root)
{
    const int n = s.size(), me = s.rank();
    if (me != root) {
        s.recv(rbuf, rcount, rtype, root);
        return;
    }
    for (int i = 1; i < n; ++i) {
        const int p = absolute(i, root, n);
        s.send(at(sbuf, static_cast<std::size_t>(p) * scount, stype), scount, stype, p);
    }
    if (rbuf != MPI_IN_PLACE) {
        s.copy(at(sbuf, static_cast<std::size_t>(me) * scount, stype), scount, stype, rbuf, rcount, rtype);
    }
}

/* The gather's tree run backwards: each rank receives its subtree's blocks from its parent, keeps its
 * own and passes the children theirs. The root sends straight from sendbuf when it is rank 0, otherwise
 * from a copy rotated so that block i is the one for rank root + i. */
void scatter_binomial(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                      std::size_t rcount, const Datatype *rtype, int root)
{
    const int n = s.size(), me = s.rank(), v = relative(me, root, n);
    const int span = low_bit(v, n), size = subtree_size(v, n);
    if (size == 1) {
        if (v != 0) {
            s.recv(rbuf, rcount, rtype, absolute(v - span, root, n));
        } else if (rbuf != MPI_IN_PLACE) {
            s.copy(sbuf, scount, stype, rbuf, rcount, rtype);
        }
        return;
    }
    const bool at_root = v == 0;
    const std::size_t per = at_root ? scount : rcount;
    const Datatype *type = at_root ? stype : rtype;
    const void *buf = sbuf;
    if (!at_root) {
        void *into = s.scratch(static_cast<std::size_t>(size) * rcount, rtype);
        s.recv(into, static_cast<std::size_t>(size) * rcount, rtype, absolute(v - span, root, n));
        s.round();
        buf = into;
    } else if (root != 0) {
        void *rotated = s.scratch(static_cast<std::size_t>(n) * scount, stype);
        const auto head = static_cast<std::size_t>(n - root), tail = static_cast<std::size_t>(root);
        s.copy(at(sbuf, tail * scount, stype), head * scount, stype, rotated, head * scount, stype);
        s.copy(sbuf, tail * scount, stype, at(rotated, head * scount, stype), tail * scount, stype);
        buf = rotated;
    }
    for (int m = span >> 1; m > 0; m >>= 1) {
        if (v + m < n) {
            const auto blocks = static_cast<std::size_t>(subtree_size(v + m, n));
            s.send(at(buf, static_cast<std::size_t>(m) * per, type), blocks * per, type, absolute(v + m, root, n));
        }
    }
    if (rbuf != MPI_IN_PLACE) {
        s.copy(buf, per, type, rbuf, rcount, rtype);
    }
}

} // namespace tessera::ompi::coll_tuned
