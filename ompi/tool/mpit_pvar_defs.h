/*
 * The performance variables MPI_T offers (docs/mpi_t.md has the table) and where each one's numbers
 * are: the counters of mpit_feed.h, the engine's queues, the state slots components set.
 */
#ifndef TESSERA_OMPI_TOOL_MPIT_PVAR_DEFS_H
#define TESSERA_OMPI_TOOL_MPIT_PVAR_DEFS_H

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "ompi/tool/mpit.h"

namespace tessera::ompi::tool {

/* Where a pvar's numbers come from. */
enum class Source {
    PeerCounter,   /* one element per rank of MPI_COMM_WORLD; `which` = PeerCounter index */
    BtlCounter,    /* one element per btl component; `which` = BtlCounter index */
    MatchTimer,    /* nanoseconds, shown in seconds */
    QueueLevel,    /* of the bound communicator; `which` = QueueLevel index */
    StateSlot,     /* `which` = slot of tessera_mpit_state_register */
    JitCount,
    JitTimer,
};

enum PeerCounter { kMessagesSent, kBytesSent, kMessagesReceived, kBytesReceived, kPeerCounters };
enum BtlCounter { kBtlFragments, kBtlBytes, kStripeFragments, kBtlCounters };
enum QueueLevel { kUnexpectedLength, kUnexpectedHwm, kPostedLength, kPostedHwm };

struct PvarDef {
    std::string name;
    std::string desc;
    std::string category;
    int var_class;
    MPI_Datatype datatype;
    int verbosity;
    int bind;
    bool readonly;
    bool continuous;
    Source source;
    int which;
    Enum *enumtype = nullptr;
};

/* Every pvar, in index order (state pvars are added as components register them). Under state().mutex. */
std::vector<PvarDef> &pvar_defs();

/* The btl components in the order the per-transport pvars' elements follow, fixed when first known. */
int transport_count();

/* Raw values (count elements) of a pvar for a handle bound to `comm` (MPI_COMM_NULL when unbound):
 * MPI_SUCCESS or an MPI_T error. */
int pvar_raw(const PvarDef &def, MPI_Comm comm, std::vector<uint64_t> &out);

/* The number of elements of a pvar (0 when it cannot be had now: per-peer ones before MPI_Init). */
int pvar_count(const PvarDef &def);

} // namespace tessera::ompi::tool

#endif
