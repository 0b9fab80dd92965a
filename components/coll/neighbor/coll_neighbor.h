/*
 * coll neighbor: MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,w) and their non-blocking forms
 * (MPI-4.1 8.6, 8.7) for the communicators that have a virtual topology (ompi/topo/topology.h). A
 * communicator without one gets no module, so the component never competes with the others for
 * the ordinary collectives.
 *
 * Each collective is one round: a receive from every source into its block, a send of every block to
 * its destination, in the orders the topology's Neighborhood gives (the Cartesian one makes
 * same-process neighbours of periodic dimensions of size 1 or 2 match the standard's blocks).
 * MPI_PROC_NULL neighbours move nothing and leave their block untouched.
 */
#ifndef TESSERA_COMPONENTS_COLL_NEIGHBOR_COLL_NEIGHBOR_H
#define TESSERA_COMPONENTS_COLL_NEIGHBOR_COLL_NEIGHBOR_H

#include <cstddef>

#include "frameworks/coll/coll.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/coll/coll_schedule.h"
#include "ompi/topo/topology.h"

extern "C" mca_coll_base_component_t mca_coll_neighbor_component;

namespace tessera::ompi::coll_neighbor {

using coll::Schedule;

extern int priority; /* coll_neighbor_priority */

/* The module of a communicator with a topology: its neighbourhood, worked out once. */
mca_coll_base_module_t *module_create(const Neighborhood &neighbors);

/* coll_neighbor_exchange.cpp: the schedules. Displacements in elements of the datatype, except
 * alltoallw's (bytes, one datatype per neighbour). */
void allgather(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
               void *rbuf, std::size_t rcount, const Datatype *rtype);
void allgatherv(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
                void *rbuf, const std::size_t *rcounts, const std::ptrdiff_t *displs, const Datatype *rtype);
void alltoall(Schedule &s, const Neighborhood &n, const void *sbuf, std::size_t scount, const Datatype *stype,
              void *rbuf, std::size_t rcount, const Datatype *rtype);
void alltoallv(Schedule &s, const Neighborhood &n, const void *sbuf, const std::size_t *scounts,
               const std::ptrdiff_t *sdispls, const Datatype *stype, void *rbuf, const std::size_t *rcounts,
               const std::ptrdiff_t *rdispls, const Datatype *rtype);
void alltoallw(Schedule &s, const Neighborhood &n, const void *sbuf, const std::size_t *scounts,
               const std::ptrdiff_t *sdispls, const mca_coll_dt_t *stypes, void *rbuf, const std::size_t *rcounts,
               const std::ptrdiff_t *rdispls, const mca_coll_dt_t *rtypes);

} // namespace tessera::ompi::coll_neighbor

#endif
