/*
 * This process's context ids: which are in use, which are held for a creation being confirmed.
 *
 * A context id tags a communicator's messages; the receiver finds the communicator by it (the
 * point-to-point engine indexes its state by id, so ids are small and reused). An id therefore needs
 * to be unique within each process only, and every member of a communicator must use the same id for
 * it: the members agree on one that is free on all of them (comm_agree.h). Disjoint communicators may
 * share an id — MPI_Comm_split gives every color's communicator the same one.
 *
 * What the agreement needs from each process is here, apart from any communication so that it can be
 * tested alone: the mask it offers, holding an id while the choice is confirmed, taking and freeing.
 * Every function may be called from any thread: each takes this process's id lock (opal::Mutex, so
 * nothing below MPI_THREAD_MULTIPLE), and none holds it on return.
 */
#ifndef TESSERA_OMPI_COMMUNICATOR_COMM_CONTEXT_H
#define TESSERA_OMPI_COMMUNICATOR_COMM_CONTEXT_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::ompi::cid {

/* mpi_max_context_ids: how many ids a process has (registered by register_params). */
extern int max_ids;
int register_params();

/* Starts over with `count` ids (rounded up to a multiple of 64), all free but WORLD's and SELF's. */
void reset(std::size_t count);

/* One bit per id, 64 ids per word: set = free here and not held. */
std::vector<std::uint64_t> offer();
/* The `count` lowest ids set in `mask` from `start` on, wrapping round to 0 (fewer when it has fewer). */
std::vector<std::uint32_t> lowest(std::span<const std::uint64_t> mask, std::size_t count, std::size_t start = 0);

/* Holds the ids for a creation being confirmed: true when all were free and not held (then all are
 * held), false otherwise (then none is). */
bool hold(std::span<const std::uint32_t> ids);
void unhold(std::span<const std::uint32_t> ids);
/* The ids are in use (held or free before). */
void take(std::span<const std::uint32_t> ids);
/* A communicator's id is free again. */
void release(std::uint32_t id);
bool in_use(std::uint32_t id);
std::size_t used_count();

/*
 * Generations. A freed communicator's id is reused, and a message sent on it that arrives late (or was
 * never received) must not reach the next communicator with that id. So every communicator also gets a
 * generation, agreed with its id: the largest of its members' floors, each process's floor being above
 * every generation it took part in (WORLD and SELF have 0). A message carries it; at a receiver, the
 * communicator holding an id always has a higher generation than any earlier one there with that id.
 */
std::uint32_t generation_floor();
/* This process took part in a communicator of `generation`: its floor goes above it. */
void generation_taken(std::uint32_t generation);

/* Creations agreeing on ids in this process right now (a blocking one alone needs no confirmation). */
void agreement_begin();
void agreement_end();
int agreements_running();

} // namespace tessera::ompi::cid

#endif
