/* Performance variables (MPI-4.1 15.3.7): none yet. */
#include "ompi/tool/mpit.h"

namespace tessera::ompi::tool {

void release_pvar_sessions() {}

void refresh_pvar_categories(Catalog &) {}

} // namespace tessera::ompi::tool
