/*
 * Communicators. For now the two predefined ones, MPI_COMM_WORLD and MPI_COMM_SELF, with what the life
 * cycle and the point-to-point engine need (rank, size, error handler, the proc of each rank, the
 * engine's matching state), its name and info hints. Its group is its procs (ompi/group); its
 * attributes live in ompi/attribute, keyed by the handle. Context allocation and user communicators
 * come with the communicator calls (issue 7).
 *
 * Handles: the MPI 5.0 ABI gives predefined handles small fixed values (MPI_COMM_WORLD = 0x101,
 * MPI_COMM_SELF = 0x102, MPI_COMM_NULL = 0x100, see ompi/api/constants.tsv), so the predefined
 * objects are found by value; a user communicator's handle will be the address of its object.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMMUNICATOR_H
#define TESSERA_OMPI_COMMUNICATOR_COMMUNICATOR_H

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "ompi/info/info.h"
#include "ompi/proc/proc.h"

struct mca_coll_base_comm_coll; /* frameworks/coll/base/base.h */

namespace tessera::ompi {

struct Communicator {
    uint32_t context_id = 0; /* tags this communicator's messages (WORLD 0, SELF 1) */
    int rank = 0;            /* of this process in the communicator */
    int size = 1;
    /* A user handler is retained while set here (errhandler_retain), so that MPI_Errhandler_free of
     * the application's handle leaves it working. */
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::string name{};      /* "MPI_COMM_WORLD" (MPI_Comm_set_name; messages) */
    std::vector<tessera_proc_t *> procs{}; /* by rank: the peer processes (set by the point-to-point engine) */
    void *pml = nullptr;     /* the point-to-point engine's matching state of this communicator */
    InfoEntries info{};      /* the hints of MPI_Comm_set_info, returned by MPI_Comm_get_info */
    /* The collectives selected for this communicator (ompi/coll/coll_comm.h), and the number of its
     * next collective call: every rank calls collectives in the same order, so the numbers agree and
     * give each call its own internal tag. */
    mca_coll_base_comm_coll *coll = nullptr;
    uint32_t coll_seq = 0;
};

inline constexpr uint32_t kContextWorld = 0;
inline constexpr uint32_t kContextSelf = 1;

Communicator &comm_world();
Communicator &comm_self();

/* The object of a handle, or nullptr for MPI_COMM_NULL and anything that names no communicator. */
Communicator *comm_lookup(MPI_Comm handle);

/* The handle of a communicator (to raise an error on it). */
MPI_Comm comm_handle(const Communicator *comm);

/* MPI_Init: WORLD gets the job's rank and size; SELF is (0, 1). Both get MPI_ERRORS_ARE_FATAL. */
void comm_init_predefined(int world_rank, int world_size);

} // namespace tessera::ompi

#endif
