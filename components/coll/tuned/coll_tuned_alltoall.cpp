/* coll tuned: alltoall. */
#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

namespace {

/* The send side as (buffer, count, type): in place, the blocks to send are copied out of recvbuf into
 * scratch memory first, since the receives overwrite them. */
struct Source {
    const void *buf;
    std::size_t count;
    const Datatype *type;
};

Source source(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
              std::size_t rcount, const Datatype *rtype)
{
    if (sbuf != MPI_IN_PLACE) {
        return {sbuf, scount, stype};
    }
    const std::size_t all = static_cast<std::size_t>(s.size()) * rcount;
    void *saved = s.scratch(all, rtype);
    s.copy(rbuf, all, rtype, saved, all, rtype);
    return {saved, rcount, rtype};
}

} // namespace

/* Every exchange started at once, nearest ranks first. */
void alltoall_linear(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                     std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const Source src = source(s, sbuf, scount, stype, rbuf, rcount, rtype);
    const auto block = [&](int p) { return at(src.buf, static_cast<std::size_t>(p) * src.count, src.type); };
    for (int i = 1; i < n; ++i) {
        const int from = (me - i + n) % n;
        s.recv(at(rbuf, static_cast<std::size_t>(from) * rcount, rtype), rcount, rtype, from);
    }
    for (int i = 1; i < n; ++i) {
        const int to = (me + i) % n;
        s.send(block(to), src.count, src.type, to);
    }
    s.copy(block(me), src.count, src.type, at(rbuf, static_cast<std::size_t>(me) * rcount, rtype), rcount, rtype);
}

/* n - 1 steps; in step k a rank sends to rank + k and receives from rank - k: one exchange in flight
 * per rank, for large blocks. */
void alltoall_pairwise(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                       std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const Source src = source(s, sbuf, scount, stype, rbuf, rcount, rtype);
    s.copy(at(src.buf, static_cast<std::size_t>(me) * src.count, src.type), src.count, src.type,
           at(rbuf, static_cast<std::size_t>(me) * rcount, rtype), rcount, rtype);
    for (int k = 1; k < n; ++k) {
        const int to = (me + k) % n, from = (me - k + n) % n;
        s.recv(at(rbuf, static_cast<std::size_t>(from) * rcount, rtype), rcount, rtype, from);
        s.send(at(src.buf, static_cast<std::size_t>(to) * src.count, src.type), src.count, src.type, to);
        s.round();
    }
}

/*
 * Bruck: the blocks rotated so that block i is the one for rank me + i; in step k every block whose
 * index has bit k set moves to rank me + 2^k (packed into one message, unpacked into the same slots on
 * arrival); after ceil(log2 n) steps slot i holds the block from rank me - i, and an inverse rotation
 * puts each in place. log2 n messages of about n/2 blocks each: for small blocks.
 */
void alltoall_bruck(Schedule &s, const void *sbuf, std::size_t scount, const Datatype *stype, void *rbuf,
                    std::size_t rcount, const Datatype *rtype)
{
    const int n = s.size(), me = s.rank();
    const auto un = static_cast<std::size_t>(n);
    const bool in_place = sbuf == MPI_IN_PLACE;
    const void *from = in_place ? rbuf : sbuf;
    const std::size_t fcount = in_place ? rcount : scount;
    const Datatype *ftype = in_place ? rtype : stype;
    void *slots = s.scratch(un * rcount, rtype);
    for (int i = 0; i < n; ++i) {
        s.copy(at(from, static_cast<std::size_t>((me + i) % n) * fcount, ftype), fcount, ftype,
               at(slots, static_cast<std::size_t>(i) * rcount, rtype), rcount, rtype);
    }
    void *packed = s.scratch((un / 2 + 1) * rcount, rtype);
    void *arriving = s.scratch((un / 2 + 1) * rcount, rtype);
    std::vector<std::size_t> moving;
    for (int dist = 1; dist < n; dist <<= 1) {
        moving.clear();
        for (int i = 1; i < n; ++i) {
            if ((i & dist) != 0) {
                moving.push_back(static_cast<std::size_t>(i));
            }
        }
        for (std::size_t j = 0; j < moving.size(); ++j) {
            s.copy(at(slots, moving[j] * rcount, rtype), rcount, rtype, at(packed, j * rcount, rtype), rcount, rtype);
        }
        const std::size_t len = moving.size() * rcount;
        s.recv(arriving, len, rtype, (me - dist + n) % n);
        s.send(packed, len, rtype, (me + dist) % n);
        s.round();
        for (std::size_t j = 0; j < moving.size(); ++j) {
            s.copy(at(arriving, j * rcount, rtype), rcount, rtype, at(slots, moving[j] * rcount, rtype), rcount,
                   rtype);
        }
    }
    for (int i = 0; i < n; ++i) {
        s.copy(at(slots, static_cast<std::size_t>(i) * rcount, rtype), rcount, rtype,
               at(rbuf, static_cast<std::size_t>((me - i + n) % n) * rcount, rtype), rcount, rtype);
    }
}

} // namespace tessera::ompi::coll_tuned
