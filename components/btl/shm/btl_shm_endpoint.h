/*
 * btl shm: the per-peer state (an endpoint) and the module's state. Everything a fragment's path
 * touches in this process sits here, next to the peer: ring positions are kept locally, so that the
 * shared memory is touched only for the slot itself and, when the ring looks full, the peer's tail.
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
#include "components/btl/shm/btl_shm_segment.h"

namespace tessera::ompi::btl_shm {

struct Endpoint {
    tessera_proc_t *proc;
    uint32_t local_rank;
    int32_t pid;

    /* This process -> the peer. */
    RingView out;
    uint64_t head;      /* fragments sent */
    uint64_t tail_seen; /* the peer's tail when last read */
    uint32_t out_index; /* head modulo fifo_depth */

    /* The peer -> this process. */
    RingView in;
    uint64_t in_tail;  /* fragments consumed */
    uint32_t in_index; /* in_tail modulo fifo_depth */

    int pidfd;          /* readable once the peer exited; -1: watched with kill(pid, 0) */
    bool cma;           /* process_vm_readv of the peer's memory works */
    bool gone;          /* reported; sends fail with TESSERA_ERR_UNREACH */
};

struct ModuleState {
    uint32_t me = 0;
    uint32_t local_size = 0;
    uint32_t depth = 0;
    uint64_t stride = 0;
    uint64_t max_fragment = 0;
    Segment *segment = nullptr;
    std::vector<std::unique_ptr<Endpoint>> by_local_rank;
    std::vector<Endpoint *> polled; /* the peers added, in the order progress polls them */

    /* MPI_THREAD_MULTIPLE only: one sender per ring at a time, one thread in progress. */
    bool threaded = false;
    std::mutex send_lock;
    std::atomic<bool> progressing{false};

    /* Liveness of silent peers (btl_shm_peer_check_interval). */
    uint32_t idle_passes = 0;
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
/* Marks the peer gone and reports it (once). */
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
