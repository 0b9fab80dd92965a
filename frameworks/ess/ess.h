/*
 * ess: how a process learns who it is. Layer: orte (libtessera-orte). Selection: one-of-many — the
 * highest-priority component whose query accepts serves the process, from MPI_Init to MPI_Finalize.
 *
 * A component knows one kind of launch: `mpirun` (Tessera's own launcher and its key-value service),
 * `pmix` (any PMIx server: srun --mpi=pmix, ...), `singleton` (no launcher). Its query looks only at
 * the environment (cheap, no connection); the module's init then connects and tells the process its
 * identity: rank, size, local rank and peers, node id, application number, the job's secret key. The
 * module then carries the wire-up exchange — put, commit, fence, get — and the two ends of a rank's
 * life the launcher must hear about, abort and finalize.
 *
 * Component: the generic query (mca_base_component_t.mca_query_component) returns the module in
 * *module, a mca_ess_base_module_t*, valid until the component is closed.
 */
#ifndef TESSERA_FRAMEWORKS_ESS_ESS_H
#define TESSERA_FRAMEWORKS_ESS_ESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_ESS_BASE_VERSION {1, 0, 0}

/* mca_ess_base_identity_t.flags */
/* No launcher: rank 0 of 1, nothing to exchange. */
#define MCA_ESS_IDENTITY_SINGLETON 0x1u
/* The launcher prints ess_abort's message itself, naming the rank (mpirun does; a PMIx server such as
 * Slurm's does not, so the process prints it before it asks). */
#define MCA_ESS_IDENTITY_LAUNCHER_PRINTS_ABORT 0x2u

/* Who this process is, as init fills it. Every string is the module's, valid until finalize. */
typedef struct mca_ess_base_identity {
    uint32_t flags;         /* MCA_ESS_IDENTITY_* */
    /* Names the job's shared-memory objects (/tessera-<jobid>-...) and its procs: two jobs that share
     * a host must differ. 1..2^31-1, 0 for a singleton. */
    uint32_t jobid;
    uint32_t rank;          /* in MPI_COMM_WORLD */
    uint32_t size;
    uint32_t local_rank;    /* among the job's processes on this node */
    uint32_t local_size;
    uint32_t node_id;       /* dense 0..nodes-1: equal node ids, same node */
    uint32_t appnum;        /* application context (MPI_APPNUM) */
    uint32_t universe_size; /* MPI_UNIVERSE_SIZE: at least size */
    /* The ranks on this node in increasing order (this one included), or NULL when the launcher does
     * not say (the node ids of the business cards then decide). */
    const uint32_t *local_peers;
    uint32_t num_local_peers;
    const char *host;       /* the node's name as the launcher knows it; NULL: gethostname() */
    /* 64 hex digits, the secret a transport checks before it trusts a connection ("" for a singleton).
     * Never printed. */
    const char *job_key;
    const char *bind;       /* PUs to bind to ("0,1"), or NULL / "none": leave the binding alone */
    const char *launcher;   /* for messages: "mpirun", "a PMIx server (namespace slurm.pmix.12.0)" */
    void *reserved[4];
} mca_ess_base_identity_t;

typedef struct mca_ess_base_module mca_ess_base_module_t;

/*
 * The module. Every function returns TESSERA_SUCCESS or an error code; on an error, *why (where there
 * is one) receives a message owned by the module (valid until its next call). Calls come from one
 * thread at a time, in this order: init, then puts, commit, fence, gets (any number of rounds), then
 * abort or finalize.
 */
struct mca_ess_base_module {
    /* Connects to the launcher and fills *who. May itself exchange data (pmix: the job key). */
    int (*ess_init)(mca_ess_base_module_t *self, mca_ess_base_identity_t *who, const char **why);
    /* Publishes `key` = data for every rank of the job; visible to others after the next fence. */
    int (*ess_put)(mca_ess_base_module_t *self, const char *key, const void *data, size_t len);
    /* Hands the puts so far to the launcher (PMIx_Commit); a module that sends them with the fence
     * may do nothing. */
    int (*ess_commit)(mca_ess_base_module_t *self);
    /* Waits until every rank of the job has fenced. With `collect`, every rank's puts before the fence
     * are readable with get afterwards; without it the fence is only a barrier. */
    int (*ess_fence)(mca_ess_base_module_t *self, bool collect, const char **why);
    /* What `rank` put under `key` before the last collecting fence. *data is the module's until
     * finalize. TESSERA_ERR_NOT_FOUND when that rank put nothing under the key. */
    int (*ess_get)(mca_ess_base_module_t *self, uint32_t rank, const char *key, const void **data, size_t *len);
    /* Asks the launcher to end the whole job with exit_code, telling it `message` (MPI_Abort). Returns
     * once the launcher has it; the caller then exits. An error: the launcher could not be told. */
    int (*ess_abort)(mca_ess_base_module_t *self, int exit_code, const char *message);
    /* This rank reached MPI_Finalize: tells the launcher and disconnects. */
    int (*ess_finalize)(mca_ess_base_module_t *self);
    void *reserved[4];
};

typedef struct mca_ess_base_component {
    mca_base_component_t base;
    void *reserved[4];
} mca_ess_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
