/*
 * Agreeing on context ids for a new communicator (comm_context.h says what they are).
 *
 * Every process taking part offers the ids free on it; the exchange (comm_channel.h) ANDs the offers,
 * and all take the lowest ids set in the result — the same ones everywhere, free everywhere. Processes
 * that will not be in the new communicator (a split's MPI_UNDEFINED, MPI_Comm_create's non-members)
 * offer every id: they constrain nothing.
 *
 * Concurrent creations in one process (an MPI_Comm_idup in flight while the application creates
 * another communicator) could pick the same id between offering and taking it. So each offer also says
 * whether this process is "quiet": a blocking creation with no other one running here, during which no
 * id can be taken behind its back. When every process was quiet the ids are taken at once (the usual
 * case: one exchange). Otherwise a second exchange confirms the choice: each process holds the ids if
 * they are still free and not held by another creation, and all take them only if every process could;
 * if not, everyone lets go and tries again with a new offer, in which the ids held meanwhile by others
 * are missing. A creation never waits for another one, so creations on different communicators cannot
 * deadlock, in whatever order processes start them; each retry follows a creation that got its ids.
 *
 * Under MPI_THREAD_MULTIPLE any thread may start a creation at any time, so no process is ever quiet:
 * every agreement confirms. No lock is held across an exchange: holding is what reserves the ids. Two
 * agreements running at once in the same processes see the same free ids, and each may win the hold
 * in a different process; both then fail and retry. So that they do not keep choosing the same ids, a
 * retry looks from a starting point every process draws at random, combined by MAX like the generation
 * (the same everywhere, different for each agreement).
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_AGREE_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_AGREE_H

#include <cstdint>
#include <vector>

#include "ompi/communicator/comm_channel.h"
#include "ompi/communicator/comm_task.h"

namespace tessera::ompi::comm {

struct Agreement {
    int count = 1;           /* ids wanted: 1, or 2 for an intercommunicator and its local_comm */
    bool keep = true;        /* this process will be in the new communicator */
    bool blocking = true;    /* false for MPI_Comm_idup */
    std::vector<int> mine{}; /* ints this process contributes to the first exchange (Exchanged) */
};

/* What an agreement gives the new communicator (comm_context.h). */
struct Agreed {
    std::vector<std::uint32_t> ids;
    std::uint32_t generation = 0;
};

/*
 * Agrees on a.count context ids and a generation over the channel; *records gets the first
 * exchange's ints, *agreed the ids (taken in comm_context when a.keep) and the generation.
 * MPI_ERR_INTERN (with the same outcome everywhere) when no id is free on every process; otherwise the
 * error class of a failed message.
 */
Task agree(Channel ch, Agreement a, Exchanged *records, Agreed *agreed);

} // namespace tessera::ompi::comm

#endif
