/*
 * osc am, synchronisation (MPI-4.1 12.5): fence epochs, passive target (lock, unlock, lock_all,
 * unlock_all, flush, flush_all, flush_local, flush_local_all, sync), and freeing the window.
 *
 * Fence: a reduce-scatter of the requests each process sent to each target in the epoch tells every
 * process how many it is sent; it waits until its progress hook has applied that many, then completes
 * its own sends and replies. Passive target: MPI_Win_lock sends a lock request and waits for its grant
 * (the target's queue answers in order); flush sends a flush request and waits for its acknowledgement,
 * which the target sends after everything the origin sent before it (requests of one origin are applied
 * in order); unlock is a flush that also releases the lock.
 */
#include <algorithm>
#include <atomic>
#include <cstring>

#include "components/osc/am/osc_am.h"
#include "opal/tsan.h"
#include "ompi/datatype/datatype.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::osc_am {

namespace {

const Datatype *byte_type()
{
    static const Datatype *const type = datatype_lookup(MPI_BYTE);
    return type;
}

} // namespace

/* A request without data whose acknowledgement the origin waits for (lock grant, flush, unlock). */
int send_control(Module &m, int target, Kind kind, std::uint64_t count)
{
    Ctl c{};
    c.kind = kind;
    c.count = count;
    c.basic = reinterpret_cast<std::uint64_t>(MPI_DATATYPE_NULL);
    c.op = reinterpret_cast<std::uint64_t>(MPI_OP_NULL);
    return send_ctl(m, target, c, {}, nullptr, 1, nullptr);
}

namespace {

bool any_lock(const Module &m)
{
    if (m.lock_all) {
        return true;
    }
    for (int t : m.lock_type) {
        if (t != 0) {
            return true;
        }
    }
    return false;
}

int complete_all(Module &m)
{
    int rc = MPI_SUCCESS;
    for (int t = 0; t < m.w->size; ++t) {
        if (int e = complete_target(m, t); e != MPI_SUCCESS && rc == MPI_SUCCESS) {
            rc = e;
        }
    }
    return rc;
}

} // namespace

int send_ctl(Module &m, int target, const Ctl &c, std::vector<char> payload, void *reply, std::size_t reply_count,
             const Datatype *reply_type)
{
    std::vector<Pending> &out = m.out[static_cast<std::size_t>(target)];
    if (reply_count != 0) {
        Pending p;
        if (reply == nullptr) { /* an acknowledgement: one byte, into the pending entry's own buffer */
            p.bytes.resize(1);
            reply = p.bytes.data();
            reply_type = byte_type();
            p.role = Pending::Role::Ack;
        } else {
            p.role = Pending::Role::Data;
            p.expect = reply_count * reply_type->size;
        }
        p.r = pml::irecv(reply, reply_count, reply_type, target, kTagReply, m.comm);
        out.push_back(std::move(p));
    }
    Pending h;
    h.bytes.resize(sizeof c);
    std::memcpy(h.bytes.data(), &c, sizeof c);
    h.r = pml::isend(h.bytes.data(), h.bytes.size(), byte_type(), target, kTagCtl, m.comm);
    out.push_back(std::move(h)); /* a moved vector keeps its bytes where the send reads them */
    if (!payload.empty()) {
        Pending d;
        d.bytes = std::move(payload);
        d.r = pml::isend(d.bytes.data(), d.bytes.size(), byte_type(), target, kTagPayload, m.comm);
        out.push_back(std::move(d));
    }
    if (c.fence != 0) {
        ++m.requests_to[static_cast<std::size_t>(target)];
    }
    if (reply_count == 0) {
        m.unanswered[static_cast<std::size_t>(target)] = true;
    }
    return MPI_SUCCESS;
}

int complete_target(Module &m, int target)
{
    std::vector<Pending> &out = m.out[static_cast<std::size_t>(target)];
    int rc = MPI_SUCCESS;
    for (Pending &p : out) {
        pml::wait_for(p.r);
        if (p.r->status.MPI_ERROR != MPI_SUCCESS && rc == MPI_SUCCESS) {
            rc = p.r->status.MPI_ERROR;
        }
        /* A dynamic window's target refused an operation outside its regions. */
        const bool refused = (p.role == Pending::Role::Ack && p.bytes[0] != 0) ||
                             (p.role == Pending::Role::Data && pml::status_count(&p.r->status) < p.expect);
        if (refused && rc == MPI_SUCCESS) {
            rc = MPI_ERR_RMA_RANGE;
        }
    }
    if (m.tracked_count.load(std::memory_order_acquire) != 0) { /* before their replies are released */
        const opal::LockGuard guard(m.tracked_lock);
        finish_tracked(m, target);
    }
    for (Pending &p : out) {
        pml::request_release(p.r);
    }
    out.clear();
    m.unanswered[static_cast<std::size_t>(target)] = false;
    return rc;
}

int fence(int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (any_lock(m) || m.access_open || m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    if (m.dynamic) { /* an acknowledgement after the epoch's puts and accumulates tells of refused ones */
        for (int t = 0; t < m.w->size; ++t) {
            if (m.unanswered[static_cast<std::size_t>(t)]) {
                send_control(m, t, Kind::Flush, 0);
            }
        }
    }
    int expected = 0;
    if (int rc = native::reduce_scatter_block_c(m.requests_to.data(), &expected, 1, MPI_INT, MPI_SUM, m.w->comm);
        rc != MPI_SUCCESS) {
        return rc;
    }
    wait_applied(m, m.epoch & 1u, static_cast<std::uint64_t>(expected));
    const int rc = complete_all(m);
    std::fill(m.requests_to.begin(), m.requests_to.end(), 0);
    ++m.epoch;
    m.exposure.store(m.epoch, std::memory_order_release);
    m.epoch_open = (assert & MPI_MODE_NOSUCCEED) == 0;
    return rc;
}

int lock(int lock_type, int target, int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    const auto t = static_cast<std::size_t>(target);
    if (m.lock_all || m.lock_type[t] != 0 || m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    m.nocheck[t] = (assert & MPI_MODE_NOCHECK) != 0;
    if (!m.nocheck[t]) {
        send_control(m, target, Kind::Lock, static_cast<std::uint64_t>(lock_type));
        if (int rc = complete_target(m, target); rc != MPI_SUCCESS) {
            return rc;
        }
    }
    m.lock_type[t] = lock_type;
    return MPI_SUCCESS;
}

int unlock(int target, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    const auto t = static_cast<std::size_t>(target);
    if (m.lock_all || m.lock_type[t] == 0) {
        return MPI_ERR_RMA_SYNC;
    }
    send_control(m, target, m.nocheck[t] ? Kind::Flush : Kind::Unlock, 0);
    m.lock_type[t] = 0;
    return complete_target(m, target);
}

int lock_all(int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (any_lock(m) || m.access_open) {
        return MPI_ERR_RMA_SYNC;
    }
    const bool nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    for (int t = 0; t < m.w->size; ++t) {
        m.nocheck[static_cast<std::size_t>(t)] = nocheck;
        if (!nocheck) {
            send_control(m, t, Kind::Lock, MPI_LOCK_SHARED);
        }
    }
    const int rc = complete_all(m);
    m.lock_all = rc == MPI_SUCCESS;
    return rc;
}

int unlock_all(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all) {
        return MPI_ERR_RMA_SYNC;
    }
    for (int t = 0; t < m.w->size; ++t) {
        send_control(m, t, m.nocheck[static_cast<std::size_t>(t)] ? Kind::Flush : Kind::Unlock, 0);
    }
    m.lock_all = false;
    return complete_all(m);
}

/* Flush waits for the target's acknowledgement of everything before it; flush_local (local
 * completion only) is served by the same, stronger, wait. */
int flush(int target, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all && m.lock_type[static_cast<std::size_t>(target)] == 0) {
        return MPI_ERR_RMA_SYNC;
    }
    /* When everything sent since the last completion has a reply, the replies say it was applied. */
    if (m.unanswered[static_cast<std::size_t>(target)]) {
        send_control(m, target, Kind::Flush, 0);
    }
    return complete_target(m, target);
}

int flush_all(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!any_lock(m)) {
        return MPI_ERR_RMA_SYNC;
    }
    for (int t = 0; t < m.w->size; ++t) {
        if (m.unanswered[static_cast<std::size_t>(t)]) {
            send_control(m, t, Kind::Flush, 0);
        }
    }
    return complete_all(m);
}

/* Local completion (MPI-4.1 12.5.4): a put's or accumulate's origin data was packed into its request
 * when the call was made, so the origin buffers are reusable already; what remains is the data of gets
 * and fetching operations, which must have arrived. The target's acknowledgement is not waited for (the
 * next flush or unlock asks for it). Sends that completed meanwhile are released, so that a long epoch
 * of flush_local calls does not keep every payload. */
int flush_local_target(Module &m, int target)
{
    std::vector<Pending> &out = m.out[static_cast<std::size_t>(target)];
    for (Pending &p : out) {
        if (p.role == Pending::Role::Data) {
            pml::wait_for(p.r);
        }
    }
    std::erase_if(out, [](Pending &p) {
        if (p.role != Pending::Role::Send || !p.r->complete) {
            return false;
        }
        const bool failed = p.r->status.MPI_ERROR != MPI_SUCCESS;
        if (!failed) {
            pml::request_release(p.r);
        }
        return !failed; /* a failed send stays for the flush to report */
    });
    return MPI_SUCCESS;
}

int flush_local(int target, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.lock_all && m.lock_type[static_cast<std::size_t>(target)] == 0) {
        return MPI_ERR_RMA_SYNC;
    }
    return flush_local_target(m, target);
}

int flush_local_all(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!any_lock(m)) {
        return MPI_ERR_RMA_SYNC;
    }
    for (int t = 0; t < m.w->size; ++t) {
        flush_local_target(m, t);
    }
    return MPI_SUCCESS;
}

/* The window's memory is the process's own (the unified model): a full memory barrier orders this
 * process's loads and stores against what the hook applied. */
int win_sync(tessera_win *, mca_osc_base_module_t *)
{
    opal::full_fence();
    return MPI_SUCCESS;
}

/* Once every process is here, no operation targets this one's memory any more. */
int free_window(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (any_lock(m) || m.access_open || m.exposure_open) {
        return MPI_ERR_RMA_SYNC;
    }
    for (const auto &out : m.out) {
        if (!out.empty()) {
            return MPI_ERR_RMA_SYNC;
        }
    }
    if (int rc = native::barrier(m.w->comm); rc != MPI_SUCCESS) {
        return rc;
    }
    listen_stop(m);
    delete &m;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_am
