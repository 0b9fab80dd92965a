/* coll tuned: reduce-scatter (the block form is the same with equal counts), scan and exscan. */
#include <algorithm>

#include "components/coll/tuned/coll_tuned_halving.h"

namespace tessera::ompi::coll_tuned {

namespace {

/* Where each rank's block starts, and the total: displs[r] .. displs[r + 1]. */
std::vector<std::size_t> offsets_of(const std::size_t *rcounts, int n)
{
    std::vector<std::size_t> displs(static_cast<std::size_t>(n) + 1);
    for (std::size_t r = 0; r < static_cast<std::size_t>(n); ++r) {
        displs[r + 1] = displs[r] + rcounts[r];
    }
    return displs;
}

} // namespace

/* A binomial reduce of the whole vector to rank 0 (rank order kept), which then sends each rank its
 * block. */
void reduce_scatter_then_scatter(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts,
                                 const Datatype *type, const Op *op)
{
    const int n = s.size(), me = s.rank();
    const std::vector<std::size_t> displs = offsets_of(rcounts, n);
    const std::size_t total = displs.back();
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    void *result = me == 0 ? s.scratch(total, type) : nullptr;
    reduce_binomial(s, own, result, total, type, op, 0);
    s.round();
    if (me != 0) {
        s.recv(rbuf, rcounts[me], type, 0);
        return;
    }
    for (int p = 1; p < n; ++p) {
        s.send(at(result, displs[static_cast<std::size_t>(p)], type), rcounts[p], type, p);
    }
    s.copy(result, rcounts[0], type, rbuf, rcounts[0], type);
}

/* Recursive halving (commutative ops) with the blocks of the ranks a new rank stands for; the odd
 * ranks of the fold then hand the even ones their blocks. */
void reduce_scatter_halving(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts,
                            const Datatype *type, const Op *op)
{
    const int n = s.size(), me = s.rank();
    const std::vector<std::size_t> displs = offsets_of(rcounts, n);
    const std::size_t total = displs.back();
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    const Fold f(me, n);
    std::vector<std::size_t> blocks(static_cast<std::size_t>(f.pow2) + 1);
    for (int j = 0; j <= f.pow2; ++j) {
        blocks[static_cast<std::size_t>(j)] = j < f.pow2 ? displs[static_cast<std::size_t>(f.first_of(j))] : total;
    }
    void *acc = f.newrank >= 0 ? s.scratch(total, type) : nullptr;
    halving_reduce_scatter(s, f, own, acc, total, blocks, type, op);
    const auto mine = static_cast<std::size_t>(me);
    if (f.newrank < 0) {
        s.round();
        s.recv(rbuf, rcounts[mine], type, me + 1);
        return;
    }
    if (me < 2 * f.extra) {
        s.send(at(acc, displs[mine - 1], type), rcounts[mine - 1], type, me - 1);
    }
    s.copy(at(acc, displs[mine], type), rcounts[mine], type, rbuf, rcounts[mine], type);
}

/*
 * Ring (commutative ops): in step k rank r sends its partial sum of block r - k - 1 to r + 1 and
 * receives the partial sum of block r - k - 2 from r - 1, adding its own; after n - 1 steps it holds
 * block r. Partial sums alternate between two scratch blocks; the last lands in recvbuf (in place
 * it is copied there, since recvbuf still holds the rank's operand).
 */
void reduce_scatter_ring(Schedule &s, const void *sbuf, void *rbuf, const std::size_t *rcounts, const Datatype *type,
                         const Op *op)
{
    const int n = s.size(), me = s.rank();
    const bool in_place = sbuf == MPI_IN_PLACE;
    const void *own = in_place ? rbuf : sbuf;
    const std::vector<std::size_t> displs = offsets_of(rcounts, n);
    const auto mine = static_cast<std::size_t>(me);
    if (n == 1) {
        if (!in_place) {
            s.copy(sbuf, rcounts[0], type, rbuf, rcounts[0], type);
        }
        return;
    }
    const auto block = [&](int b) { return static_cast<std::size_t>((b % n + n) % n); };
    const std::size_t largest = *std::max_element(rcounts, rcounts + n);
    void *partial[2] = {s.scratch(largest, type), s.scratch(largest, type)};
    const int left = (me - 1 + n) % n, right = (me + 1) % n;
    const void *out = at(own, displs[block(me - 1)], type);
    for (int k = 0; k < n - 1; ++k) {
        const std::size_t in = block(me - k - 2), gone = block(me - k - 1);
        const bool last = k == n - 2;
        void *into = last && !in_place ? rbuf : partial[k % 2];
        s.recv(into, rcounts[in], type, left);
        s.send(out, rcounts[gone], type, right);
        s.round();
        s.reduce(at(own, displs[in], type), into, rcounts[in], type, op);
        out = into;
    }
    if (in_place) {
        s.copy(out, rcounts[mine], type, rbuf, rcounts[mine], type);
    }
}

/*
 * Recursive doubling (MPI-4.1 6.11): in step k rank r exchanges with r xor 2^k the reduction of the
 * contiguous range of ranks it has seen; the lower range goes on the left. `partial` covers that range;
 * recvbuf gathers the part of it below and at r (scan) or below r (exscan, where the first
 * contribution is copied in).
 */
namespace {

void prefix_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                     const Op *op, bool inclusive)
{
    const int n = s.size(), me = s.rank();
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (n == 1) {
        if (inclusive && own != rbuf) {
            s.copy(own, count, type, rbuf, count, type);
        }
        return;
    }
    void *partial = s.scratch(count, type), *theirs = s.scratch(count, type);
    s.copy(own, count, type, partial, count, type);
    if (inclusive && own != rbuf) {
        s.copy(own, count, type, rbuf, count, type);
    }
    bool have = inclusive;
    for (int mask = 1; mask < n; mask <<= 1) {
        const int peer = me ^ mask;
        if (peer >= n) {
            continue;
        }
        s.recv(theirs, count, type, peer);
        s.send(partial, count, type, peer);
        s.round();
        if (peer < me) {
            s.reduce(theirs, partial, count, type, op);
            if (have) {
                s.reduce(theirs, rbuf, count, type, op);
            } else {
                s.copy(theirs, count, type, rbuf, count, type);
                have = true;
            }
        } else if (op->commutative) {
            s.reduce(theirs, partial, count, type, op);
        } else {
            s.reduce(partial, theirs, count, type, op);
            std::swap(partial, theirs);
        }
    }
}

} // namespace

void scan_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                             const Op *op)
{
    prefix_doubling(s, sbuf, rbuf, count, type, op, true);
}

void exscan_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                               const Op *op)
{
    prefix_doubling(s, sbuf, rbuf, count, type, op, false);
}

} // namespace tessera::ompi::coll_tuned
