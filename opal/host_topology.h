/* This host's hwloc topology, loaded once per process and shared by what asks about the hardware
 * (binding.cpp, hw_resources.cpp). nullptr when hwloc could not load one. */
#ifndef TESSERA_OPAL_HOST_TOPOLOGY_H
#define TESSERA_OPAL_HOST_TOPOLOGY_H

struct hwloc_topology;

namespace tessera::opal {

hwloc_topology *host_topology();

} // namespace tessera::opal

#endif
