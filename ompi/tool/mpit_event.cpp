/* Events (MPI-4.1 15.3.8): none yet. */
#include "ompi/tool/mpit.h"
#include "ompi/tool/mpit_feed.h"

namespace tessera::ompi::tool {

void raise_unexpected(int, int, int, std::size_t) {}

void raise_jit_compiled(double, std::size_t) {}

void release_event_registrations() {}

void refresh_event_categories(Catalog &) {}

} // namespace tessera::ompi::tool
