/*
 * btl shm: ranks on one host exchange fragments through a shared segment that the host's first local
 * rank creates (docs/btl-shm.md). Declarations shared by the component's files: the parameters, the
 * business card, and the calls between component, module, endpoints and single copy.
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "frameworks/btl/base/base.h"
#include "frameworks/btl/btl.h"

extern "C" mca_btl_base_component_t mca_btl_shm_component;

namespace tessera::ompi::btl_shm {

/* btl_shm_single_copy: how a receiver may read a large message. auto and cma both read the sender's
 * buffer with process_vm_readv (cross-memory attach) where the kernel allows it; cma also warns when
 * it does not. none moves everything through the fragments (copy-in, copy-out). */
enum SingleCopy { kSingleCopyAuto = 0, kSingleCopyCma = 1, kSingleCopyNone = 2 };

/* Parameters (btl_shm_*); defaults, chosen by measurement on the 2-core VMs (docs/btl-shm.md), and
 * ranges are in the rows of register_params. */
struct Params {
    mca_btl_base_common_params_t common; /* max_send_size: one fragment, pml header included */
    unsigned fifo_depth;                 /* cells in each local rank's receive queue */
    unsigned fragments;                  /* fragments in each local rank's pool */
    int single_copy;                     /* SingleCopy, offered; the pml uses it for exchanges (pml_single_copy) */
    std::size_t get_limit;               /* bytes per btl_get call; 0: any */
    double peer_check_interval;          /* s between liveness checks of silent peers; 0: never */
    bool unnamed;                        /* the host segment is a memfd of local rank 0, not a /dev/shm name */
    unsigned fast_box_after;             /* fragments to a peer through its queue before a fast box; 0: never */
    unsigned fast_boxes;                 /* fast boxes each rank may grant, and may be granted */
    unsigned fast_box_depth;             /* cells per fast box, a power of two */
};
extern Params params;

/* The card each rank puts under "btl.shm": who it is on the host, and a word of its memory with a
 * known value that a peer reads with process_vm_readv to learn whether single copy works between them.
 * Local rank 0's also says where its unnamed segment is (/proc/<pid>/fd/<n>; empty: named). */
struct Card {
    uint32_t local_rank;
    int32_t pid;
    uint64_t probe_address;
    uint64_t probe_value;
    char segment_path[40];
};
inline constexpr const char *kCardKey = "btl.shm";

/* This process's probe word and its value (set at btl_init). */
uint64_t probe_address();
uint64_t probe_value();

/* "/tessera-<jobid>-shm-<node>": mpirun sweeps tessera-<jobid>-* when a job ends badly. */
std::string segment_name(uint32_t jobid, uint32_t node_id);

/* The component's side, for the module's add_procs (after the fence): maps the host's segment once
 * (`path`: local rank 0's card's segment_path) and counts this process in. Null when there is none to
 * use (the error was reported). */
class Segment;
Segment *attached_segment(const char *path);

/* A peer's card; false when it put none or a malformed one. */
bool peer_card(const tessera_proc_t *proc, Card *card);

/* The one module of the process (btl_shm_module.cpp). */
mca_btl_base_module_t *module_create(uint32_t local_rank, uint32_t local_size, bool threaded);
void module_destroy();

} // namespace tessera::ompi::btl_shm

#endif
