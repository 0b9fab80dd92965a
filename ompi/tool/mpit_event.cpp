/* Events (MPI-4.1 15.3.8): none yet. */
#include "ompi/tool/mpit.h"

namespace tessera::ompi::tool {

void release_event_registrations() {}

void refresh_event_categories(Catalog &) {}

} // namespace tessera::ompi::tool
