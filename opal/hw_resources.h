/*
 * Hardware resources as MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED and _HW_UNGUIDED name them
 * (MPI-4.1 7.4.2): a resource type, and which instance of it on this host a process runs within.
 */
#ifndef TESSERA_OPAL_HW_RESOURCES_H
#define TESSERA_OPAL_HW_RESOURCES_H

#include <optional>
#include <string>
#include <vector>

namespace tessera::opal {

/* "mpi_shared_memory" (the host: the standard's required name), then hwloc's types from the largest
 * to the smallest: Package, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU. */
const std::vector<std::string> &hw_resource_types();

/* The instance of resource `type` (a name above) that this process's
 * binding lies within: its logical index among this host's; 0 for "mpi_shared_memory". nullopt when
 * the binding spans several instances (an unbound process is within no core), or the type is none of
 * the above. */
std::optional<int> hw_resource_instance(const std::string &type);

} // namespace tessera::opal

#endif
