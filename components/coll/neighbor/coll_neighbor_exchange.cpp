/* coll neighbor: the schedules. Every form is the general one (alltoallw's: a count, a byte
 * displacement and a datatype per block) with the blocks laid out as its arguments say. */
#include "components/coll/neighbor/coll_neighbor.h"

#include <vector>

namespace tessera::ompi::coll_neighbor {

namespace {

/* One side's blocks as alltoallw takes them. */
struct Blocks {
    std::vector<std::size_t> counts;
    std::vector<std::ptrdiff_t> bytes;
    std::vector<mca_coll_dt_t> types;
};

/* `n` blocks of `counts[i]` elements of `type`, block i starting displs[i] elements on (or one after the
 * other, count elements each, when counts is NULL). */
Blocks layout(std::size_t n, const Datatype *type, std::size_t count, const std::size_t *counts,
              const std::ptrdiff_t *displs)
{
    Blocks b;
    for (std::size_t i = 0; i < n; ++i) {
        b.counts.push_back(counts != nullptr ? counts[i] : count);
        b.bytes.push_back((displs != nullptr ? displs[i] : static_cast<std::ptrdiff_t>(i * count)) * type->extent);
        b.types.push_back(coll::to_c(type));
    }
    return b;
}

/* Every destination gets the same block: the whole send buffer. */
Blocks repeated(std::size_t n, const Datatype *type, std::size_t count)
{
    Blocks b;
    b.counts.assign(n, count);
    b.bytes.assign(n, 0);
    b.types.assign(n, coll::to_c(type));
    return b;
}

} // namespace

void alltoallw(Schedule &s, const Neighborhood &n, const void *sbuf, const std::size_t *scounts,
               const std::ptrdiff_t *sdispls, const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts,
               const std::ptrdiff_t *rdispls, const mca_coll_dt_t *rtypes)
{
    /* Receives first, in block order: messages between two processes match in the order they were
     * sent, which send_order arranges. */
    for (std::size_t i = 0; i < n.sources.size(); ++i) {
        s.recv(static_cast<char *>(rbuf) + rdispls[i], rcounts[i], coll::of(rtypes[i]), n.sources[i]);
    }
    for (int j : n.send_order) {
        const auto k = static_cast<std::size_t>(j);
        s.send(static_cast<const char *>(sbuf) + sdispls[k], scounts[k], coll::of(stypes[k]), n.destinations[k]);
    }
}

void alltoallv(Schedule &s, const Neighborhood &n, const void *sbuf, const std::size_t *scounts,
               const std::ptrdiff_t *sdispls, const Datatype *stype, void *rbuf, const std::size_t *rcounts,
               const std::ptrdiff_t *rdispls, const Datatype *rtype)
{
    const Blocks send = layout(n.destinations.size(), stype, 0, scounts, sdispls);
    const Blocks recv = layout(n.sources.size(), rtype, 0, rcounts, rdispls);
    alltoallw(s, n, sbuf, send.counts.data(), send.bytes.data(), send.types.data(), rbuf, recv.counts.data(),
              recv.bytes.data(), recv.types.data());
}

void alltoall(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
              void *rbuf, std::size_t rcount, const Datatype *rtype)
{
    const Blocks send = layout(n.destinations.size(), stype, scount, nullptr, nullptr);
    const Blocks recv = layout(n.sources.size(), rtype, rcount, nullptr, nullptr);
    alltoallw(s, n, sbuf, send.counts.data(), send.bytes.data(), send.types.data(), rbuf, recv.counts.data(),
              recv.bytes.data(), recv.types.data());
}

void allgatherv(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
                void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype)
{
    const Blocks send = repeated(n.destinations.size(), stype, scount);
    const Blocks recv = layout(n.sources.size(), rtype, 0, rcounts, displs);
    alltoallw(s, n, sbuf, send.counts.data(), send.bytes.data(), send.types.data(), rbuf, recv.counts.data(),
              recv.bytes.data(), recv.types.data());
}

void allgather(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
               void *rbuf, std::size_t rcount, const Datatype *rtype)
{
    const Blocks send = repeated(n.destinations.size(), stype, scount);
    const Blocks recv = layout(n.sources.size(), rtype, rcount, nullptr, nullptr);
    alltoallw(s, n, sbuf, send.counts.data(), send.bytes.data(), send.types.data(), rbuf, recv.counts.data(),
              recv.bytes.data(), recv.types.data());
}

} // namespace tessera::ompi::coll_neighbor
