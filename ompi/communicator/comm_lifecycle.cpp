/* Created communicators from comm_new to their destruction: references, the deferred destruction
 * (communicator.h says why), and the subsystem's start and end in MPI_Init and MPI_Finalize. */
#include <algorithm>
#include <atomic>
#include <vector>

#include "ompi/communicator/comm_build.h"
#include "ompi/communicator/comm_context.h"
#include "ompi/communicator/comm_task.h"
#include "ompi/communicator/communicator.h"
#include "ompi/pml/pml_internal.h"
#include "opal/threads.h"

namespace tessera::ompi {

namespace {

/* Any thread may create a communicator, and any (the one that completes a request) may drop a last
 * reference: both lists change under this lock, which is not held while a communicator is dismantled. */
opal::Mutex lists_lock;
std::vector<Communicator *> live;   /* created and not destroyed */
std::vector<Communicator *> doomed; /* their last reference is gone */
/* doomed is not empty: read without the lock by every progress pass. */
std::atomic<bool> any_doomed{false};

void destroy(Communicator *c)
{
    comm::dismantle(c);
    {
        const opal::LockGuard guard(lists_lock);
        std::erase(live, c);
    }
    delete c;
}

/* Requests are completed and released by whichever thread progresses them: under MPI_THREAD_MULTIPLE the
 * count is atomic, below it a plain increment (the same object, so that nothing costs more there). */
int add_refs(Communicator *comm, int delta)
{
    if (opal::using_threads()) {
        return std::atomic_ref<int>(comm->refs).fetch_add(delta, std::memory_order_acq_rel) + delta;
    }
    return comm->refs += delta;
}

/* Every progress pass: destroys what lost its last reference, advances MPI_Comm_idup. */
int progress()
{
    int events = 0;
    if (any_doomed.load(std::memory_order_relaxed)) {
        events += comm_reap();
    }
    return events + comm::progress_tasks();
}

} // namespace

void comm_retain(Communicator *comm)
{
    if (!comm->predefined) {
        add_refs(comm, 1);
    }
}

void comm_release(Communicator *comm)
{
    if (!comm->predefined && add_refs(comm, -1) == 0) {
        const opal::LockGuard guard(lists_lock);
        doomed.push_back(comm);
        any_doomed.store(true, std::memory_order_relaxed);
    }
}

int comm_reap()
{
    int reaped = 0;
    for (;;) {
        Communicator *c = nullptr;
        {
            const opal::LockGuard guard(lists_lock);
            if (doomed.empty()) {
                any_doomed.store(false, std::memory_order_relaxed);
                return reaped;
            }
            c = doomed.back();
            doomed.pop_back();
        }
        destroy(c);
        ++reaped;
    }
}

Communicator *comm_new()
{
    auto *c = new Communicator{};
    const opal::LockGuard guard(lists_lock);
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
    any_doomed.store(false, std::memory_order_relaxed);
    while (!live.empty()) {
        destroy(live.back());
    }
}

} // namespace tessera::ompi
