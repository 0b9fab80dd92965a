/*
 * coll base: the framework declaration and the selection per communicator. The framework is opened
 * with the others at MPI_Init (the parameter `coll` includes or excludes components as for every
 * framework); tessera_coll_base_init then asks each open component's coll_init_query once, and
 * tessera_coll_base_comm_select builds a communicator's table: every taking-part component is asked for
 * a module, and for each collective the module of highest priority that implements it (non-NULL
 * entry) is kept. The MPI layer drives it from ompi/coll/coll_comm.h.
 */
#ifndef TESSERA_FRAMEWORKS_COLL_BASE_BASE_H
#define TESSERA_FRAMEWORKS_COLL_BASE_BASE_H

#include "frameworks/coll/coll.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_coll_base_framework;

/* Every collective of a module, as X(name, function type): entry coll_<name> of type
 * mca_coll_base_<type>_fn_t. */
#define MCA_COLL_BASE_FUNCTIONS(X)                                                                                    \
    X(barrier, barrier)                                                                                               \
    X(bcast, bcast)                                                                                                   \
    X(gather, gather)                                                                                                 \
    X(gatherv, gatherv)                                                                                               \
    X(scatter, scatter)                                                                                               \
    X(scatterv, scatterv)                                                                                             \
    X(allgather, allgather)                                                                                           \
    X(allgatherv, allgatherv)                                                                                         \
    X(alltoall, alltoall)                                                                                             \
    X(alltoallv, alltoallv)                                                                                           \
    X(alltoallw, alltoallw)                                                                                           \
    X(reduce, reduce)                                                                                                 \
    X(allreduce, allreduce)                                                                                           \
    X(reduce_scatter, reduce_scatter)                                                                                 \
    X(reduce_scatter_block, reduce_scatter_block)                                                                     \
    X(scan, allreduce)                                                                                                \
    X(exscan, allreduce)                                                                                              \
    X(neighbor_allgather, allgather)                                                                                  \
    X(neighbor_allgatherv, allgatherv)                                                                                \
    X(neighbor_alltoall, alltoall)                                                                                    \
    X(neighbor_alltoallv, alltoallv)                                                                                  \
    X(neighbor_alltoallw, alltoallw)                                                                                  \
    X(ibarrier, ibarrier)                                                                                             \
    X(ibcast, ibcast)                                                                                                 \
    X(igather, igather)                                                                                               \
    X(igatherv, igatherv)                                                                                             \
    X(iscatter, iscatter)                                                                                             \
    X(iscatterv, iscatterv)                                                                                           \
    X(iallgather, iallgather)                                                                                         \
    X(iallgatherv, iallgatherv)                                                                                       \
    X(ialltoall, ialltoall)                                                                                           \
    X(ialltoallv, ialltoallv)                                                                                         \
    X(ialltoallw, ialltoallw)                                                                                         \
    X(ireduce, ireduce)                                                                                               \
    X(iallreduce, iallreduce)                                                                                         \
    X(ireduce_scatter, ireduce_scatter)                                                                               \
    X(ireduce_scatter_block, ireduce_scatter_block)                                                                   \
    X(iscan, iallreduce)                                                                                              \
    X(iexscan, iallreduce)                                                                                            \
    X(ineighbor_allgather, iallgather)                                                                                \
    X(ineighbor_allgatherv, iallgatherv)                                                                              \
    X(ineighbor_alltoall, ialltoall)                                                                                  \
    X(ineighbor_alltoallv, ialltoallv)                                                                                \
    X(ineighbor_alltoallw, ialltoallw)

/* A communicator's collectives: for each, the function chosen and the module to pass it (NULL when
 * no module implements it), and the modules that serve at least one (enabled, released together). */
typedef struct mca_coll_base_comm_coll {
#define MCA_COLL_BASE_SLOT(name, type)                                                                                \
    mca_coll_base_##type##_fn_t coll_##name;                                                                          \
    mca_coll_base_module_t *coll_##name##_module;
    MCA_COLL_BASE_FUNCTIONS(MCA_COLL_BASE_SLOT)
#undef MCA_COLL_BASE_SLOT
    mca_coll_base_module_t **modules;
    size_t module_count;
} mca_coll_base_comm_coll_t;

/* The functions below are named tessera_*, not mca_*: Open MPI's libmpi exports
 * mca_coll_base_comm_select, and a process translated to Open MPI has both libraries loaded. */

/* After the framework is open (MPI_Init): asks each open component's coll_init_query; one that does not
 * answer TESSERA_SUCCESS takes no part in any communicator. */
int tessera_coll_base_init(bool enable_progress_threads, bool enable_mpi_threads);
/* MPI_Finalize, after every communicator is unselected. */
void tessera_coll_base_finalize(void);

/*
 * Selects the collectives of `comm` (`name` for messages): *out is a new table. Modules whose priority
 * is negative, and those that win no collective, are released at once; the others are enabled.
 * TESSERA_ERR_NOT_FOUND when no component offers a module, or the error of a module's enable (after
 * everything selected so far is released).
 */
int tessera_coll_base_comm_select(struct tessera_comm *comm, const char *name, mca_coll_base_comm_coll_t **out);
/* Releases the modules of a table made by tessera_coll_base_comm_select, and the table. */
void tessera_coll_base_comm_unselect(struct tessera_comm *comm, mca_coll_base_comm_coll_t *coll);

#ifdef __cplusplus
}
#endif

#endif
