/* The matching queues' lengths for MPI_T's pvars: read under the communicator's matching lock, so
 * that the message path keeps nothing beyond the high-water marks. */
#include <mutex>

#include "ompi/pml/pml.h"
#include "ompi/pml/pml_engine_private.h"

namespace tessera::ompi::pml {

QueueLevels queue_levels(Communicator &comm)
{
    auto *state = static_cast<CommState *>(comm.pml);
    if (state == nullptr) {
        return {};
    }
    std::lock_guard lock(state->lock);
    return {state->unexpected.size(), state->unexpected_hwm, state->posted.size, state->posted_hwm};
}

} // namespace tessera::ompi::pml
