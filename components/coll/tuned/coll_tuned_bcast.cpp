/* coll tuned: barriers and broadcasts. */
#include <algorithm>

#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

/* Everyone tells rank 0 it has arrived; rank 0 then lets everyone go (2 (n-1) messages, 2 steps). */
void barrier_linear(Schedule &s)
{
    if (s.rank() != 0) {
        s.send(nullptr, 0, byte_type(), 0);
        s.round();
        s.recv(nullptr, 0, byte_type(), 0);
        return;
    }
    for (int peer = 1; peer < s.size(); ++peer) {
        s.recv(nullptr, 0, byte_type(), peer);
    }
    s.round();
    for (int peer = 1; peer < s.size(); ++peer) {
        s.send(nullptr, 0, byte_type(), peer);
    }
}

/* Dissemination (Hensgen, Finkel, Manber): in step k every rank signals rank + 2^k and waits for
 * rank - 2^k; after ceil(log2 n) steps each has heard, indirectly, from all. */
void barrier_dissemination(Schedule &s)
{
    const int n = s.size(), me = s.rank();
    for (int dist = 1; dist < n; dist <<= 1) {
        s.recv(nullptr, 0, byte_type(), (me - dist + n) % n);
        s.send(nullptr, 0, byte_type(), (me + dist) % n);
        s.round();
    }
}

void bcast_linear(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    if (s.rank() != root) {
        s.recv(buf, count, type, root);
        return;
    }
    for (int i = 1; i < s.size(); ++i) {
        s.send(buf, count, type, absolute(i, root, s.size()));
    }
}

/* Receive from the parent, then send to the children, largest subtree first. */
void bcast_binomial(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    const int n = s.size(), v = relative(s.rank(), root, n);
    const int span = low_bit(v, n);
    if (v != 0) {
        s.recv(buf, count, type, absolute(v - span, root, n));
        s.round();
    }
    for (int m = span >> 1; m > 0; m >>= 1) {
        if (v + m < n) {
            s.send(buf, count, type, absolute(v + m, root, n));
        }
    }
}

namespace {

/*
 * A segmented broadcast down a tree given by each relative rank's parent, children and depth: an inner
 * rank at depth d receives segment k in round k + d - 1 and passes it on in round k + d, while the next
 * segment arrives — every level of the tree moves a different segment at once. The root and the leaves
 * wait for nothing between segments: they start all their sends or receives at once.
 */
template <typename Parent, typename Children, typename Depth>
void bcast_segmented(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root, Parent parent,
                     Children children, Depth depth)
{
    const int n = s.size(), v = relative(s.rank(), root, n);
    const std::size_t per =
        params.bcast_segment_size == 0 ? std::max<std::size_t>(count, 1) : segment_count(params.bcast_segment_size, type);
    const std::size_t segments = (count + per - 1) / per;
    const auto piece = [&](std::size_t k) { return std::min(per, count - k * per); };
    const int d = depth(v);
    std::vector<int> kids;
    children(v, n, kids);
    if (v == 0 || kids.empty()) {
        for (std::size_t k = 0; k < segments; ++k) {
            if (v != 0) {
                s.recv(at(buf, k * per, type), piece(k), type, absolute(parent(v), root, n));
            }
            for (int c : kids) {
                s.send(at(buf, k * per, type), piece(k), type, absolute(c, root, n));
            }
        }
        return;
    }
    const std::size_t first = static_cast<std::size_t>(d - 1);
    const std::size_t last = segments + static_cast<std::size_t>(d); /* rounds first .. last - 1 */
    for (std::size_t r = first; r < last; ++r) {
        if (v != 0 && r + 1 >= static_cast<std::size_t>(d) && r + 1 - static_cast<std::size_t>(d) < segments) {
            const std::size_t k = r + 1 - static_cast<std::size_t>(d);
            s.recv(at(buf, k * per, type), piece(k), type, absolute(parent(v), root, n));
        }
        if (r >= static_cast<std::size_t>(d) && r - static_cast<std::size_t>(d) < segments) {
            const std::size_t k = r - static_cast<std::size_t>(d);
            for (int c : kids) {
                s.send(at(buf, k * per, type), piece(k), type, absolute(c, root, n));
            }
        }
        s.round();
    }
}

} // namespace

/* A chain: relative rank v receives from v - 1 and sends to v + 1. */
void bcast_pipeline(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    bcast_segmented(
        s, buf, count, type, root, [](int v) { return v - 1; },
        [](int v, int n, std::vector<int> &kids) {
            if (v + 1 < n) {
                kids.push_back(v + 1);
            }
        },
        [](int v) { return v; });
}

/* A binary tree in heap order: v's children are 2v + 1 and 2v + 2. */
void bcast_binary(Schedule &s, void *buf, std::size_t count, const Datatype *type, int root)
{
    bcast_segmented(
        s, buf, count, type, root, [](int v) { return (v - 1) / 2; },
        [](int v, int n, std::vector<int> &kids) {
            for (int c = 2 * v + 1; c <= 2 * v + 2 && c < n; ++c) {
                kids.push_back(c);
            }
        },
        [](int v) {
            int d = 0;
            for (int x = v + 1; x > 1; x >>= 1) {
                ++d;
            }
            return d;
        });
}

} // namespace tessera::ompi::coll_tuned
