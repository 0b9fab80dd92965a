/*
 * btl shm: the per-peer state (an endpoint) and the module's state. Positions that only this process
 * moves (its own queue's head, the pool's cursor) are kept here, so that the shared memory is touched
 * only for the cell, the fragment and, when sending, the peer's queue position.
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_ENDPOINT_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_ENDPOINT_H

#include <poll.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "components/btl/shm/btl_shm.h"
#include "components/btl/shm/btl_shm_fast_box.h"
#include "components/btl/shm/btl_shm_segment.h"
#include "opal/threads.h"

namespace tessera::ompi::btl_shm {

struct Endpoint {
    tessera_proc_t *proc = nullptr;
    uint32_t local_rank = 0;
    int32_t pid = 0;

    RegionView peer{}; /* the peer's queue takes what this process sends; its pool holds what it sends here */

    int pidfd = -1;     /* readable once the peer exited; -1: watched with kill(pid, 0) */
    bool cma = false;   /* process_vm_readv of the peer's memory works */
    /* Reported; sends fail with TESSERA_ERR_UNREACH. Set by a progress pass (or a single-copy read)
     * while application threads send: atomic under MPI_THREAD_MULTIPLE, a plain load on x86. */
    std::atomic<bool> gone{false};

    /* Sending to this peer (btl_shm_fast_box.h): the fast box granted to it, else how many more
     * fragments go through its queue before one is asked for (kNoBox: never again). */
    Cell *box = nullptr;
    uint64_t box_next = 0;
    uint32_t until_box = 0;
    int32_t box_index = -1; /* a box taken but not granted yet: the grant waits for room in the queue */
    /* MPI_THREAD_MULTIPLE only: a box has one producer, and the choice between queue and box must not
     * be overtaken by a grant. */
    opal::SpinLock lock;
};

inline constexpr uint32_t kNoBox = ~0u;

struct ModuleState {
    uint32_t me = 0;
    uint32_t local_size = 0;
    uint32_t depth = 0;     /* cells per receive queue */
    uint32_t fragments = 0; /* fragments per pool */
    uint64_t stride = 0;    /* bytes from one fragment to the next */
    uint64_t max_fragment = 0;
    Segment *segment = nullptr;
    RegionView own{};       /* this process's queue and pool */
    /* Cells of the own queue delivered. Written by drain (under progressing); atomic (plain loads and
     * stores on x86) so that progress may look at the head cell before it takes progressing. */
    std::atomic<uint64_t> queue_head{0};
    uint32_t cursor = 0;     /* where the search for a free fragment of the own pool starts */
    std::vector<std::unique_ptr<Endpoint>> by_local_rank;
    std::vector<Endpoint *> polled; /* the peers added, in the order liveness checks go */
    std::vector<uint8_t> removed;   /* by local rank: del_procs let it go; what it still sends is dropped */

    /* Fast boxes (btl_shm_fast_box.h). Out: boxes of the own region handed out so far. In: the boxes
     * granted to this process, at most fast_boxes (the peers reserve a slot in boxes_in first), polled
     * after the queue; inboxes[i] is written before inbox_count (release) counts it in. */
    uint32_t box_after = 0;  /* btl_shm_fast_box_after; 0: never */
    uint32_t fast_boxes = 0;
    uint32_t box_depth = 0;
    std::atomic<uint32_t> boxes_given{0};
    std::unique_ptr<InBox[]> inboxes;
    std::atomic<uint32_t> inbox_count{0};

    /* MPI_THREAD_MULTIPLE only: one sender at a time takes fragments of the own pool (it has one owner);
     * short fragments go straight into the peer's queue, which takes many senders (btl_shm_queue.h).
     * One thread in progress. */
    bool threaded = false;
    std::mutex send_lock;
    std::atomic<bool> progressing{false};

    /* Liveness of silent peers (btl_shm_peer_check_interval). */
    std::atomic<uint32_t> idle_passes{0}; /* counted without progressing: a count lost to a race costs nothing */
    int64_t last_check_ns = 0;
    std::vector<pollfd> watch;

    /* Single copy warnings are said once per process. */
    bool cma_warned = false;
};

ModuleState *module_state();

/* add_procs and del_procs of the module (btl_shm_endpoint.cpp). */
int add_procs(mca_btl_base_module_t *btl, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints);
int del_procs(mca_btl_base_module_t *btl, size_t nprocs, tessera_proc_t *const *procs,
              mca_btl_base_endpoint_t **endpoints);
void release_endpoints(ModuleState *state);

/* Called from progress when nothing arrived: every btl_shm_peer_check_interval, looks whether
 * a peer exited and reports each one once. */
void check_peers(mca_btl_base_module_t *btl, ModuleState *state);
/* Marks the peer gone and reports it (once); takes back the fragments it will never free. */
void peer_gone(mca_btl_base_module_t *btl, Endpoint *e, const char *why);

/* Single copy (btl_shm_single_copy.cpp): whether process_vm_readv of this peer works, tried on the
 * card's probe word; and the module's btl_get. */
bool probe_single_copy(mca_btl_base_module_t *btl, ModuleState *state, Endpoint *e, const Card &card);
int get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, void *local, uint64_t remote_addr,
        size_t len);

inline Endpoint *as_shm(mca_btl_base_endpoint_t *e)
{
    return reinterpret_cast<Endpoint *>(e);
}

} // namespace tessera::ompi::btl_shm

#endif
