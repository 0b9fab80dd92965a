/* coll tuned: what the algorithms share — addressing elements, ranks relative to a root, blocks of
 * a vector, binomial trees, and the folding of any number of ranks onto a power of two. */
#ifndef TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_UTIL_H
#define TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_UTIL_H

#include <cstddef>
#include <vector>

#include "components/coll/tuned/coll_tuned.h"

namespace tessera::ompi::coll_tuned {

/* Element `index` of a buffer of `type` (index * extent bytes on). */
inline char *at(void *buf, std::size_t index, const Datatype *type)
{
    return static_cast<char *>(buf) + static_cast<std::ptrdiff_t>(index) * type->extent;
}
inline const char *at(const void *buf, std::size_t index, const Datatype *type)
{
    return static_cast<const char *>(buf) + static_cast<std::ptrdiff_t>(index) * type->extent;
}

inline const Datatype *byte_type()
{
    return datatype_lookup(MPI_BYTE);
}

/* Ranks renumbered so that `root` is 0, and back. */
inline int relative(int rank, int root, int n)
{
    return (rank - root + n) % n;
}
inline int absolute(int relative_rank, int root, int n)
{
    return (relative_rank + root) % n;
}

/* The largest power of two <= n (n >= 1). */
inline int floor_pow2(int n)
{
    int p = 1;
    while (p * 2 <= n) {
        p *= 2;
    }
    return p;
}

/* The lowest set bit of v, or the first power of two >= n for v == 0 (the root): in a binomial tree of
 * relative ranks, v's parent is v - low_bit and its children are v + m for the powers of two m below
 * it (the subtree of v + m holds v + m .. v + 2m - 1). */
inline int low_bit(int v, int n)
{
    int mask = 1;
    while (mask < n && (v & mask) == 0) {
        mask <<= 1;
    }
    return mask;
}

/* Ranks of the subtree rooted at relative rank v: v .. v + subtree_size - 1. */
inline int subtree_size(int v, int n)
{
    const int span = low_bit(v, n);
    return v + span < n ? span : n - v;
}

/* `count` elements cut into `parts` blocks as even as can be (the first count % parts one longer):
 * offsets[i] .. offsets[i + 1] is block i. */
std::vector<std::size_t> even_blocks(std::size_t count, int parts);

/* Elements per pipeline segment of about `bytes` bytes (at least one). */
std::size_t segment_count(std::size_t bytes, const Datatype *type);

/*
 * Any number of ranks folded onto the largest power of two below it (pow2), as recursive doubling and
 * halving need: of the first 2 * extra ranks (extra = n - pow2), each even one hands its data to the
 * odd one after it and sits out; the others take part as `newrank` — (r - 1) / 2 for the odd ones
 * among the first 2 * extra, r - extra after them. Adjacent ranks merge, so rank order is kept.
 */
struct Fold {
    int pow2 = 1;
    int extra = 0;
    int newrank = -1; /* -1: sits out */

    Fold(int rank, int n);
    /* The rank of a new rank. */
    int rank_of(int nr) const { return nr < extra ? 2 * nr + 1 : nr + extra; }
    /* The first rank a new rank stands for (it stands for rank_of(nr) and, below extra, the one before). */
    int first_of(int nr) const { return nr < extra ? 2 * nr : nr + extra; }
};

} // namespace tessera::ompi::coll_tuned

#endif
