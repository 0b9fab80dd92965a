/* Created communicators from comm_new to their destruction: references, the deferred destruction
 * (communicator.h says why), and the subsystem's start and end in MPI_Init and MPI_Finalize. */
#include <algorithm>
#include <vector>

#include "ompi/communicator/comm_build.h"
#include "ompi/communicator/comm_context.h"
#include "ompi/communicator/comm_task.h"
#include "ompi/communicator/communicator.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi {

namespace {

std::vector<Communicator *> live;   /* created and not destroyed */
std::vector<Communicator *> doomed; /* their last reference is gone */

void destroy(Communicator *c)
{
    comm::dismantle(c);
    std::erase(live, c);
    delete c;
}

/* Every progress pass: destroys what lost its last reference, advances MPI_Comm_idup. */
int progress()
{
    int events = 0;
    if (!doomed.empty()) {
        events += static_cast<int>(doomed.size());
        comm_reap();
    }
    return events + comm::progress_tasks();
}

} // namespace

void comm_retain(Communicator *comm)
{
    if (!comm->predefined) {
        ++comm->refs;
    }
}

void comm_release(Communicator *comm)
{
    if (!comm->predefined && --comm->refs == 0) {
        doomed.push_back(comm);
    }
}

void comm_reap()
{
    while (!doomed.empty()) {
        Communicator *c = doomed.back();
        doomed.pop_back();
        destroy(c);
    }
}

Communicator *comm_new()
{
    auto *c = new Communicator{};
    live.push_back(c);
    return c;
}

void comm_init()
{
    cid::reset(static_cast<std::size_t>(std::max(cid::max_ids, 64)));
    pml::progress_hook_add(progress);
}

void comm_finalize()
{
    pml::progress_hook_remove(progress);
    /* What the application did not free (and what requests still held) goes now, before the
     * collectives and the engine stop. */
    doomed.clear();
    while (!live.empty()) {
        destroy(live.back());
    }
}

} // namespace tessera::ompi
