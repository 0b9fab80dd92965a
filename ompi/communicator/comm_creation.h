/*
 * The shape every communicator creation shares: agree on context ids over a channel while exchanging
 * what the processes contribute (comm_agree.h), let the operation decide from the exchanged records
 * what this process's new communicator is (or that it gets none: MPI_COMM_NULL), build it
 * (comm_build.h). The operations (comm_dup.cpp, comm_split.cpp, ...) supply the channel, the
 * contribution and the decision.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_CREATION_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_CREATION_H

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include "ompi/communicator/comm_agree.h"
#include "ompi/communicator/comm_build.h"

namespace tessera::ompi::comm {

/* From the exchanged records: *spec set for a new communicator, left empty for MPI_COMM_NULL; or an
 * error class with *error saying why (the same on every process, since all saw the same records). */
using Decide = std::function<int(const Exchanged &records, std::optional<Spec> *spec, std::string *error)>;

/* Agrees, decides, builds `c` (a shell from comm_new; still a shell afterwards when this process gets
 * MPI_COMM_NULL). *error says what failed. */
Task create(Channel ch, Agreement a, Decide decide, Communicator *c, std::string *error);

/* The end of a blocking creation call: *newcomm gets `c`, or MPI_COMM_NULL when this process got none
 * or it failed (then `c` goes, and the error is raised on raise_on). */
int finish(const char *function, MPI_Comm raise_on, Communicator *c, int rc, const std::string &error,
           MPI_Comm *newcomm);

/* The processes of `procs` as ranks of `in`, in order; -1 for one that is not there. */
std::vector<int> ranks_in(const std::vector<tessera_proc_t *> &in, const std::vector<tessera_proc_t *> &procs);

/* MPI_Comm_split's creation over `parent` (an intra- or intercommunicator), blocking: the processes
 * of the same (color, subcolor) form a communicator, ordered by (key, rank in parent); MPI_UNDEFINED as
 * color gives none (*out = nullptr). The new communicator gets the parent's error handler, `info` and
 * `topo` (MPI_Comm_split_type's hints, the topology constructors). */
struct SplitColor {
    int color = 0;
    int subcolor = 0; /* MPI_Comm_split_type: a resource instance within the color's host */
    int key = 0;
};
int split(Communicator *parent, SplitColor my, InfoEntries info, std::shared_ptr<const Topology> topo,
          Communicator **out, std::string *error);

} // namespace tessera::ompi::comm

#endif
