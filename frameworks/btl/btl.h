/*
 * btl: byte transfer layer. Layer: ompi (libmpi). Selection: many-of-many — every component whose
 * query accepts runs, and each may create several modules (one per device or per link).
 *
 * A module moves fragments — a header chosen by the layer above plus payload bytes, at most
 * btl_max_send_size in all — to the processes it reaches, and hands each arriving fragment to the
 * receive callback registered for the fragment's tag (active messages: the upper layer says what a
 * tag means, the btl only carries it). The upper layer (pml) decides what goes where from the
 * numbers a module publishes — eager limit, max send size, exclusivity, latency, bandwidth — never
 * from its name. The base (base/base.h) keeps, per peer, the set of modules that reach it in
 * proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL], and schedules fragments of large messages over them.
 *
 * Component: query says whether the component can run here (and its priority, which only orders the
 * modules); btl_init then creates its modules.
 *
 * Wire-up, in MPI_Init's order (everything a component needs is installed with the SDK, in C):
 *   1. register: the component's parameters (mca/var.h: btl_<comp>_<name>, e.g. its exclusivity);
 *   2. btl_init: read this rank's place in the job with tessera_job_info() (ompi/proc/modex.h), open
 *      the transport (a listening socket...) and publish what peers need to reach it — the "address"
 *      — with tessera_modex_put("btl.<comp>", bytes, len). Nothing can be read back before the fence;
 *   3. fence (the MPI layer's);
 *   4. btl_add_procs: for each proc, tessera_modex_get(proc->proc_name.rank, "btl.<comp>", ...) gives
 *      the peer's card (TESSERA_ERR_NOT_FOUND: the component does not run there, so return a NULL
 *      endpoint); the returned endpoints are the registration: the base keeps, per peer, every module
 *      with a non-NULL endpoint (proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL]) and stripes over them;
 *   5. data path: btl_send() carries the tag with the bytes; the receiving module calls
 *      mca_btl_base_deliver() with the sender's proc (the pml needs it) from btl_progress(), which the
 *      base calls on every progress pass of the engine;
 *   6. errors: mca_btl_base_report_error() for a peer that went away, tessera_report() (mca/report.h)
 *      for anything the user must read (a bad parameter: tessera_report_bad_value()).
 */
#ifndef TESSERA_FRAMEWORKS_BTL_BTL_H
#define TESSERA_FRAMEWORKS_BTL_BTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"
#include "ompi/proc/proc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_BTL_BASE_VERSION {1, 1, 0}

/* Exclusivity: for each peer only the modules of the highest exclusivity that reach it are used
 * (unless btl_base_allow_mixed_exclusivity), so that self wins for the own process and shared memory
 * wins over the network on the same host. */
#define MCA_BTL_EXCLUSIVITY_HIGH    65536u /* self */
#define MCA_BTL_EXCLUSIVITY_DEFAULT 1024u  /* shared memory */
#define MCA_BTL_EXCLUSIVITY_LOW     0u     /* networks */

/* Tags: which receive callback a fragment goes to. */
typedef uint8_t mca_btl_base_tag_t;
#define MCA_BTL_TAG_COUNT 256
#define MCA_BTL_TAG_BTL  0x00u /* 0x00-0x3f: the btl framework and its components (connection set-up) */
#define MCA_BTL_TAG_PML  0x40u /* 0x40-0x7f: the point-to-point engine */
#define MCA_BTL_TAG_USER 0x80u /* 0x80-0xff: other layers, tools and tests */

/* Module capabilities (btl_flags). */
#define MCA_BTL_FLAG_SEND 0x1u /* send() and receive callbacks: every module has this */
#define MCA_BTL_FLAG_GET  0x2u /* btl_get(): reads a peer's memory directly (single copy) */

/* A run of bytes: send() gathers its segments into one fragment; a receive callback may see the
 * fragment split differently than the sender gave it. */
typedef struct mca_btl_base_segment {
    const void *seg_addr;
    size_t seg_len;
} mca_btl_base_segment_t;

struct mca_btl_base_module;
typedef struct mca_btl_base_module mca_btl_base_module_t;
/* A module's per-peer state: an incomplete type here; each component casts to its own. */
struct mca_btl_base_endpoint;
typedef struct mca_btl_base_endpoint mca_btl_base_endpoint_t;

/* A fragment as the receiver sees it. Valid only during the callback: copy or unpack what you keep. */
typedef struct mca_btl_base_recv_desc {
    mca_btl_base_endpoint_t *endpoint;     /* the sender's endpoint on this module, or NULL */
    tessera_proc_t *proc;                  /* the sender, or NULL when the module does not know it */
    const mca_btl_base_segment_t *segments; /* the fragment's bytes, in order */
    size_t segment_count;
    mca_btl_base_tag_t tag;
} mca_btl_base_recv_desc_t;

/* Called by a module (from send() or progress()) for each fragment that arrives with the tag. */
typedef void (*mca_btl_base_recv_cb_t)(mca_btl_base_module_t *btl, const mca_btl_base_recv_desc_t *desc,
                                       void *cbdata);

typedef struct mca_btl_base_recv_reg {
    mca_btl_base_recv_cb_t cb;
    void *cbdata;
} mca_btl_base_recv_reg_t;

/* The callbacks per tag, for every module of the process. Indexed on every arriving fragment. */
extern mca_btl_base_recv_reg_t mca_btl_base_recv_table[MCA_BTL_TAG_COUNT];

/*
 * Registers the callback for `tag` (cb NULL removes it). Done by the upper layers at initialisation,
 * before any module progresses. TESSERA_ERR_EXISTS when another callback already holds the tag.
 */
int mca_btl_base_register_recv(mca_btl_base_tag_t tag, mca_btl_base_recv_cb_t cb, void *cbdata);

/* What a module calls for each arriving fragment. TESSERA_ERR_NOT_FOUND: no callback for the tag. */
static inline int mca_btl_base_deliver(mca_btl_base_module_t *btl, const mca_btl_base_recv_desc_t *desc)
{
    const mca_btl_base_recv_reg_t *reg = &mca_btl_base_recv_table[desc->tag];
    if (reg->cb == NULL) {
        return TESSERA_ERR_NOT_FOUND;
    }
    reg->cb(btl, desc, reg->cbdata);
    return TESSERA_SUCCESS;
}

/* send() returns this when the fragment is on its way or delivered and the segments may be reused
 * at once; the done callback is then not called. */
#define MCA_BTL_SEND_COMPLETE 1

/* Called once, from progress(), when a send that returned TESSERA_SUCCESS no longer needs its
 * segments; status is TESSERA_SUCCESS or TESSERA_ERR_UNREACH (the peer went away). */
typedef void (*mca_btl_base_send_done_fn_t)(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                                            void *done_data, int status);

/*
 * Makes the module ready for `nprocs` peers: endpoints[i] receives the module's endpoint for
 * procs[i], or NULL when the module cannot reach it. A proc already added gets the same endpoint.
 * Fails only for resource errors (then nothing was added).
 */
typedef int (*mca_btl_base_add_procs_fn_t)(mca_btl_base_module_t *btl, size_t nprocs,
                                           tessera_proc_t *const *procs, mca_btl_base_endpoint_t **endpoints);

/* Releases the endpoints add_procs returned for these procs (NULL entries are skipped). */
typedef int (*mca_btl_base_del_procs_fn_t)(mca_btl_base_module_t *btl, size_t nprocs,
                                           tessera_proc_t *const *procs, mca_btl_base_endpoint_t **endpoints);

/*
 * Sends one fragment: the concatenation of `segments` (header first, by convention), at most
 * btl_max_send_size bytes in all, to be delivered at the peer to the callback of `tag`. Fragments to
 * one peer through one module arrive in the order they were sent. Returns:
 *   MCA_BTL_SEND_COMPLETE      taken; the segments may be reused now; `done` is not called;
 *   TESSERA_SUCCESS            taken; the module still reads the segments and calls `done` once;
 *   TESSERA_ERR_OUT_OF_RESOURCE not taken now (queues full): progress and try again;
 *   TESSERA_ERR_BAD_PARAM      too large, or no endpoint;
 *   TESSERA_ERR_UNREACH        the peer is gone.
 * A module that delivers inside send() (self) may run receive callbacks before it returns.
 */
typedef int (*mca_btl_base_send_fn_t)(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                                      mca_btl_base_tag_t tag, const mca_btl_base_segment_t *segments,
                                      size_t segment_count, mca_btl_base_send_done_fn_t done,
                                      void *done_data);

/* Moves pending work forward: delivers arrived fragments, completes sends. Returns how many events
 * it handled (0: nothing to do). NULL in a module that finishes everything inside send(). */
typedef int (*mca_btl_base_progress_fn_t)(mca_btl_base_module_t *btl);

/*
 * Single copy (MCA_BTL_FLAG_GET): copies `len` bytes at `remote_addr` in the peer's address space (an
 * address the peer sent in a fragment) into `local`. Synchronous: TESSERA_SUCCESS when the bytes are
 * in place; TESSERA_ERR_NOT_SUPPORTED when this peer's memory cannot be read after all (the kernel
 * refused, e.g. ptrace restrictions) — the caller then moves the data with send() instead, and the
 * module may clear MCA_BTL_FLAG_GET for later calls; TESSERA_ERR_UNREACH when the peer is gone.
 * At most btl_get_limit bytes per call (0: no limit).
 */
typedef int (*mca_btl_base_get_fn_t)(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, void *local,
                                     uint64_t remote_addr, size_t len);

/* Releases the module after all its endpoints were deleted; the module is not used again. */
typedef int (*mca_btl_base_finalize_fn_t)(mca_btl_base_module_t *btl);

struct mca_btl_base_module {
    const struct mca_btl_base_component *btl_component;
    const char *btl_name;      /* for messages: "self", "tcp:eth0:1" */
    size_t btl_eager_limit;    /* largest message the upper layer sends in one fragment, header included */
    size_t btl_max_send_size;  /* largest fragment send() takes, header included */
    uint32_t btl_exclusivity;  /* MCA_BTL_EXCLUSIVITY_* */
    uint32_t btl_latency;      /* one-way latency of a small fragment, nanoseconds (estimate) */
    uint32_t btl_bandwidth;    /* sustained bandwidth, MB/s (estimate; weights striping) */
    uint32_t btl_flags;        /* MCA_BTL_FLAG_* */
    mca_btl_base_add_procs_fn_t btl_add_procs;
    mca_btl_base_del_procs_fn_t btl_del_procs;
    mca_btl_base_send_fn_t btl_send;
    mca_btl_base_progress_fn_t btl_progress;
    mca_btl_base_finalize_fn_t btl_finalize;
    mca_btl_base_get_fn_t btl_get; /* NULL unless MCA_BTL_FLAG_GET */
    size_t btl_get_limit;          /* largest btl_get() call; 0: any */
    void *module_state; /* the component's own */
    void *reserved[6];
};

/*
 * Creates the component's modules after its query accepted: returns an array of *num_modules modules
 * owned by the component (valid until each is finalized and the component closed), or NULL with
 * *num_modules = 0 when it finds nothing to drive after all. enable_mpi_threads (MPI_THREAD_MULTIPLE, or
 * a progress thread): send may be called from several threads at once, concurrently with progress, which
 * one thread at a time calls (the pml's progress gate). Receive callbacks then run in progress only,
 * never inside send; a done callback may also run in the send of another thread. The upper layer calls
 * send holding none of the locks its receive callback takes, so a module may keep its own lock across
 * its callbacks (docs/threads.md has the order).
 */
typedef mca_btl_base_module_t **(*mca_btl_base_init_fn_t)(int *num_modules, bool enable_progress_threads,
                                                          bool enable_mpi_threads);

/*
 * A module that finds a peer gone (connection reset, process exited) says so once per peer, from
 * send() or progress(): the upper layer fails what was in flight to that peer and raises the error on
 * the communicators concerned, so that a job whose rank died ends with an error instead of hanging.
 * `why` is for the message ("connection reset by 127.0.0.2:40211"). Registered by the pml.
 */
typedef void (*mca_btl_base_error_cb_t)(mca_btl_base_module_t *btl, tessera_proc_t *proc, int status,
                                        const char *why, void *cbdata);
void mca_btl_base_register_error(mca_btl_base_error_cb_t cb, void *cbdata);
void mca_btl_base_report_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int status, const char *why);

typedef struct mca_btl_base_component {
    mca_base_component_t base;
    mca_btl_base_init_fn_t btl_init;
    void *reserved[4];
} mca_btl_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
