/*
 * btl shm: ranks on one host exchange fragments through a shared segment that the host's first local
 * rank creates (docs/btl-shm.md). The segment holds one ring of fixed-size slots per ordered pair of
 * local ranks: the sender alone writes a ring's head, the receiver alone its tail, so a ring needs no
 * lock and no read-modify-write, only store-release/load-acquire. A fragment is copied into a slot by
 * the sender and handed to the receive callback straight from the slot (copy-in, copy-out); large
 * messages become many fragments, the two copies overlapping on two cores.
 */
#ifndef TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_H
#define TESSERA_COMPONENTS_BTL_SHM_BTL_SHM_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "frameworks/btl/btl.h"

extern "C" mca_btl_base_component_t mca_btl_shm_component;

namespace tessera::ompi::btl_shm {

/* How large messages move: copy-in/copy-out through the rings (none), or read by the receiver straight
 * from the sender's memory with process_vm_readv (cma: cross-memory attach, one copy). */
enum SingleCopy { kSingleCopyNone = 0, kSingleCopyCma = 1 };

/* Parameters (btl_shm_*). */
struct Params {
    std::size_t eager_limit = 4096;
    std::size_t max_send_size = 32768; /* slot payload, header included */
    unsigned fifo_depth = 64;          /* slots per ring */
    int single_copy = 0;               /* btl_shm_single_copy: SingleCopy */
    std::size_t get_limit = 0;         /* bytes per process_vm_readv call; 0: any */
    unsigned latency = 200;            /* ns, estimate */
    unsigned bandwidth = 8000;         /* MB/s, estimate */
};
extern Params params;

/* A slot is published by its sequence number: the sender fills it and then stores seq = n + 1 for the
 * n-th fragment of the ring (release); the receiver waits for exactly that value (acquire). The signal
 * and a small fragment (pml header + 8 bytes) share one cache line, so a short message crosses cores
 * as one line. */
struct Slot {
    std::atomic<uint64_t> seq;
    uint32_t length;
    uint8_t tag;
    uint8_t reserved[3];
    /* followed by the payload (max_send_size bytes) */
};

struct alignas(64) Ring {
    std::atomic<uint64_t> head; /* fragments sent; touched by the sender only */
    char pad0[64 - sizeof(std::atomic<uint64_t>)];
    std::atomic<uint64_t> tail; /* fragments consumed; written by the receiver, read by the sender only
                                 * when its cached copy says the ring is full */
    char pad1[64 - sizeof(std::atomic<uint64_t>)];
    /* followed by fifo_depth slots */
};

struct SegmentHeader {
    uint64_t magic;
    uint32_t local_size;
    uint32_t fifo_depth;
    uint64_t slot_size;   /* sizeof(Slot) + payload, rounded to 64 */
    uint64_t ring_size;   /* sizeof(Ring) + fifo_depth * slot_size */
    std::atomic<uint32_t> attached;
};

/* The mapped segment of this host. */
class Segment {
public:
    /* Local rank 0 (before the fence): creates and initializes it. */
    bool create(const std::string &name, uint32_t local_size, std::string *error);
    /* The others (after the fence): map what rank 0 made. */
    bool attach(const std::string &name, std::string *error);
    /* Counts this process in; the last of the host's ranks removes the name, so that nothing is left
     * behind whatever happens later. */
    void joined(const std::string &name);
    void unmap();

    Ring *ring(uint32_t from, uint32_t to) const;
    Slot *slot(Ring *ring, uint64_t index) const;
    const SegmentHeader *header() const { return header_; }
    bool mapped() const { return header_ != nullptr; }

private:
    SegmentHeader *header_ = nullptr;
    std::size_t bytes_ = 0;
};

/* "tessera-<jobid>-shm-<node>": mpirun sweeps tessera-<jobid>-* when a job ends badly. */
std::string segment_name(uint32_t jobid, uint32_t node_id);

mca_btl_base_module_t *module_create(uint32_t local_rank, uint32_t local_size, Segment *segment);
void module_destroy();

/* The component's side, for add_procs (after the fence): maps the host's segment once and counts
 * this process in (false: no segment, the module reaches nobody); a peer's local rank, from its card. */
bool attach_segment();
bool peer_card(const tessera_proc_t *proc, uint32_t *local_rank, int32_t *pid);

} // namespace tessera::ompi::btl_shm

#endif
