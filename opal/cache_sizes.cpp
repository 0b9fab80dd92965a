#include "opal/cache_sizes.h"

#include <hwloc.h>

#include "opal/host_topology.h"

namespace tessera::opal {

std::optional<uint64_t> cache_size(unsigned level)
{
    static const hwloc_obj_type_t kinds[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
    hwloc_topology *t = host_topology();
    if (t == nullptr || level < 1 || level > sizeof kinds / sizeof kinds[0]) {
        return std::nullopt;
    }
    hwloc_obj_t cache = hwloc_get_next_obj_by_type(t, kinds[level - 1], nullptr);
    if (cache == nullptr || cache->attr == nullptr || cache->attr->cache.size == 0) {
        return std::nullopt;
    }
    return cache->attr->cache.size;
}

} // namespace tessera::opal
