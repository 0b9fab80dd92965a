/*
 * The last step of every communicator creation, once the context ids are agreed: the communicator
 * gets its group(s), rank, error handler, hints and topology; its matching state is attached (messages
 * peers sent on it already are matched then) and its collectives selected (coll_comm_enable); then the
 * application's handle becomes valid. An intercommunicator also gets its local_comm.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_BUILD_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_BUILD_H

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include "ompi/communicator/comm_agree.h"
#include "ompi/communicator/communicator.h"

namespace tessera::ompi::comm {

struct Spec {
    std::vector<tessera_proc_t *> procs;        /* the (local) group by rank */
    int rank = 0;                               /* this process's rank in it */
    std::vector<tessera_proc_t *> remote_procs; /* the remote group: an intercommunicator */
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    InfoEntries info;
    std::shared_ptr<const Topology> topo;
};

/*
 * Makes `c` (a shell from comm_new) the communicator `spec` describes, with context id agreed.ids[0]
 * (and ids[1] for an intercommunicator's local_comm; the ids are taken already) and the agreed
 * generation. Returns MPI_SUCCESS, or an
 * error class with *error saying why; then the ids are free again and `c` is left a shell for the
 * caller to release.
 */
int build(Communicator *c, Spec spec, const Agreed &agreed, std::string *error);

/* Undoes build as far as it went: the handle invalid, collectives disabled, matching state detached,
 * context ids free, local_comm destroyed, the error handler released (comm_lifecycle destroys
 * communicators with it). */
void dismantle(Communicator *c);

} // namespace tessera::ompi::comm

#endif
