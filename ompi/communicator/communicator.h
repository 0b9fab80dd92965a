/*
 * Communicators (MPI-4.1 chapter 7): the predefined MPI_COMM_WORLD and MPI_COMM_SELF, and those the
 * application creates (MPI_Comm_dup, split, create, Intercomm_create, the topology constructors...,
 * comm_*.cpp). A communicator holds what the point-to-point engine and the collectives need (rank,
 * size, the procs of its group, its context id, the engine's matching state, the selected
 * collectives), its error handler, name, info hints and topology. Its group is its procs
 * (ompi/group); its attributes live in ompi/attribute, keyed by the handle.
 *
 * Handles: the MPI 5.0 ABI gives predefined handles small fixed values (MPI_COMM_WORLD = 0x101,
 * MPI_COMM_SELF = 0x102, MPI_COMM_NULL = 0x100, see ompi/api/constants.tsv), so the predefined
 * objects are found by value; a created communicator's handle is the address of its object with its
 * slot's generation (runtime/user_handle.h), and the slot's stamp says whether the handle is valid.
 *
 * Intercommunicators (MPI-4.1 7.6) have a remote group: point-to-point ranks name its members, and
 * the engine sends to remote_procs. Each also owns a hidden intracommunicator of its local group
 * (local_comm), for the library's own traffic inside one group (communicator creation, and the
 * intercommunicator collectives that need it).
 *
 * Lifetime: a created communicator counts its references — its handle, every request made on it, the
 * intercommunicator owning it as local_comm. MPI_Comm_free drops the handle's (the handle is invalid
 * from then on); the object stays, with its context id and matching state, until the last request on
 * it is released (MPI-4.1 7.4.3: pending operations complete normally).
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMMUNICATOR_H
#define TESSERA_OMPI_COMMUNICATOR_COMMUNICATOR_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "ompi/info/info.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/user_handle.h"

struct mca_coll_base_comm_coll; /* frameworks/coll/base/base.h */

namespace tessera::ompi {

struct Topology; /* ompi/topo/topology.h */

struct Communicator {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x434f4d4d; /* "COMM" */
    static void *operator new(std::size_t size) { return handle_slot_new<Communicator>(size); }
    static void operator delete(void *object) { handle_slot_delete<Communicator>(object); }

    /* The handle is closed until the creation completes (comm::build opens it), pending meanwhile for
     * an MPI_Comm_idup (only its error handler, name and attributes may be set or read:
     * comm_lookup_settable), and closed again by MPI_Comm_free; the hidden local_comm's stays closed. */
    static constexpr bool kHandleOpensLater = true;

    uint32_t context_id = 0; /* tags this communicator's messages (WORLD 0, SELF 1; comm_context.h) */
    uint32_t generation = 0; /* agreed with the id: tells its messages from a freed one's (comm_context.h) */
    int rank = 0;            /* of this process in the (local) group */
    int size = 1;            /* of the (local) group */
    /* A user handler is retained while set here (errhandler_retain), so that MPI_Errhandler_free of
     * the application's handle leaves it working. */
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::string name{};      /* MPI_Comm_set_name's; "" for a created communicator until set */
    std::vector<tessera_proc_t *> procs{};        /* the (local) group by rank */
    std::vector<tessera_proc_t *> remote_procs{}; /* intercommunicator: the remote group by rank; else empty */
    void *pml = nullptr;     /* the point-to-point engine's matching state of this communicator */
    InfoEntries info{};      /* the hints of MPI_Comm_set_info, returned by MPI_Comm_get_info */
    /* The collectives selected for this communicator (ompi/coll/coll_comm.h), and the number of its
     * next collective call: every rank calls collectives in the same order, so the numbers agree and
     * give each call its own internal tag. */
    mca_coll_base_comm_coll *coll = nullptr;
    uint32_t coll_seq = 0;
    /* Intercommunicator: an intracommunicator of the local group (same procs and rank), owned. */
    Communicator *local_comm = nullptr;
    /* The virtual topology (MPI_Cart_create, Graph_create, Dist_graph_create...), or none. Shared:
     * MPI_Comm_dup gives the duplicate the same one. */
    std::shared_ptr<const Topology> topo{};
    int refs = 1;            /* created communicators: see "Lifetime" above */
    bool predefined = false; /* WORLD and SELF: never destroyed */

    bool is_inter() const { return !remote_procs.empty(); }
    int remote_size() const { return static_cast<int>(remote_procs.size()); }
    /* The processes point-to-point ranks name: the remote group of an intercommunicator. */
    const std::vector<tessera_proc_t *> &peers() const { return is_inter() ? remote_procs : procs; }
};

inline constexpr uint32_t kContextWorld = 0;
inline constexpr uint32_t kContextSelf = 1;

Communicator &comm_world();
Communicator &comm_self();

/* The object of a handle, or nullptr for MPI_COMM_NULL and anything that names no communicator
 * (a freed one included). */
Communicator *comm_lookup(MPI_Comm handle);
/* comm_lookup, and also the communicator of an MPI_Comm_idup not complete yet, whose error handler,
 * name and attributes the application may set meanwhile (the creation keeps them). */
Communicator *comm_lookup_settable(MPI_Comm handle);

/* The handle of a communicator (to raise an error on it, to pass to callbacks). */
MPI_Comm comm_handle(const Communicator *comm);

/* How messages name a communicator: its name, or "a communicator of 4 processes" when it has none. */
std::string comm_label(const Communicator &comm);

/* MPI_Init: WORLD gets the job's rank and size; SELF is (0, 1). Both get MPI_ERRORS_ARE_FATAL. */
void comm_init_predefined(int world_rank, int world_size);

/*
 * References to a created communicator (no-ops on the predefined ones). The last release does not
 * destroy the communicator at once, since it may come from deep inside the engine (a request completing
 * as a fragment arrives): the communicator is destroyed by the next comm_reap(), which runs at the end of
 * MPI_Comm_free, from the progress engine (comm_init) and at MPI_Finalize. Any thread may call them:
 * the count is atomic under MPI_THREAD_MULTIPLE.
 */
void comm_retain(Communicator *comm);
void comm_release(Communicator *comm);
/* Destroys the communicators whose last reference went: collectives disabled, matching state detached,
 * context id freed. Returns how many. */
int comm_reap();

/* A new, empty created communicator, counted among the live ones (comm_finalize destroys those left). */
Communicator *comm_new();
/* The communicator subsystem's start in MPI_Init once the point-to-point engine and the collectives
 * run (the context ids of WORLD and SELF taken, the progress hook that reaps and advances
 * MPI_Comm_idup), and its end in MPI_Finalize before they stop (every created communicator still
 * alive is destroyed). */
void comm_init();
void comm_finalize();

} // namespace tessera::ompi

#endif
