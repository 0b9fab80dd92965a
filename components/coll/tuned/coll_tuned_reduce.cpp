/* coll tuned: reduce and allreduce. */
#include <utility>

#include "components/coll/tuned/coll_tuned_halving.h"

namespace tessera::ompi::coll_tuned {

/*
 * Each rank receives its children's partial results (all at once), folds them into its own operand
 * and sends the result to its parent. A commutative op runs on the tree of ranks relative to root.
 * Otherwise the tree is rank 0's: the subtree of child v + m holds ranks v + m .. v + 2m - 1, so folding
 * children in ascending order keeps rank order — acc = own op c1, then (acc op c2)... each step
 * writing into the next child's buffer (op.h: inout = in op inout) — and rank 0 sends the result on
 * to root.
 */
void reduce_binomial(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                     const Op *op, int root)
{
    const int n = s.size(), me = s.rank();
    const bool ordered = !op->commutative;
    const int tree_root = ordered ? 0 : root;
    const int v = relative(me, tree_root, n);
    const void *own = me == root && sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    /* Where the tree's result goes: recvbuf at root, scratch at rank 0 when it only passes it on. */
    void *result = v != 0 ? nullptr : me == root ? rbuf : s.scratch(count, type);
    std::vector<int> children;
    for (int m = 1; m < low_bit(v, n) && v + m < n; m <<= 1) {
        children.push_back(absolute(v + m, tree_root, n));
    }
    const void *acc = own;
    if (children.empty()) {
        if (v == 0 && own != result) {
            s.copy(own, count, type, result, count, type);
            acc = result;
        }
    } else if (!ordered) {
        void *sum = v == 0 ? result : s.scratch(count, type);
        std::vector<void *> parts;
        for (std::size_t i = 0; i < children.size(); ++i) {
            /* The first child lands in the accumulator, unless it already holds the operand. */
            void *into = i == 0 && sum != own ? sum : s.scratch(count, type);
            parts.push_back(into);
            s.recv(into, count, type, children[i]);
        }
        s.round();
        for (void *part : parts) {
            s.reduce(part == sum ? own : part, sum, count, type, op);
        }
        acc = sum;
    } else {
        if (own == result) { /* in place at rank 0: the last child's data lands in recvbuf */
            void *saved = s.scratch(count, type);
            s.copy(own, count, type, saved, count, type);
            own = saved;
        }
        std::vector<void *> parts;
        for (std::size_t i = 0; i < children.size(); ++i) {
            void *into = i + 1 == children.size() && v == 0 ? result : s.scratch(count, type);
            parts.push_back(into);
            s.recv(into, count, type, children[i]);
        }
        s.round();
        const void *left = own;
        for (void *part : parts) {
            s.reduce(left, part, count, type, op);
            left = part;
        }
        acc = left;
    }
    if (v != 0) {
        s.send(acc, count, type, absolute(v - low_bit(v, n), tree_root, n));
    }
    if (tree_root != root) {
        s.round();
        if (me == tree_root) {
            s.send(acc, count, type, root);
        } else if (me == root) {
            s.recv(rbuf, count, type, tree_root);
        }
    }
}

/* Reduce-scatter by recursive halving, then the blocks gathered binomially to root (to the odd rank
 * after root when root sits the halving out, which passes the result on). */
void reduce_rabenseifner(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                         const Op *op, int root)
{
    const int n = s.size(), me = s.rank();
    const Fold f(me, n);
    const Fold at_root(root, n);
    const bool root_sits_out = at_root.newrank < 0;
    const int target = root_sits_out ? Fold(root + 1, n).newrank : at_root.newrank;
    const int target_rank = f.rank_of(target);
    const void *own = me == root && sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    void *acc = me == root && !root_sits_out ? rbuf : f.newrank >= 0 ? s.scratch(count, type) : nullptr;
    const std::vector<std::size_t> blocks = even_blocks(count, f.pow2);
    halving_reduce_scatter(s, f, own, acc, count, blocks, type, op);
    if (f.newrank >= 0) {
        binomial_gather_blocks(s, f, acc, blocks, type, target);
    }
    if (root_sits_out) {
        s.round();
        if (me == target_rank) {
            s.send(acc, count, type, root);
        } else if (me == root) {
            s.recv(rbuf, count, type, target_rank);
        }
    }
}

/*
 * Recursive doubling over the folded ranks: partners exchange their partial results and both reduce,
 * the lower rank's on the left. The first exchange reads the operand where it is; afterwards the
 * partial result alternates between recvbuf and one scratch buffer when the op is not commutative
 * (acc op theirs is written into theirs), and is copied to recvbuf at the end if it ends in scratch.
 */
void allreduce_recursive_doubling(Schedule &s, const void *sbuf, void *rbuf, std::size_t count,
                                  const Datatype *type, const Op *op)
{
    const int me = s.rank();
    const Fold f(me, s.size());
    const bool commutative = op->commutative;
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (f.newrank < 0) { /* even rank of the fold: hands its operand on, gets the result back */
        s.send(own, count, type, me + 1);
        s.round();
        s.recv(rbuf, count, type, me + 1);
        return;
    }
    void *spare = s.size() > 1 ? s.scratch(count, type) : nullptr;
    const void *acc = own; /* read-only while it is the operand in sendbuf */
    /* Takes in `theirs` from `peer`, lower ranks on the left. */
    const auto take = [&](int peer) {
        void *writable = acc == rbuf ? rbuf : acc == spare ? spare : nullptr;
        if (writable == nullptr) { /* acc is sendbuf */
            if (commutative || peer > me) {
                s.recv(rbuf, count, type, peer);
                s.round();
                s.reduce(acc, rbuf, count, type, op);
            } else {
                s.recv(spare, count, type, peer);
                s.round();
                s.copy(acc, count, type, rbuf, count, type);
                s.reduce(spare, rbuf, count, type, op);
            }
            acc = rbuf;
            return;
        }
        void *other = writable == rbuf ? spare : rbuf;
        s.recv(other, count, type, peer);
        s.round();
        if (commutative || peer < me) {
            s.reduce(other, writable, count, type, op);
        } else {
            s.reduce(writable, other, count, type, op);
            acc = other;
        }
    };
    if (me < 2 * f.extra) {
        take(me - 1);
    }
    for (int mask = 1; mask < f.pow2; mask <<= 1) {
        const int peer = f.rank_of(f.newrank ^ mask);
        s.send(acc, count, type, peer);
        take(peer);
    }
    if (acc != rbuf) {
        s.copy(acc, count, type, rbuf, count, type);
    }
    if (me < 2 * f.extra) {
        s.send(rbuf, count, type, me - 1);
    }
}

/*
 * Ring (commutative ops): n - 1 steps of reduce-scatter — in step k rank r sends block r - k and
 * receives block r - k - 1, adding its own — leave block r + 1 complete on rank r; n - 1 steps of
 * allgather pass the complete blocks around. Each rank sends and receives 2 (n - 1) / n of the vector.
 */
void allreduce_ring(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                    const Op *op)
{
    const int n = s.size(), me = s.rank();
    const bool in_place = sbuf == MPI_IN_PLACE;
    const void *own = in_place ? rbuf : sbuf;
    if (n == 1) {
        if (!in_place) {
            s.copy(sbuf, count, type, rbuf, count, type);
        }
        return;
    }
    const std::vector<std::size_t> blocks = even_blocks(count, n);
    const auto first = [&](int b) { return blocks[static_cast<std::size_t>((b % n + n) % n)]; };
    const auto length = [&](int b) {
        const auto i = static_cast<std::size_t>((b % n + n) % n);
        return blocks[i + 1] - blocks[i];
    };
    const int left = (me - 1 + n) % n, right = (me + 1) % n;
    void *tmp = in_place ? s.scratch(blocks[1], type) : nullptr;
    for (int k = 0; k < n - 1; ++k) {
        const int out = me - k, in = me - k - 1;
        const void *from = k == 0 ? own : rbuf;
        void *into = in_place ? tmp : at(rbuf, first(in), type);
        s.recv(into, length(in), type, left);
        s.send(at(from, first(out), type), length(out), type, right);
        s.round();
        s.reduce(in_place ? tmp : at(own, first(in), type), at(rbuf, first(in), type), length(in), type, op);
    }
    for (int k = 0; k < n - 1; ++k) {
        const int out = me + 1 - k, in = me - k;
        s.recv(at(rbuf, first(in), type), length(in), type, left);
        s.send(at(rbuf, first(out), type), length(out), type, right);
        s.round();
    }
}

/* Reduce-scatter by recursive halving, then allgather by recursive doubling: 2 log2 n steps moving
 * about twice the vector, for large vectors and commutative ops. */
void allreduce_rabenseifner(Schedule &s, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type,
                            const Op *op)
{
    const Fold f(s.rank(), s.size());
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    const std::vector<std::size_t> blocks = even_blocks(count, f.pow2);
    halving_reduce_scatter(s, f, own, rbuf, count, blocks, type, op);
    s.round();
    doubling_allgather(s, f, rbuf, blocks, type);
}

} // namespace tessera::ompi::coll_tuned
