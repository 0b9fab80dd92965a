/* Hardware resources of MPI_Comm_split_type (hw_resources.h), through hwloc. */
#include "opal/hw_resources.h"

#include <hwloc.h>

#include <algorithm>
#include <memory>

#include "opal/host_topology.h"

namespace tessera::opal {

namespace {

constexpr const char *kSharedMemory = "mpi_shared_memory";

struct BitmapDeleter {
    void operator()(hwloc_bitmap_s *b) const { hwloc_bitmap_free(b); }
};

} // namespace

const std::vector<std::string> &hw_resource_types()
{
    static const std::vector<std::string> types = {kSharedMemory, "Package", "NUMANode", "L3Cache",
                                                   "L2Cache",     "L1Cache", "Core",     "PU"};
    return types;
}

std::optional<int> hw_resource_instance(const std::string &type)
{
    if (type == kSharedMemory) {
        return 0;
    }
    /* Only the names listed: hwloc would also take abbreviations and prefixes of its own. */
    const auto &known = hw_resource_types();
    if (std::find(known.begin(), known.end(), type) == known.end()) {
        return std::nullopt;
    }
    hwloc_topology *t = host_topology();
    hwloc_obj_type_t kind;
    hwloc_obj_attr_u attr;
    if (t == nullptr || hwloc_type_sscanf(type.c_str(), &kind, &attr, sizeof attr) != 0) {
        return std::nullopt;
    }
    std::unique_ptr<hwloc_bitmap_s, BitmapDeleter> bound(hwloc_bitmap_alloc());
    if (!bound || hwloc_get_cpubind(t, bound.get(), HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(bound.get())) {
        return std::nullopt;
    }
    const int depth = hwloc_get_type_depth(t, kind);
    if (depth == HWLOC_TYPE_DEPTH_UNKNOWN || depth == HWLOC_TYPE_DEPTH_MULTIPLE) {
        return std::nullopt;
    }
    const int n = hwloc_get_nbobjs_by_depth(t, depth);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t obj = hwloc_get_obj_by_depth(t, depth, static_cast<unsigned>(i));
        if (obj->cpuset != nullptr && hwloc_bitmap_isincluded(bound.get(), obj->cpuset)) {
            return static_cast<int>(obj->logical_index);
        }
    }
    return std::nullopt;
}

} // namespace tessera::opal
