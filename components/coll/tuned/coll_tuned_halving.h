/*
 * coll tuned: the two halves of Rabenseifner's algorithms over ranks folded onto a power of two
 * (coll_tuned_util.h, Fold), shared by reduce, allreduce and reduce-scatter. `blocks` holds pow2 + 1
 * element offsets: new rank j owns elements blocks[j] .. blocks[j + 1] - 1 of the vector.
 */
#ifndef TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_HALVING_H
#define TESSERA_COMPONENTS_COLL_TUNED_COLL_TUNED_HALVING_H

#include <cstddef>
#include <vector>

#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

/*
 * Reduce-scatter by recursive halving (commutative ops): the even ranks of the fold send `own` (the
 * rank's operand, `count` elements) to the next rank and are done; the others exchange halves of the
 * vector with partners at distance pow2/2, pow2/4 ... 1, each reducing the half it keeps. Afterwards
 * (in later rounds) `acc` (room for `count`, may be `own`: in place) holds on each taking-part rank the
 * reduction of every rank's operand over its block; the rest of acc is scratch.
 */
void halving_reduce_scatter(Schedule &s, const Fold &f, const void *own, void *acc, std::size_t count,
                            const std::vector<std::size_t> &blocks, const Datatype *type, const Op *op);

/* Allgather by recursive doubling of the blocks held in `acc` by the taking-part ranks, then each odd
 * rank of the fold sends the whole vector (blocks[0] .. blocks[pow2]) to the even one before it, which
 * receives it into `acc`. */
void doubling_allgather(Schedule &s, const Fold &f, void *acc, const std::vector<std::size_t> &blocks,
                        const Datatype *type);

/* Gathers the blocks in `acc` to the taking-part new rank `target`, binomially (the others send theirs
 * and are done). */
void binomial_gather_blocks(Schedule &s, const Fold &f, void *acc, const std::vector<std::size_t> &blocks,
                            const Datatype *type, int target);

} // namespace tessera::ompi::coll_tuned

#endif
