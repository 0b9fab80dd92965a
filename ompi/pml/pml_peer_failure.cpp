/* A peer that is gone (the btl's error callback): everything that involves it fails, and the job
 * cannot go on (docs/p2p.md, failures). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::pml {

namespace {

/* Fails what involves a peer that is gone: sends to it and receives matched to it (or naming it as
 * their source), control fragments still queued for it, fragments of it held for their turn. In a
 * progress pass (the gate held); requests are failed outside queues_lock, which completing may take. */
void fail_peer(tessera_proc_t *proc)
{
    std::vector<Request *> failed;
    {
        opal::LockGuard lock(queues_lock);
        const auto fail_in = [proc, &failed](RequestList &list) {
            for (Request *r = list.head; r != nullptr;) {
                Request *next = r->next;
                if (r->proc == proc) {
                    list.erase(r);
                    failed.push_back(r);
                }
                r = next;
            }
        };
        fail_in(awaiting_cts);
        fail_in(receiving);
        for (auto it = pending.begin(); it != pending.end();) {
            if (it->proc == proc) {
                if (it->completes != nullptr) {
                    failed.push_back(it->completes);
                }
                it = pending.erase(it);
            } else {
                ++it;
            }
        }
        pending_any.store(!pending.empty(), std::memory_order_release);
    }
    for (Request *r = active_sends.head; r != nullptr;) {
        Request *next = r->next;
        if (r->proc == proc) {
            if (r->in_flight > 0) {
                /* The transport still owes the done callbacks; progress_sends completes it. */
                r->status.MPI_ERROR = MPI_ERR_OTHER;
                r->scheduled = r->bytes;
            } else {
                active_sends.erase(r);
                failed.push_back(r);
            }
        }
        r = next;
    }
    for (Request *r : failed) {
        fail(r, MPI_ERR_OTHER);
    }
    for (CommState *state : states_by_context) { /* the gate keeps the table as it is */
        if (state == nullptr) {
            continue;
        }
        const auto &procs = state->comm->peers();
        const auto found = std::find(procs.begin(), procs.end(), proc);
        if (found == procs.end()) {
            continue;
        }
        const int rank = static_cast<int>(found - procs.begin());
        std::lock_guard lock(state->lock);
        for (Request *r = state->posted.head; r != nullptr;) {
            Request *next = r->next;
            if (r->peer == rank) {
                state->posted.erase(r);
                fail(r, MPI_ERR_OTHER);
            }
            r = next;
        }
        MessageList &held = state->peers[static_cast<std::size_t>(rank)].held;
        while (!held.empty()) {
            drop_message(state->pool, held, held.begin());
        }
    }
}

struct Failure {
    mca_btl_base_module_t *btl;
    tessera_proc_t *proc;
    std::string why;
};

/* Failures a btl reported from a thread that was not making a progress pass (a send that found the
 * connection gone, in an application thread): the pass's thread handles them at the end of its pass,
 * since waiting for the gate here could wait for a pass that waits for the btl's lock this thread holds.
 * queues_lock. */
std::vector<Failure> reported;

void handle(const Failure &f)
{
    if (f.proc != nullptr) {
        fail_peer(f.proc);
    }
    /* A rank of MPI_COMM_WORLD is gone: the job cannot go on (fault tolerance is not offered); with
     * MPI_ERRORS_RETURN the failed requests carry the error. */
    std::string who = f.proc != nullptr ? "rank " + std::to_string(f.proc->proc_name.rank) : std::string("a peer");
    raise_on_comm(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI progress",
                  who + " is unreachable over " +
                      (f.btl != nullptr && f.btl->btl_name ? f.btl->btl_name : "the btl") + ": " + f.why);
}

} // namespace

std::atomic<bool> failures_reported{false};

void handle_reported_failures()
{
    std::vector<Failure> now;
    {
        opal::LockGuard lock(queues_lock);
        now.swap(reported);
        failures_reported.store(false, std::memory_order_relaxed);
    }
    for (const Failure &f : now) {
        handle(f);
    }
}

void on_peer_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int, const char *why, void *)
{
    Failure f{btl, proc, why != nullptr ? why : ""};
    if (progress_owned_here()) {
        handle(f);
        return;
    }
    opal::LockGuard lock(queues_lock);
    reported.push_back(std::move(f));
    failures_reported.store(true, std::memory_order_release);
}

} // namespace tessera::ompi::pml
