/*
 * osc: one-sided communication (MPI 5.0 chapter 12). Layer: ompi (libmpi). Selection: per window, by
 * priority — when a window is created, every open component is asked for a module for that window with
 * a priority, and the module of highest priority serves every operation and synchronisation of the
 * window until MPI_Win_free. Components in the tree: am (operations as messages the target applies;
 * any window, any peers), sm (one shared segment per window whose processes share a host);
 * `tessera_info` lists what a build has.
 *
 * The MPI layer (ompi/win) keeps the window object, its attributes, name, hints and error handler, and
 * checks the arguments before it calls a module: the window is valid, ranks are in the window's group
 * or MPI_PROC_NULL, datatypes committed, the origin and target sides move the same number of bytes,
 * the target bytes lie inside the target's window (windows of MPI_WIN_FLAVOR_DYNAMIC excepted: the
 * module knows what is attached), ops are predefined and fit their datatypes. What it cannot know is the
 * synchronisation state: the module answers MPI_ERR_RMA_SYNC for an operation outside an epoch that
 * allows it, or a synchronisation call out of order, and the MPI layer raises that on the window.
 * An operation whose target is MPI_PROC_NULL or that moves no bytes still reaches the module (with
 * counts 0), so that the module can check its epoch; it moves nothing.
 *
 * Target displacements are as the application gave them: in units of the target's displacement unit
 * (for a dynamic window: absolute addresses, unit 1). Counts are size_t (the _c forms need no second
 * table). Return values are MPI error classes (MPI_SUCCESS is 0). An entry left NULL is an operation the
 * module does not provide: the MPI layer raises MPI_ERR_UNSUPPORTED_OPERATION for it on the window.
 *
 * Memory: for MPI_Win_create and MPI_Win_allocate the MPI layer gives the module the window's base; for
 * MPI_Win_allocate_shared (a component that shares memory) *base is NULL at osc_enable and the module
 * allocates the memory and sets it (released by osc_free); osc_shared_query then gives other processes'
 * pointers into it. For MPI_Win_allocate such a module may also set *base to memory of its own at
 * osc_enable: the MPI layer then frees what it had allocated. A module that offers direct load/store
 * sets the window's model to MPI_WIN_UNIFIED.
 */
#ifndef TESSERA_FRAMEWORKS_OSC_OSC_H
#define TESSERA_FRAMEWORKS_OSC_OSC_H

#include <stdbool.h>
#include <stddef.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_OSC_BASE_VERSION {1, 0, 0}

/* The MPI layer's objects (ompi/): opaque here. */
struct tessera_win;
struct tessera_comm;
struct tessera_group;
struct tessera_datatype;
struct tessera_op;
struct tessera_request;

struct mca_osc_base_module;
typedef struct mca_osc_base_module mca_osc_base_module_t;
typedef struct tessera_datatype *mca_osc_dt_t;
typedef struct tessera_op *mca_osc_op_t;

#define MCA_OSC_WIN struct tessera_win *win, mca_osc_base_module_t *module

/* What a window is made of, as the component sees it when it is asked for a module. */
typedef struct mca_osc_base_window_args {
    int flavor;                /* MPI_WIN_FLAVOR_CREATE, _ALLOCATE, _DYNAMIC, _SHARED */
    void *base;                /* this process's memory (NULL for dynamic, and for shared before enable) */
    size_t size;               /* its bytes */
    int disp_unit;             /* this process's displacement unit */
    struct tessera_comm *comm; /* the window's private communicator (its own context: traffic on it
                                  matches nothing of the application's) */
    int comm_size;
    int comm_rank;
    void *reserved[4];
} mca_osc_base_window_args_t;

/* Data movement (12.3, 12.4). `op` of accumulates is predefined (MPI_REPLACE allowed; MPI_NO_OP only in
 * the fetching forms). */
typedef int (*mca_osc_base_put_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target,
                                     ptrdiff_t target_disp, size_t target_count, mca_osc_dt_t target_dt, MCA_OSC_WIN);
typedef int (*mca_osc_base_get_fn_t)(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target,
                                     ptrdiff_t target_disp, size_t target_count, mca_osc_dt_t target_dt, MCA_OSC_WIN);
typedef int (*mca_osc_base_accumulate_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt,
                                            int target, ptrdiff_t target_disp, size_t target_count,
                                            mca_osc_dt_t target_dt, mca_osc_op_t op, MCA_OSC_WIN);
typedef int (*mca_osc_base_get_accumulate_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt,
                                                void *result, size_t result_count, mca_osc_dt_t result_dt, int target,
                                                ptrdiff_t target_disp, size_t target_count, mca_osc_dt_t target_dt,
                                                mca_osc_op_t op, MCA_OSC_WIN);
typedef int (*mca_osc_base_fetch_and_op_fn_t)(const void *origin, void *result, mca_osc_dt_t dt, int target,
                                              ptrdiff_t target_disp, mca_osc_op_t op, MCA_OSC_WIN);
typedef int (*mca_osc_base_compare_and_swap_fn_t)(const void *origin, const void *compare, void *result,
                                                  mca_osc_dt_t dt, int target, ptrdiff_t target_disp, MCA_OSC_WIN);

/* Request-based forms (12.3.5): the request completes locally (MPI_Wait on it) as the standard says. */
#define MCA_OSC_REQ struct tessera_request **request
typedef int (*mca_osc_base_rput_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target,
                                      ptrdiff_t target_disp, size_t target_count, mca_osc_dt_t target_dt, MCA_OSC_REQ,
                                      MCA_OSC_WIN);
typedef int (*mca_osc_base_rget_fn_t)(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target,
                                      ptrdiff_t target_disp, size_t target_count, mca_osc_dt_t target_dt, MCA_OSC_REQ,
                                      MCA_OSC_WIN);
typedef int (*mca_osc_base_raccumulate_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt,
                                             int target, ptrdiff_t target_disp, size_t target_count,
                                             mca_osc_dt_t target_dt, mca_osc_op_t op, MCA_OSC_REQ, MCA_OSC_WIN);
typedef int (*mca_osc_base_rget_accumulate_fn_t)(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt,
                                                 void *result, size_t result_count, mca_osc_dt_t result_dt,
                                                 int target, ptrdiff_t target_disp, size_t target_count,
                                                 mca_osc_dt_t target_dt, mca_osc_op_t op, MCA_OSC_REQ, MCA_OSC_WIN);

/* Synchronisation (12.5). `assert` is the OR of MPI_MODE_* the application gave. */
typedef int (*mca_osc_base_assert_fn_t)(int assert, MCA_OSC_WIN);                           /* fence, lock_all */
typedef int (*mca_osc_base_group_fn_t)(struct tessera_group *group, int assert, MCA_OSC_WIN); /* start, post */
typedef int (*mca_osc_base_sync_fn_t)(MCA_OSC_WIN); /* complete, wait, unlock_all, flush_all, flush_local_all, sync */
typedef int (*mca_osc_base_test_fn_t)(int *flag, MCA_OSC_WIN);
typedef int (*mca_osc_base_lock_fn_t)(int lock_type, int target, int assert, MCA_OSC_WIN);
typedef int (*mca_osc_base_rank_fn_t)(int target, MCA_OSC_WIN); /* unlock, flush, flush_local */

/* Dynamic windows (12.2.4) and shared memory (12.2.3). */
typedef int (*mca_osc_base_attach_fn_t)(void *base, size_t size, MCA_OSC_WIN);
typedef int (*mca_osc_base_detach_fn_t)(const void *base, MCA_OSC_WIN);
typedef int (*mca_osc_base_shared_query_fn_t)(int rank, size_t *size, int *disp_unit, void **baseptr, MCA_OSC_WIN);

/* A module: one window's one-sided communication. */
struct mca_osc_base_module {
    const struct mca_osc_base_component *osc_component;
    /* Called once on the module chosen for the window (collective over the window's processes: every
     * process chose the same component, see osc_win_query): set up what the window needs. For
     * MPI_WIN_FLAVOR_SHARED *base is NULL and the module allocates the memory. An error fails the
     * window's creation (the module is released). */
    int (*osc_enable)(mca_osc_base_module_t *module, struct tessera_win *win, void **base);
    /* Releases a module that was not chosen, or whose enable failed. */
    void (*osc_release)(mca_osc_base_module_t *module, struct tessera_win *win);
    /* MPI_Win_free, after the window's attributes are deleted: MPI_ERR_RMA_SYNC, changing nothing, when
     * this process still has operations it has not completed (an epoch left open with operations in it);
     * otherwise collective: returns once no process targets this one any more, and releases the module. */
    int (*osc_free)(MCA_OSC_WIN);

    mca_osc_base_put_fn_t osc_put;
    mca_osc_base_get_fn_t osc_get;
    mca_osc_base_accumulate_fn_t osc_accumulate;
    mca_osc_base_get_accumulate_fn_t osc_get_accumulate;
    mca_osc_base_fetch_and_op_fn_t osc_fetch_and_op;
    mca_osc_base_compare_and_swap_fn_t osc_compare_and_swap;
    mca_osc_base_rput_fn_t osc_rput;
    mca_osc_base_rget_fn_t osc_rget;
    mca_osc_base_raccumulate_fn_t osc_raccumulate;
    mca_osc_base_rget_accumulate_fn_t osc_rget_accumulate;

    mca_osc_base_assert_fn_t osc_fence;
    mca_osc_base_group_fn_t osc_start;
    mca_osc_base_sync_fn_t osc_complete;
    mca_osc_base_group_fn_t osc_post;
    mca_osc_base_sync_fn_t osc_wait;
    mca_osc_base_test_fn_t osc_test;
    mca_osc_base_lock_fn_t osc_lock;
    mca_osc_base_rank_fn_t osc_unlock;
    mca_osc_base_assert_fn_t osc_lock_all;
    mca_osc_base_sync_fn_t osc_unlock_all;
    mca_osc_base_rank_fn_t osc_flush;
    mca_osc_base_sync_fn_t osc_flush_all;
    mca_osc_base_rank_fn_t osc_flush_local;
    mca_osc_base_sync_fn_t osc_flush_local_all;
    mca_osc_base_sync_fn_t osc_sync;

    mca_osc_base_attach_fn_t osc_attach;
    mca_osc_base_detach_fn_t osc_detach;
    mca_osc_base_shared_query_fn_t osc_shared_query;

    void *module_state; /* the component's own, per window */
    void *reserved[16];
};

/* Once per process after open: TESSERA_SUCCESS to take part in window queries at all (NULL: always). */
typedef int (*mca_osc_base_init_query_fn_t)(bool enable_progress_threads, bool enable_mpi_threads);

/* A module for the window being created, with its priority, or NULL to stay out (a shared-memory
 * component whose processes are not all on one host, a flavor it does not serve). The answer must be
 * the same on every process of the window (decide from what all of them know: the group, the flavor,
 * agreed hints), since the chosen module's enable is collective. The module belongs to the window until
 * released or freed. */
typedef mca_osc_base_module_t *(*mca_osc_base_win_query_fn_t)(struct tessera_win *win,
                                                              const mca_osc_base_window_args_t *args, int *priority);

typedef struct mca_osc_base_component {
    mca_base_component_t base;
    mca_osc_base_init_query_fn_t osc_init_query;
    mca_osc_base_win_query_fn_t osc_win_query;
    void *reserved[4];
} mca_osc_base_component_t;

#undef MCA_OSC_WIN
#undef MCA_OSC_REQ

#ifdef __cplusplus
}
#endif

#endif
