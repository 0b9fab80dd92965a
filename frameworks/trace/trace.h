/*
 * trace: observers of MPI traffic. Layer: ompi (libmpi). Selection: many-of-many, opt-in — components
 * run only when the `trace` parameter names them (`--mca trace otf2,monitor`); with it unset no
 * module exists and each event costs the binding one predictable branch (base/base.h).
 *
 * The generated bindings report every point-to-point and collective event, under the native
 * engine and under every translator, so that a module sees the application's view: communicator-local
 * ranks, application tags, message sizes in bytes. The events follow OTF2's MPI records (see
 * docs/trace-tool.md for how sends and receives are matched): a module can write them as they come or aggregate them.
 * Events for MPI_PROC_NULL are not reported (no message exists). Hooks may be called from several
 * threads at once (MPI_THREAD_MULTIPLE) and must be cheap: they run on the application's call path.
 *
 * Communicators are named by a process-local 64-bit id, announced by comm_create before any event
 * uses it (MPI_COMM_WORLD and MPI_COMM_SELF included); requests by a process-local 64-bit id unique
 * while the request lives.
 *
 * Version 1.1 added the region hooks and, in the job information, the thread level and the
 * allgather service; a 1.0 component leaves the new hooks NULL and never reads the new fields.
 * Version 1.2 added send_done (in a slot that was reserved: NULL in older components).
 */
#ifndef TESSERA_FRAMEWORKS_TRACE_TRACE_H
#define TESSERA_FRAMEWORKS_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_TRACE_BASE_VERSION {1, 2, 0}

/* Receives rank `rank`'s contribution to an allgather; `data` is valid only during the call. */
typedef void (*mca_trace_base_deliver_fn_t)(void *ctx, int rank, const void *data, size_t size);

/*
 * Gathers `size` bytes from every rank of MPI_COMM_WORLD at every rank: `deliver` is called once per
 * rank, in rank order, before the function returns TESSERA_SUCCESS. Collective: every rank calls it
 * the same number of times in the same order. It never touches the application's messages (it uses
 * mpirun's key-value service, or collectives, which have a context of their own), so a module may call
 * it from trace_init and from trace_finalize (which runs before the MPI library shuts down).
 */
typedef int (*mca_trace_base_allgather_fn_t)(const void *data, size_t size, mca_trace_base_deliver_fn_t deliver,
                                             void *ctx);

/* Who this process is, for modules that name their output or their locations by rank. */
typedef struct mca_trace_base_job_info {
    uint32_t jobid;
    int world_rank;
    int world_size;
    const char *hostname; /* may be NULL */
    mca_trace_base_allgather_fn_t allgather; /* may be NULL (a module alone in its process, unit tests) */
    int thread_level; /* the MPI_THREAD_* level provided: hooks run concurrently only under MULTIPLE */
    void *reserved[2];
} mca_trace_base_job_info_t;

/* Collective operations, as in OTF2's OTF2_CollectiveOp (the same numbering). */
typedef enum mca_trace_base_collective {
    MCA_TRACE_COLL_BARRIER = 0,
    MCA_TRACE_COLL_BCAST = 1,
    MCA_TRACE_COLL_GATHER = 2,
    MCA_TRACE_COLL_GATHERV = 3,
    MCA_TRACE_COLL_SCATTER = 4,
    MCA_TRACE_COLL_SCATTERV = 5,
    MCA_TRACE_COLL_ALLGATHER = 6,
    MCA_TRACE_COLL_ALLGATHERV = 7,
    MCA_TRACE_COLL_ALLTOALL = 8,
    MCA_TRACE_COLL_ALLTOALLV = 9,
    MCA_TRACE_COLL_ALLTOALLW = 10,
    MCA_TRACE_COLL_ALLREDUCE = 11,
    MCA_TRACE_COLL_REDUCE = 12,
    MCA_TRACE_COLL_REDUCE_SCATTER = 13,
    MCA_TRACE_COLL_SCAN = 14,
    MCA_TRACE_COLL_EXSCAN = 15,
    MCA_TRACE_COLL_REDUCE_SCATTER_BLOCK = 16,
    MCA_TRACE_COLL_CREATE_HANDLE = 17,
    MCA_TRACE_COLL_DESTROY_HANDLE = 18,
    MCA_TRACE_COLL_ALLOCATE = 19,
    MCA_TRACE_COLL_DEALLOCATE = 20,
    MCA_TRACE_COLL_CREATE_HANDLE_AND_ALLOCATE = 21,
    MCA_TRACE_COLL_DESTROY_HANDLE_AND_DEALLOCATE = 22
} mca_trace_base_collective_t;

struct mca_trace_base_module;
typedef struct mca_trace_base_module mca_trace_base_module_t;

/*
 * The events. Every hook may be NULL (the module does not care). `peer` is a rank in the
 * communicator (for an intercommunicator, in its remote group), `bytes` the message size in bytes.
 */
typedef struct mca_trace_base_hooks {
    /* A communicator came into existence: `size` ranks, world_ranks[i] the MPI_COMM_WORLD rank of its
     * rank i (for an intercommunicator, of its remote group; NULL when the runtime cannot say), this
     * process is `rank`. The array is valid only during the call. Called again with the same id when
     * the communicator gets a name (MPI_Comm_set_name): the module updates what it knows. */
    void (*comm_create)(mca_trace_base_module_t *m, uint64_t comm_id, const char *name, int size, int rank,
                        const int *world_ranks);
    /* A blocking send (MPI_Send, Ssend, Rsend, Bsend, the send half of Sendrecv) begins. */
    void (*send)(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int tag, uint64_t bytes);
    /* A non-blocking (or persistent, at MPI_Start) send begins; `request_id` names it until complete. */
    void (*isend)(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int tag, uint64_t bytes,
                  uint64_t request_id);
    /* That send completed (Wait/Test found it done). */
    void (*isend_complete)(mca_trace_base_module_t *m, uint64_t request_id);
    /* A non-blocking receive was posted. */
    void (*irecv_request)(mca_trace_base_module_t *m, uint64_t request_id);
    /* That receive completed with a message from `peer` (a wildcard resolved), `bytes` received. */
    void (*irecv)(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int tag, uint64_t bytes,
                  uint64_t request_id);
    /* A blocking receive completed. */
    void (*recv)(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int tag, uint64_t bytes);
    /* A request was cancelled successfully (MPI_Test_cancelled would say so). */
    void (*request_cancelled)(mca_trace_base_module_t *m, uint64_t request_id);
    /* A collective begins, and ends: `root` is a rank of the communicator, or -1 for collectives
     * without a root; bytes_sent / bytes_received: what this rank contributes and gets, as the buffer
     * arguments significant at this rank describe them, once (not per peer; MPI_IN_PLACE: the part of
     * the receive buffer standing for the send buffer counts as sent). A nonblocking collective is
     * reported whole when it starts, a persistent one at each MPI_Start (docs/trace.md). */
    void (*collective_begin)(mca_trace_base_module_t *m);
    void (*collective_end)(mca_trace_base_module_t *m, mca_trace_base_collective_t op, uint64_t comm_id, int root,
                           uint64_t bytes_sent, uint64_t bytes_received);
    /* The calling thread enters and leaves MPI function `function` (its index in the API description,
     * the same in every process of a build), named `name` ("MPI_Send"). Every MPI call after MPI_Init
     * and before MPI_Finalize is a region, and the events above happen inside the region of the call
     * that caused them; regions nest when an application callback calls MPI. */
    void (*region_enter)(mca_trace_base_module_t *m, uint32_t function, const char *name);
    void (*region_leave)(mca_trace_base_module_t *m, uint32_t function, const char *name);
    /* A blocking send (as for `send`) returned MPI_SUCCESS. For a module that only counts messages:
     * its work then follows the message instead of delaying it (a ping-pong's critical path runs
     * from a receive's return to the next send's hand-over, not through the sender's return). */
    void (*send_done)(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int tag, uint64_t bytes);
    void *reserved[5];
} mca_trace_base_hooks_t;

struct mca_trace_base_module {
    const struct mca_trace_base_component *trace_component;
    mca_trace_base_hooks_t hooks;
    /*
     * The end of the run (MPI_Finalize, or the framework's close): writes what the module collected
     * (its file, its archive) and releases it; no hook is called afterwards. A module that cannot write
     * says why (tessera::mca::report) and returns an error, and the run still completes.
     */
    int (*trace_finalize)(mca_trace_base_module_t *m);
    void *module_state; /* the component's own */
    void *reserved[8];
};

/*
 * Creates the component's module for this process after its query accepted, or returns NULL (after
 * reporting why) when it cannot run after all. The module lives until trace_finalize.
 */
typedef mca_trace_base_module_t *(*mca_trace_base_init_fn_t)(const mca_trace_base_job_info_t *job);

typedef struct mca_trace_base_component {
    mca_base_component_t base;
    mca_trace_base_init_fn_t trace_init;
    void *reserved[4];
} mca_trace_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
