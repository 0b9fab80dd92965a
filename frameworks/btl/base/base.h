/*
 * btl base: the framework declaration, the selected modules, and per peer the set of modules that
 * reach it (the "endpoint set", stored in proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL]) with the
 * schedule that stripes a large message's fragments over them (docs/architecture.md, "The path of
 * a message").
 */
#ifndef TESSERA_FRAMEWORKS_BTL_BASE_BASE_H
#define TESSERA_FRAMEWORKS_BTL_BASE_BASE_H

#include "frameworks/btl/btl.h"
#include "mca/framework.h"
#include "mca/var.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_btl_base_framework;

/* btl_base_striping: how fragments of one message are spread over a peer's modules. */
typedef enum mca_btl_base_striping {
    MCA_BTL_BASE_STRIPING_ROUND_ROBIN = 0, /* one fragment per module in turn */
    MCA_BTL_BASE_STRIPING_WEIGHTED = 1     /* in proportion to each module's bandwidth */
} mca_btl_base_striping_t;

/* Parameter storage (registered by the framework). */
extern int mca_btl_base_striping;                /* mca_btl_base_striping_t */
extern bool mca_btl_base_allow_mixed_exclusivity; /* keep lower-exclusivity modules in endpoint sets */

/*
 * The parameters every transport has, btl_<component>_<name>, registered and checked by the base from
 * what the component says about each (as Open MPI's btl_base_mca.c does), so that they mean the same
 * in every component and it repeats neither their rows nor their checks.
 */
typedef struct mca_btl_base_param_spec {
    const char *default_value; /* as in a parameter row (mca/var.h) */
    const char *min;           /* NULL: unbounded */
    const char *max;
    const char *help; /* NULL: the base's text */
    mca_var_info_level_t level;
} mca_btl_base_param_spec_t;

typedef struct mca_btl_base_common_specs {
    mca_btl_base_param_spec_t eager_limit; /* and at most max_send_size, whatever its max says */
    mca_btl_base_param_spec_t max_send_size;
    mca_btl_base_param_spec_t latency;
    mca_btl_base_param_spec_t bandwidth;
} mca_btl_base_common_specs_t;

/* Their values, as a module takes them (btl_eager_limit, ...). */
typedef struct mca_btl_base_common_params {
    size_t eager_limit;
    size_t max_send_size;
    unsigned latency;   /* ns */
    unsigned bandwidth; /* MB/s */
} mca_btl_base_common_params_t;

/* Registers btl_<component>_{eager_limit,max_send_size,latency,bandwidth} into `params` (the
 * component's register_params). TESSERA_SUCCESS or the registration's error. */
int mca_btl_base_register_common(const char *component, const mca_btl_base_common_specs_t *specs,
                                 mca_btl_base_common_params_t *params);

/* What the rows' ranges cannot say, as the component opens: the eager limit above the largest
 * fragment. Reported as an error naming the parameter; TESSERA_SUCCESS or TESSERA_ERR_BAD_PARAM. */
int mca_btl_base_check_common(const char *component, const mca_btl_base_common_params_t *params);

/* The most modules one peer's endpoint set holds; further ones (slowest first) are released. */
#define MCA_BTL_BASE_MAX_PEER_MODULES 32

typedef struct mca_btl_base_peer_module {
    mca_btl_base_module_t *btl;
    mca_btl_base_endpoint_t *endpoint;
} mca_btl_base_peer_module_t;

/* The modules that reach one peer, lowest latency first (then highest bandwidth): modules[0]
 * carries eager messages and the first fragment of large ones. */
typedef struct mca_btl_base_peer {
    size_t count;
    uint32_t exclusivity; /* the highest exclusivity among them */
    uint32_t reserved;
    mca_btl_base_peer_module_t modules[MCA_BTL_BASE_MAX_PEER_MODULES];
} mca_btl_base_peer_t;

/*
 * Queries the open framework's components (select_many), creates their modules (btl_init) and keeps
 * them, highest exclusivity first. Call once after tessera::mca::framework_open; the framework's
 * close releases everything. TESSERA_ERR_EXISTS when already selected.
 */
int tessera_btl_base_select(bool enable_progress_threads, bool enable_mpi_threads);

size_t mca_btl_base_module_count(void);
mca_btl_base_module_t *mca_btl_base_module_at(size_t index); /* NULL past the end */

/*
 * Offers the procs to every module and stores each reachable proc's endpoint set in its BTL slot.
 * Modules of lower exclusivity than the best one reaching a peer are released for that peer unless
 * btl_base_allow_mixed_exclusivity. A proc already added keeps its set. Returns TESSERA_ERR_UNREACH
 * (after reporting which procs) when some proc is reached by no module; the others are still added.
 */
int mca_btl_base_add_procs(tessera_proc_t *const *procs, size_t nprocs);

/* Releases the procs' endpoints in every module and clears their BTL slots. */
int mca_btl_base_del_procs(tessera_proc_t *const *procs, size_t nprocs);

/* The endpoint set of a proc, or NULL when it was not added or is unreachable. */
static inline mca_btl_base_peer_t *mca_btl_base_peer(const tessera_proc_t *proc)
{
    return (mca_btl_base_peer_t *)proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL];
}

/* Calls every module's progress function; returns the sum of the events they handled. */
int mca_btl_base_progress(void);

/* Where the next fragment of one message goes: the schedule of that message (one per message, on the
 * sender's stack or in its request; no allocation). */
typedef struct mca_btl_base_stripe {
    int mode; /* mca_btl_base_striping_t, fixed at init */
    uint32_t next;
    int64_t credit[MCA_BTL_BASE_MAX_PEER_MODULES];
} mca_btl_base_stripe_t;

/* Starts the schedule of a message to `peer` in the mode btl_base_striping says now. */
void mca_btl_base_stripe_init(mca_btl_base_stripe_t *stripe, const mca_btl_base_peer_t *peer);

/*
 * Index in peer->modules of the module for the next fragment. Round-robin takes each in turn;
 * weighted is a smooth weighted round-robin by bandwidth: in every run of (sum of bandwidths / their
 * greatest common divisor) fragments each module gets exactly its share, spread through the run
 * rather than in one burst, so that every link stays busy.
 */
size_t mca_btl_base_stripe_next(mca_btl_base_stripe_t *stripe, const mca_btl_base_peer_t *peer);

#ifdef __cplusplus
}
#endif

#endif
