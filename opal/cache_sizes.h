/* The sizes of this host's caches, from its hwloc topology: what code that sizes its work to the
 * caches (the dte jit's choice of unpack code) asks instead of a constant. */
#ifndef TESSERA_OPAL_CACHE_SIZES_H
#define TESSERA_OPAL_CACHE_SIZES_H

#include <cstdint>
#include <optional>

namespace tessera::opal {

/* Bytes of a level-`level` data (or unified) cache of this host (1 to 5; the first one hwloc lists:
 * the levels are alike across the cores of the hosts we run on); nullopt when the topology does not
 * say. */
std::optional<uint64_t> cache_size(unsigned level);

} // namespace tessera::opal

#endif
