/* MPI_Finalize before the final fence: what this process still owes its peers is delivered, or
 * failed when nobody will ever receive it (docs/p2p.md). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <string>

#include "mca/report.h"

namespace tessera::ompi::pml {

namespace {

/* queues_lock held. */
bool finalizing(const tessera_proc_t *proc)
{
    return (proc->proc_flags & TESSERA_PROC_IS_SELF) != 0 ||
           std::find(finalizing_peers.begin(), finalizing_peers.end(), proc) != finalizing_peers.end();
}

/* Whether every rendezvous send still waiting for its CTS goes to a process that receives no more.
 * queues_lock held. */
bool only_unanswerable_rts()
{
    for (const Request *r = awaiting_cts.head; r != nullptr; r = r->next) {
        if (!finalizing(r->proc)) {
            return false;
        }
    }
    return true;
}

} // namespace

void quiesce()
{
    if (!running) {
        return;
    }
    /* A send the application freed (MPI_Request_free) is still owed to its receiver, which may post the
     * receive long after this process entered MPI_Finalize: wait for its CTS, or for the receiver's FIN
     * (then nobody will ever receive it). Every peer learns this process is finalizing, and the FINs
     * must be written before this process stops progressing (a transport may still be connecting). */
    const FinHeader fin{FragType::Fin, {}};
    Request *fins = request_alloc();
    for (tessera_proc_t *proc : comm_world().procs) {
        if ((proc->proc_flags & TESSERA_PROC_IS_SELF) == 0) {
            (void)send_control(proc, &fin, sizeof fin, nullptr, 0, fins);
        }
    }
    /* active_sends belongs to the progress gate: looked at from a pass of this thread's own (a progress
     * thread may be making the others). */
    wait_until([fins] {
        bool sends_done = false;
        {
            ProgressScope gate;
            sends_done = active_sends.empty();
        }
        opal::LockGuard lock(queues_lock);
        return sends_done && pending.empty() && fins->in_flight == 0 && only_unanswerable_rts();
    });
    request_release(fins);
    RequestList unanswered;
    {
        opal::LockGuard lock(queues_lock);
        unanswered = awaiting_cts;
        awaiting_cts = RequestList{};
    }
    std::size_t unreceived = 0;
    while (unanswered.head != nullptr) {
        Request *r = unanswered.head;
        unanswered.erase(r);
        fail(r, MPI_ERR_OTHER);
        ++unreceived;
    }
    if (unreceived > 0) {
        tessera::mca::report(tessera::mca::Severity::Warning,
                             "MPI_Finalize: " + std::to_string(unreceived) +
                                 " send(s) of this process were never received: their receivers finalized "
                                 "without a matching receive");
    }
}

} // namespace tessera::ompi::pml
