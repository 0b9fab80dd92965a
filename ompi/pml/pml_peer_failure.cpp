/* A peer that is gone (the btl's error callback): everything that involves it fails, and the job
 * cannot go on (docs/p2p.md, failures). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <string>

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::pml {

namespace {

/* Fails what involves a peer that is gone: sends to it and receives matched to it (or naming it as
 * their source), control fragments still queued for it, fragments of it held for their turn. */
void fail_peer(tessera_proc_t *proc)
{
    const auto fail_in = [proc](RequestList &list) {
        for (Request *r = list.head; r != nullptr;) {
            Request *next = r->next;
            if (r->proc == proc) {
                if (&list == &active_sends && r->in_flight > 0) {
                    /* The transport still owes the done callbacks; progress_sends completes it. */
                    r->status.MPI_ERROR = MPI_ERR_OTHER;
                    r->scheduled = r->bytes;
                } else {
                    list.erase(r);
                    fail(r, MPI_ERR_OTHER);
                }
            }
            r = next;
        }
    };
    fail_in(awaiting_cts);
    fail_in(active_sends);
    fail_in(receiving);
    for (auto it = pending.begin(); it != pending.end();) {
        if (it->proc == proc) {
            if (it->completes != nullptr) {
                fail(it->completes, MPI_ERR_OTHER);
            }
            it = pending.erase(it);
        } else {
            ++it;
        }
    }
    for (CommState *state : states_by_context) {
        if (state == nullptr) {
            continue;
        }
        const auto &procs = state->comm->peers();
        const auto found = std::find(procs.begin(), procs.end(), proc);
        if (found == procs.end()) {
            continue;
        }
        const int rank = static_cast<int>(found - procs.begin());
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
            drop_message(held, held.begin());
        }
    }
}

} // namespace

void on_peer_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int, const char *why, void *)
{
    if (proc != nullptr) {
        fail_peer(proc);
    }
    /* A rank of MPI_COMM_WORLD is gone: the job cannot go on (fault tolerance is not offered); with
     * MPI_ERRORS_RETURN the failed requests carry the error. */
    std::string who = proc != nullptr ? "rank " + std::to_string(proc->proc_name.rank) : std::string("a peer");
    raise_on_comm(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI progress",
                  who + " is unreachable over " + (btl != nullptr && btl->btl_name ? btl->btl_name : "the btl") +
                      ": " + why);
}

} // namespace tessera::ompi::pml
