/* What the topology functions check first, and how they make a communicator with a topology. */
#ifndef TESSERA_OMPI_TOPO_TOPO_CHECKS_H
#define TESSERA_OMPI_TOPO_TOPO_CHECKS_H

#include <memory>
#include <string>

#include <mpi.h>

#include "ompi/communicator/communicator.h"
#include "ompi/info/info.h"
#include "ompi/topo/topology.h"

namespace tessera::ompi::topo {

/* The topology of `comm` when it is of `kind` (MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH); otherwise nullptr
 * with MPI_ERR_TOPOLOGY raised (*rc). *out gets the communicator. */
const Topology *topology_of(const char *function, MPI_Comm comm, int kind, int *rc, Communicator **out = nullptr);

/* An intracommunicator to build a topology on (comm_old); nullptr with the error raised otherwise. */
Communicator *base_of(const char *function, MPI_Comm comm_old, int *rc);

/* The new communicator of the topology constructors: the ranks below `nodes` of comm_old, in their
 * order (reordering is allowed and not done), with `topo` and `info`; MPI_COMM_NULL for the others. */
int make(const char *function, MPI_Comm comm_old, Communicator *base, int nodes, std::shared_ptr<const Topology> topo,
         InfoEntries info, MPI_Comm *out);

} // namespace tessera::ompi::topo

#endif
