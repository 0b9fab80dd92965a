/* coll tuned: the helpers of coll_tuned_util.h that are not one line. */
#include "components/coll/tuned/coll_tuned_util.h"

namespace tessera::ompi::coll_tuned {

std::vector<std::size_t> even_blocks(std::size_t count, int parts)
{
    const auto p = static_cast<std::size_t>(parts);
    std::vector<std::size_t> offsets(p + 1);
    const std::size_t base = count / p, longer = count % p;
    for (std::size_t i = 0; i < p; ++i) {
        offsets[i + 1] = offsets[i] + base + (i < longer ? 1 : 0);
    }
    return offsets;
}

std::size_t segment_count(std::size_t bytes, const Datatype *type)
{
    if (type->size == 0 || bytes < type->size) {
        return 1;
    }
    return bytes / type->size;
}

Fold::Fold(int rank, int n) : pow2(floor_pow2(n)), extra(n - floor_pow2(n))
{
    if (rank < 2 * extra) {
        newrank = rank % 2 == 1 ? rank / 2 : -1;
    } else {
        newrank = rank - extra;
    }
}

} // namespace tessera::ompi::coll_tuned
