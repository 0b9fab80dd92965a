/* The receiver's side: posting a receive (or taking an unexpected message), delivering a matched
 * message (an eager one at once, a rendezvous request answered with a CTS or read in one copy), and
 * cancelling (docs/p2p.md). */
#include "ompi/pml/pml_engine_private.h"

#include <algorithm>
#include <cstring>

#include "ompi/datatype/datatype_derived.h"
#include "ompi/pml/pml_contention.h"
#include "ompi/pml/pml_peer_order.h"

namespace tessera::ompi::pml {

namespace {

/* Single copy: reads the sender's data (its address follows the RTS) straight into the receive
 * buffer through the peer's only module, in pieces of btl_get_limit. False when the module cannot
 * (then the fragments protocol follows). */
bool pull(Request *r, tessera_proc_t *proc, const char *data, std::size_t keep)
{
    mca_btl_base_peer_t *peer = mca_btl_base_peer(proc);
    if (peer == nullptr || peer->count != 1) {
        return false;
    }
    mca_btl_base_module_t *m = peer->modules[0].btl;
    if ((m->btl_flags & MCA_BTL_FLAG_GET) == 0 || m->btl_get == nullptr) {
        return false;
    }
    uint64_t address = 0;
    std::memcpy(&address, data, sizeof address);
    char *dst = static_cast<char *>(r->rbuf) + r->type->true_lb;
    const std::size_t piece = m->btl_get_limit != 0 ? m->btl_get_limit : keep;
    for (std::size_t done = 0; done < keep;) {
        const std::size_t n = std::min(piece, keep - done);
        if (m->btl_get(m, peer->modules[0].endpoint, dst + done, address + done, n) != TESSERA_SUCCESS) {
            return false;
        }
        done += n;
    }
    r->delivered = r->msg_bytes;
    return true;
}

} // namespace

/* A receive meets its message: deliver an eager one, answer a rendezvous request. */
void deliver(Request *r, const MatchHeader &h, tessera_proc_t *proc, const char *data, Ownership ownership)
{
    r->matched = true;
    r->status.MPI_SOURCE = h.source;
    r->status.MPI_TAG = h.tag;
    r->msg_bytes = static_cast<std::size_t>(h.length);
    const std::size_t keep = std::min(r->msg_bytes, r->bytes);
    status_set_count(&r->status, keep);
    if (r->msg_bytes > r->bytes) {
        r->status.MPI_ERROR = MPI_ERR_TRUNCATE;
    } else if (r->msg_bytes < r->bytes && datatype_elements_in(r->type, r->msg_bytes) < 0) {
        /* The sender's type signature is not a prefix of the receiver's (MPI-4.1 3.3.1): caught where
         * it shows, a message that stops inside a basic element. */
        r->status.MPI_ERROR = MPI_ERR_TYPE;
    }
    if (h.type == FragType::Eager) {
        convertor_unpack(r->rbuf, r->count, *r->type, 0, data, keep);
        if (ownership == Ownership::Owned) {
            complete_owned(r);
        } else {
            complete(r);
        }
        return;
    }
    r->proc = proc;
    /* Under auto an offer is only an option: read when the sender said it waits for its CPU or this
     * process does, since the rings would stall; otherwise streaming is faster here (docs/p2p.md). */
    const bool read = (h.flags & kRtsAddress) != 0 &&
                      (params.single_copy != kSingleCopyAuto || (h.flags & kRtsContended) != 0 || cpu_contended());
    if (read && keep > 0 && r->type->contiguous && pull(r, proc, data, keep)) {
        /* The data is in place: the CTS only tells the sender it may complete. */
        CtsHeader done{FragType::Cts, {}, h.sender, 0};
        if (send_control(proc, &done, sizeof done, nullptr, 0, nullptr) != TESSERA_SUCCESS) {
            fail(r, MPI_ERR_OTHER);
            return;
        }
        complete(r);
        return;
    }
    /* Waiting for the data from here on (the CTS may bring it at once over self). */
    const bool data_follows = r->msg_bytes > 0;
    if (data_follows) {
        opal::LockGuard lock(queues_lock);
        receiving.push_back(r);
    }
    CtsHeader cts{FragType::Cts, {}, h.sender, reinterpret_cast<uint64_t>(r)};
    handed_to_peer(r);
    const int rc = send_control(proc, &cts, sizeof cts, nullptr, 0, nullptr);
    if (rc != TESSERA_SUCCESS) {
        if (data_follows) {
            opal::LockGuard lock(queues_lock);
            if (!receiving.contains(r)) {
                return; /* a failing peer failed it meanwhile */
            }
            receiving.erase(r);
        }
        fail(r, MPI_ERR_OTHER);
        return;
    }
    if (!data_follows) {
        complete(r);
    }
}

int start_recv(Request *r)
{
    r->bytes = r->count * r->type->size;
    restart(r);
    auto *state = static_cast<CommState *>(r->comm->pml);
    MessageList taken;
    {
        std::lock_guard lock(state->lock);
        for (auto it = state->unexpected.begin(); it != state->unexpected.end(); ++it) {
            if (matches(r, it->header.source, it->header.tag)) {
                taken.splice(taken.begin(), state->unexpected, it);
                break;
            }
        }
        if (taken.empty()) {
            state->posted.push_back(r);
            state->posted_hwm = std::max(state->posted_hwm, state->posted.size);
            return MPI_SUCCESS;
        }
    }
    /* Delivered outside the lock: answering a rendezvous sends a CTS, and a btl may hand fragments to a
     * progress pass under its own lock (btl tcp), which then waits for this communicator's. */
    const KeptMessage &m = taken.front();
    deliver(r, m.header, m.proc, m.data.data(), Ownership::Owned);
    std::lock_guard lock(state->lock);
    drop_message(state->pool, taken, taken.begin());
    return MPI_SUCCESS;
}

bool cancel_recv(Request *r)
{
    auto *state = static_cast<CommState *>(r->comm->pml);
    {
        /* Matched or not is decided under the lock: a receive leaves the posted queue only under it. */
        std::lock_guard lock(state->lock);
        if (r->complete || r->matched || !state->posted.contains(r)) {
            return false;
        }
        state->posted.erase(r);
    }
    r->cancelled = true;
    status_set_cancelled(&r->status, true);
    complete(r);
    return true;
}

} // namespace tessera::ompi::pml
