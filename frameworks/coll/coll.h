/*
 * coll: collective operations. Layer: ompi (libmpi). Selection: per communicator, by priority — at
 * communicator creation every open component is asked for a module for that communicator with a
 * priority; for each collective the highest-priority module that implements it (non-NULL entry) is
 * used. Components in the tree: basic (simple, obviously correct, the reference for every collective),
 * tuned (algorithms chosen by message size and communicator size), sm (small collectives of a
 * communicator on one host through a shared segment) and neighbor (the neighbourhood collectives of
 * process topologies); `tessera_info` lists what a build has.
 *
 * The arguments are the MPI layer's own objects (communicator, datatype, op, request), already
 * checked by the bindings: counts are non-negative, roots valid, buffers may be MPI_IN_PLACE where the
 * standard allows (the MPI layer's sentinel, ompi/), datatypes committed, ops defined on their
 * datatype. What the standard makes insignificant on a rank (the receive side of a gather on a
 * non-root, the send side after MPI_IN_PLACE) is passed as NULL datatypes and arrays. Counts are
 * size_t and displacements ptrdiff_t (in elements of the datatype, except alltoallw's, which are
 * bytes), so the MPI-4 large-count (_c) forms need no second table. Return values are MPI error
 * classes (MPI_SUCCESS is 0); the binding hands errors to the communicator's error handler.
 */
#ifndef TESSERA_FRAMEWORKS_COLL_COLL_H
#define TESSERA_FRAMEWORKS_COLL_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_COLL_BASE_VERSION {1, 0, 0}

/* The MPI layer's objects (ompi/): opaque here. */
struct tessera_comm;
struct tessera_datatype;
struct tessera_op;
struct tessera_request;

struct mca_coll_base_module;
typedef struct mca_coll_base_module mca_coll_base_module_t;

#define MCA_COLL_COMM struct tessera_comm *comm, mca_coll_base_module_t *module
#define MCA_COLL_REQ struct tessera_request **request
typedef struct tessera_datatype *mca_coll_dt_t;
typedef struct tessera_op *mca_coll_op_t;

/* Blocking collectives (MPI 5.0 chapter 6), with the standard's argument order. */
typedef int (*mca_coll_base_barrier_fn_t)(MCA_COLL_COMM);
typedef int (*mca_coll_base_bcast_fn_t)(void *buf, size_t count, mca_coll_dt_t dt, int root, MCA_COLL_COMM);
typedef int (*mca_coll_base_gather_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                         size_t rcount, mca_coll_dt_t rdt, int root, MCA_COLL_COMM);
typedef int (*mca_coll_base_gatherv_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                          const size_t *rcounts, const ptrdiff_t *displs, mca_coll_dt_t rdt,
                                          int root, MCA_COLL_COMM);
typedef int (*mca_coll_base_scatter_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                          size_t rcount, mca_coll_dt_t rdt, int root, MCA_COLL_COMM);
typedef int (*mca_coll_base_scatterv_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs,
                                           mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                                           int root, MCA_COLL_COMM);
/* Also the type of neighbor_allgather and neighbor_alltoall. */
typedef int (*mca_coll_base_allgather_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                            size_t rcount, mca_coll_dt_t rdt, MCA_COLL_COMM);
/* Also the type of neighbor_allgatherv. */
typedef int (*mca_coll_base_allgatherv_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                             const size_t *rcounts, const ptrdiff_t *displs, mca_coll_dt_t rdt,
                                             MCA_COLL_COMM);
typedef int (*mca_coll_base_alltoall_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                           size_t rcount, mca_coll_dt_t rdt, MCA_COLL_COMM);
/* Also the type of neighbor_alltoallv. */
typedef int (*mca_coll_base_alltoallv_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls,
                                            mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                                            const ptrdiff_t *rdispls, mca_coll_dt_t rdt, MCA_COLL_COMM);
/* Also the type of neighbor_alltoallw; displacements in bytes. */
typedef int (*mca_coll_base_alltoallw_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls,
                                            const mca_coll_dt_t *sdts, void *rbuf, const size_t *rcounts,
                                            const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts, MCA_COLL_COMM);
typedef int (*mca_coll_base_reduce_fn_t)(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt,
                                         mca_coll_op_t op, int root, MCA_COLL_COMM);
/* Also the type of scan and exscan. */
typedef int (*mca_coll_base_allreduce_fn_t)(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt,
                                            mca_coll_op_t op, MCA_COLL_COMM);
typedef int (*mca_coll_base_reduce_scatter_fn_t)(const void *sbuf, void *rbuf, const size_t *rcounts,
                                                 mca_coll_dt_t dt, mca_coll_op_t op, MCA_COLL_COMM);
typedef int (*mca_coll_base_reduce_scatter_block_fn_t)(const void *sbuf, void *rbuf, size_t rcount,
                                                       mca_coll_dt_t dt, mca_coll_op_t op, MCA_COLL_COMM);

/* Non-blocking forms: the same arguments and the request that completes with the operation, which
 * must progress through the library's progress engine (no thread of its own required). The count,
 * displacement and datatype arrays are the MPI layer's converted copies, valid during the call only:
 * a module keeps what it needs (ompi/coll/coll_schedule.h builds the whole schedule in the call). */
typedef int (*mca_coll_base_ibarrier_fn_t)(MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_ibcast_fn_t)(void *buf, size_t count, mca_coll_dt_t dt, int root, MCA_COLL_REQ,
                                         MCA_COLL_COMM);
typedef int (*mca_coll_base_igather_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                          size_t rcount, mca_coll_dt_t rdt, int root, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_igatherv_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                           const size_t *rcounts, const ptrdiff_t *displs, mca_coll_dt_t rdt,
                                           int root, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_iscatter_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                           size_t rcount, mca_coll_dt_t rdt, int root, MCA_COLL_REQ,
                                           MCA_COLL_COMM);
typedef int (*mca_coll_base_iscatterv_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *displs,
                                            mca_coll_dt_t sdt, void *rbuf, size_t rcount, mca_coll_dt_t rdt,
                                            int root, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_iallgather_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                             size_t rcount, mca_coll_dt_t rdt, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_iallgatherv_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                              const size_t *rcounts, const ptrdiff_t *displs, mca_coll_dt_t rdt,
                                              MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_ialltoall_fn_t)(const void *sbuf, size_t scount, mca_coll_dt_t sdt, void *rbuf,
                                            size_t rcount, mca_coll_dt_t rdt, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_ialltoallv_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls,
                                             mca_coll_dt_t sdt, void *rbuf, const size_t *rcounts,
                                             const ptrdiff_t *rdispls, mca_coll_dt_t rdt, MCA_COLL_REQ,
                                             MCA_COLL_COMM);
typedef int (*mca_coll_base_ialltoallw_fn_t)(const void *sbuf, const size_t *scounts, const ptrdiff_t *sdispls,
                                             const mca_coll_dt_t *sdts, void *rbuf, const size_t *rcounts,
                                             const ptrdiff_t *rdispls, const mca_coll_dt_t *rdts, MCA_COLL_REQ,
                                             MCA_COLL_COMM);
typedef int (*mca_coll_base_ireduce_fn_t)(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt,
                                          mca_coll_op_t op, int root, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_iallreduce_fn_t)(const void *sbuf, void *rbuf, size_t count, mca_coll_dt_t dt,
                                             mca_coll_op_t op, MCA_COLL_REQ, MCA_COLL_COMM);
typedef int (*mca_coll_base_ireduce_scatter_fn_t)(const void *sbuf, void *rbuf, const size_t *rcounts,
                                                  mca_coll_dt_t dt, mca_coll_op_t op, MCA_COLL_REQ,
                                                  MCA_COLL_COMM);
typedef int (*mca_coll_base_ireduce_scatter_block_fn_t)(const void *sbuf, void *rbuf, size_t rcount,
                                                        mca_coll_dt_t dt, mca_coll_op_t op, MCA_COLL_REQ,
                                                        MCA_COLL_COMM);

/* A module: the collectives it implements for one communicator (NULL: leave it to another module). */
struct mca_coll_base_module {
    const struct mca_coll_base_component *coll_component;
    /* Called once the module has been chosen for at least one collective of `comm`: set up the
     * per-communicator state (schedules, scratch buffers). An error fails the communicator's creation. */
    int (*coll_module_enable)(mca_coll_base_module_t *module, struct tessera_comm *comm);
    /* Called when the communicator is freed, or when no collective of it chose this module. */
    void (*coll_module_release)(mca_coll_base_module_t *module, struct tessera_comm *comm);

    mca_coll_base_barrier_fn_t coll_barrier;
    mca_coll_base_bcast_fn_t coll_bcast;
    mca_coll_base_gather_fn_t coll_gather;
    mca_coll_base_gatherv_fn_t coll_gatherv;
    mca_coll_base_scatter_fn_t coll_scatter;
    mca_coll_base_scatterv_fn_t coll_scatterv;
    mca_coll_base_allgather_fn_t coll_allgather;
    mca_coll_base_allgatherv_fn_t coll_allgatherv;
    mca_coll_base_alltoall_fn_t coll_alltoall;
    mca_coll_base_alltoallv_fn_t coll_alltoallv;
    mca_coll_base_alltoallw_fn_t coll_alltoallw;
    mca_coll_base_reduce_fn_t coll_reduce;
    mca_coll_base_allreduce_fn_t coll_allreduce;
    mca_coll_base_reduce_scatter_fn_t coll_reduce_scatter;
    mca_coll_base_reduce_scatter_block_fn_t coll_reduce_scatter_block;
    mca_coll_base_allreduce_fn_t coll_scan;
    mca_coll_base_allreduce_fn_t coll_exscan;
    mca_coll_base_allgather_fn_t coll_neighbor_allgather;
    mca_coll_base_allgatherv_fn_t coll_neighbor_allgatherv;
    mca_coll_base_alltoall_fn_t coll_neighbor_alltoall;
    mca_coll_base_alltoallv_fn_t coll_neighbor_alltoallv;
    mca_coll_base_alltoallw_fn_t coll_neighbor_alltoallw;

    mca_coll_base_ibarrier_fn_t coll_ibarrier;
    mca_coll_base_ibcast_fn_t coll_ibcast;
    mca_coll_base_igather_fn_t coll_igather;
    mca_coll_base_igatherv_fn_t coll_igatherv;
    mca_coll_base_iscatter_fn_t coll_iscatter;
    mca_coll_base_iscatterv_fn_t coll_iscatterv;
    mca_coll_base_iallgather_fn_t coll_iallgather;
    mca_coll_base_iallgatherv_fn_t coll_iallgatherv;
    mca_coll_base_ialltoall_fn_t coll_ialltoall;
    mca_coll_base_ialltoallv_fn_t coll_ialltoallv;
    mca_coll_base_ialltoallw_fn_t coll_ialltoallw;
    mca_coll_base_ireduce_fn_t coll_ireduce;
    mca_coll_base_iallreduce_fn_t coll_iallreduce;
    mca_coll_base_ireduce_scatter_fn_t coll_ireduce_scatter;
    mca_coll_base_ireduce_scatter_block_fn_t coll_ireduce_scatter_block;
    mca_coll_base_iallreduce_fn_t coll_iscan;
    mca_coll_base_iallreduce_fn_t coll_iexscan;
    mca_coll_base_iallgather_fn_t coll_ineighbor_allgather;
    mca_coll_base_iallgatherv_fn_t coll_ineighbor_allgatherv;
    mca_coll_base_ialltoall_fn_t coll_ineighbor_alltoall;
    mca_coll_base_ialltoallv_fn_t coll_ineighbor_alltoallv;
    mca_coll_base_ialltoallw_fn_t coll_ineighbor_alltoallw;

    void *module_state; /* the component's own, per communicator */
    void *reserved[16];
};

/* Once per process after open: TESSERA_SUCCESS to take part in communicator queries at all (NULL: always). */
typedef int (*mca_coll_base_init_query_fn_t)(bool enable_progress_threads, bool enable_mpi_threads);

/* A module for `comm` with its priority, or NULL to stay out of this communicator (too small, an
 * intercommunicator it cannot handle...). The module belongs to `comm` until released. */
typedef mca_coll_base_module_t *(*mca_coll_base_comm_query_fn_t)(struct tessera_comm *comm, int *priority);

typedef struct mca_coll_base_component {
    mca_base_component_t base;
    mca_coll_base_init_query_fn_t coll_init_query;
    mca_coll_base_comm_query_fn_t coll_comm_query;
    void *reserved[4];
} mca_coll_base_component_t;

#undef MCA_COLL_COMM
#undef MCA_COLL_REQ

#ifdef __cplusplus
}
#endif

#endif
