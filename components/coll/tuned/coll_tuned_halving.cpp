/* coll tuned: recursive halving and doubling over folded ranks (coll_tuned_halving.h). */
#include "components/coll/tuned/coll_tuned_halving.h"

#include <algorithm>

namespace tessera::ompi::coll_tuned {

void halving_reduce_scatter(Schedule &s, const Fold &f, const void *own, void *acc, std::size_t count,
                            const std::vector<std::size_t> &blocks, const Datatype *type, const Op *op)
{
    const int me = s.rank();
    if (me < 2 * f.extra) {
        if (f.newrank < 0) {
            s.send(own, count, type, me + 1);
            return;
        }
        /* Take in the operand of the even rank before: acc = even op own (commutative). */
        if (acc != own) {
            s.recv(acc, count, type, me - 1);
            s.round();
            s.reduce(own, acc, count, type, op);
        } else {
            void *theirs = s.scratch(count, type);
            s.recv(theirs, count, type, me - 1);
            s.round();
            s.reduce(theirs, acc, count, type, op);
        }
        own = acc;
    }
    const int nr = f.newrank;
    void *tmp = nullptr;
    int lo = 0, hi = f.pow2;
    for (int mask = f.pow2 / 2; mask > 0; mask /= 2) {
        const int mid = lo + mask;
        const bool lower = (nr & mask) == 0;
        const int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        const int give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        const int partner = f.rank_of(nr ^ mask);
        const std::size_t keep_at = blocks[static_cast<std::size_t>(keep_lo)];
        const std::size_t keep_n = blocks[static_cast<std::size_t>(keep_hi)] - keep_at;
        const std::size_t give_at = blocks[static_cast<std::size_t>(give_lo)];
        const std::size_t give_n = blocks[static_cast<std::size_t>(give_hi)] - give_at;
        /* Until the first exchange the rank's data is its operand; after it, acc. */
        const void *from = own;
        s.send(at(from, give_at, type), give_n, type, partner);
        if (own != acc) {
            s.recv(at(acc, keep_at, type), keep_n, type, partner);
            s.round();
            s.reduce(at(own, keep_at, type), at(acc, keep_at, type), keep_n, type, op);
        } else {
            if (tmp == nullptr) {
                /* Every later kept part lies within the first: room for the larger half serves all. */
                const std::size_t half = blocks[static_cast<std::size_t>(f.pow2 / 2)];
                tmp = s.scratch(std::max(half, blocks.back() - half), type);
            }
            s.recv(tmp, keep_n, type, partner);
            s.round();
            s.reduce(tmp, at(acc, keep_at, type), keep_n, type, op);
        }
        own = acc;
        lo = keep_lo;
        hi = keep_hi;
    }
    if (f.pow2 == 1 && own != acc) {
        s.copy(own, count, type, acc, count, type);
    }
}

void doubling_allgather(Schedule &s, const Fold &f, void *acc, const std::vector<std::size_t> &blocks,
                        const Datatype *type)
{
    const int me = s.rank(), nr = f.newrank;
    const auto span = [&](int first, int n) {
        return blocks[static_cast<std::size_t>(first + n)] - blocks[static_cast<std::size_t>(first)];
    };
    if (nr >= 0) {
        for (int mask = 1; mask < f.pow2; mask *= 2) {
            const int base = nr & ~(mask - 1), other = base ^ mask;
            const int partner = f.rank_of(nr ^ mask);
            s.recv(at(acc, blocks[static_cast<std::size_t>(other)], type), span(other, mask), type, partner);
            s.send(at(acc, blocks[static_cast<std::size_t>(base)], type), span(base, mask), type, partner);
            s.round();
        }
    }
    if (me < 2 * f.extra) {
        const std::size_t total = blocks.back();
        if (nr < 0) {
            s.recv(acc, total, type, me + 1);
        } else {
            s.send(acc, total, type, me - 1);
        }
        s.round();
    }
}

void binomial_gather_blocks(Schedule &s, const Fold &f, void *acc, const std::vector<std::size_t> &blocks,
                            const Datatype *type, int target)
{
    const int nr = f.newrank;
    for (int mask = 1; mask < f.pow2; mask *= 2) {
        const int base = nr & ~(mask - 1), other = base ^ mask;
        const int partner = f.rank_of(nr ^ mask);
        const std::size_t from = blocks[static_cast<std::size_t>(base)];
        const std::size_t to = blocks[static_cast<std::size_t>(other)];
        const std::size_t n = blocks[static_cast<std::size_t>(base + mask)] - from;
        if ((nr & mask) != (target & mask)) {
            s.send(at(acc, from, type), n, type, partner);
            s.round();
            return;
        }
        s.recv(at(acc, to, type), blocks[static_cast<std::size_t>(other + mask)] - to, type, partner);
        s.round();
    }
}

} // namespace tessera::ompi::coll_tuned
