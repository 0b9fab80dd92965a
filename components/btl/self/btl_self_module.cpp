/* btl self: the module. A fragment to the own process is handed to the receive callback inside send()
 * — the sender's own segments, no copy — so there is nothing left to progress. Under
 * MPI_THREAD_MULTIPLE it is copied and handed over by progress() instead: receive callbacks then run in
 * the upper layer's progress pass, as over every other transport, never inside a send that an
 * application thread makes while it holds the upper layer's locks (btl.h). */
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "components/btl/self/btl_self.h"
#include "mca/report.h"

namespace tessera::ompi::btl_self {
namespace {

/* Nothing limits a copy within one process; the bound only keeps the upper layer's size sums far
 * from overflow. */
constexpr size_t kLimit = SIZE_MAX / 4;

struct SelfEndpoint {
    tessera_proc_t *proc;
};

/* A fragment waiting for progress() (threaded only). */
struct Queued {
    mca_btl_base_endpoint_t *endpoint;
    mca_btl_base_tag_t tag;
    std::vector<char> bytes;
};

struct State {
    std::mutex mutex; /* endpoints: add/del may come from different threads (communicator creation) */
    std::map<tessera_proc_t *, std::unique_ptr<SelfEndpoint>> endpoints;

    bool threaded = false;
    std::mutex queue_mutex;
    std::vector<Queued> queue;      /* in send order */
    std::vector<Queued> draining;   /* what progress() hands over now (one progress call at a time) */
    bool draining_busy = false;     /* a callback of that call progresses again (it then uses its own) */
    std::vector<std::vector<char>> spare; /* buffers of delivered fragments, reused */
    std::atomic<bool> queued{false};
};

std::unique_ptr<State> state;

SelfEndpoint *as_self(mca_btl_base_endpoint_t *endpoint) { return reinterpret_cast<SelfEndpoint *>(endpoint); }

int add_procs(mca_btl_base_module_t *, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints)
{
    std::lock_guard lock(state->mutex);
    for (size_t i = 0; i < nprocs; ++i) {
        endpoints[i] = nullptr;
        if (procs[i] == nullptr || (procs[i]->proc_flags & TESSERA_PROC_IS_SELF) == 0) {
            continue;
        }
        auto &slot = state->endpoints[procs[i]];
        if (!slot) {
            slot = std::make_unique<SelfEndpoint>(SelfEndpoint{procs[i]});
        }
        endpoints[i] = reinterpret_cast<mca_btl_base_endpoint_t *>(slot.get());
    }
    return TESSERA_SUCCESS;
}

int del_procs(mca_btl_base_module_t *, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints)
{
    std::lock_guard lock(state->mutex);
    for (size_t i = 0; i < nprocs; ++i) {
        if (endpoints[i] != nullptr) {
            state->endpoints.erase(procs[i]);
        }
    }
    return TESSERA_SUCCESS;
}

/* Only a bug in the layer above sends a tag nobody listens to; say so rather than lose it. */
void dropped(size_t total, mca_btl_base_tag_t tag)
{
    tessera::mca::report(tessera::mca::Severity::Error,
                         "btl self: fragment of " + std::to_string(total) + " bytes with tag " + std::to_string(tag) +
                             " dropped: no receive callback is registered for it");
}

int send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
         const mca_btl_base_segment_t *segments, size_t segment_count, mca_btl_base_send_done_fn_t,
         void *)
{
    if (endpoint == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    size_t total = 0;
    for (size_t i = 0; i < segment_count; ++i) {
        total += segments[i].seg_len;
    }
    if (total > btl->btl_max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (state->threaded) {
        std::lock_guard lock(state->queue_mutex);
        std::vector<char> bytes;
        if (!state->spare.empty()) {
            bytes = std::move(state->spare.back());
            state->spare.pop_back();
        }
        bytes.clear();
        for (size_t i = 0; i < segment_count; ++i) {
            const auto *p = static_cast<const char *>(segments[i].seg_addr);
            bytes.insert(bytes.end(), p, p + segments[i].seg_len);
        }
        state->queue.push_back(Queued{endpoint, tag, std::move(bytes)});
        state->queued.store(true, std::memory_order_release);
        return MCA_BTL_SEND_COMPLETE;
    }
    mca_btl_base_recv_desc_t desc{};
    desc.endpoint = endpoint;
    desc.proc = as_self(endpoint)->proc;
    desc.segments = segments;
    desc.segment_count = segment_count;
    desc.tag = tag;
    if (mca_btl_base_deliver(btl, &desc) != TESSERA_SUCCESS) {
        dropped(total, tag);
        return TESSERA_ERR_NOT_FOUND;
    }
    return MCA_BTL_SEND_COMPLETE;
}

/* Threaded only: hands over what was sent, in order; what callbacks send meanwhile waits for the next
 * call, so that one call ends. The upper layer has one thread in progress at a time. */
[[gnu::noinline]] int deliver_queued(mca_btl_base_module_t *btl)
{
    /* Swapped, not moved: both vectors keep their capacity, so that a steady stream of fragments
     * allocates nothing. */
    const bool nested = state->draining_busy;
    std::vector<Queued> own;
    std::vector<Queued> &now = nested ? own : state->draining;
    state->draining_busy = true;
    {
        std::lock_guard lock(state->queue_mutex);
        now.swap(state->queue);
        state->queued.store(false, std::memory_order_relaxed);
    }
    int events = 0;
    for (Queued &q : now) {
        const mca_btl_base_segment_t segment{q.bytes.data(), q.bytes.size()};
        mca_btl_base_recv_desc_t desc{};
        desc.endpoint = q.endpoint;
        desc.proc = as_self(q.endpoint)->proc;
        desc.segments = &segment;
        desc.segment_count = 1;
        desc.tag = q.tag;
        if (mca_btl_base_deliver(btl, &desc) != TESSERA_SUCCESS) {
            dropped(q.bytes.size(), q.tag);
        }
        ++events;
    }
    std::lock_guard lock(state->queue_mutex);
    for (Queued &q : now) {
        state->spare.push_back(std::move(q.bytes));
    }
    now.clear();
    state->draining_busy = nested;
    return events;
}

int progress(mca_btl_base_module_t *btl)
{
    if (!state->queued.load(std::memory_order_acquire)) {
        return 0;
    }
    return deliver_queued(btl);
}

int finalize(mca_btl_base_module_t *)
{
    std::lock_guard lock(state->mutex);
    state->endpoints.clear();
    return TESSERA_SUCCESS;
}

mca_btl_base_module_t self_module = {
    .btl_component = &mca_btl_self_component,
    .btl_name = "self",
    .btl_eager_limit = kLimit,
    .btl_max_send_size = kLimit,
    .btl_exclusivity = MCA_BTL_EXCLUSIVITY_HIGH,
    .btl_latency = 0,
    .btl_bandwidth = 100000, /* a memcpy-bound estimate; self is never striped with another module */
    .btl_flags = MCA_BTL_FLAG_SEND,
    .btl_add_procs = add_procs,
    .btl_del_procs = del_procs,
    .btl_send = send,
    .btl_progress = nullptr,
    .btl_finalize = finalize,
    .btl_get = nullptr,
    .btl_get_limit = 0,
    .module_state = nullptr,
    .reserved = {},
};

} // namespace

mca_btl_base_module_t *module_create(bool threaded)
{
    if (!state) {
        state = std::make_unique<State>();
    }
    state->threaded = threaded;
    /* Unthreaded, nothing is left to progress: no call in every progress pass. */
    self_module.btl_progress = threaded ? progress : nullptr;
    self_module.module_state = state.get();
    return &self_module;
}

void module_destroy()
{
    self_module.module_state = nullptr;
    state.reset();
}

} // namespace tessera::ompi::btl_self
