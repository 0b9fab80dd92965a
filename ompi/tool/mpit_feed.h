/*
 * What the engine tells MPI_T (docs/mpi_t.md): the performance variables' counters and the events.
 * The message path pays one load and one predictable branch: counters count only while a pvar session
 * has started one (counting()), events are raised only while a handle for them exists (raising()).
 * Numbers the engine keeps anyway (queue lengths, the collective algorithm chosen, JIT compilations) are
 * read where they are kept.
 */
#ifndef TESSERA_OMPI_TOOL_MPIT_FEED_H
#define TESSERA_OMPI_TOOL_MPIT_FEED_H

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "frameworks/btl/btl.h"
#include "ompi/proc/proc.h"

namespace tessera::ompi::tool {

/* Started counter handles over every session / allocated event registrations. */
extern std::atomic<int> counters_started;
extern std::atomic<int> event_handles;

inline bool counting()
{
    return counters_started.load(std::memory_order_relaxed) != 0;
}
inline bool raising()
{
    return event_handles.load(std::memory_order_relaxed) != 0;
}

/* A point-to-point message to `proc` (its first fragment goes out), of `bytes` bytes of data. */
void count_message_sent(const tessera_proc_t *proc, std::size_t bytes);
/* A message from `proc` reached matching (in order), `bytes` bytes of data. */
void count_message_received(const tessera_proc_t *proc, std::size_t bytes);
/* A fragment handed to `btl` (header and payload); `stripe`: a rendezvous data fragment. */
void count_fragment(const mca_btl_base_module_t *btl, std::size_t bytes, bool stripe);
/* Nanoseconds one fragment spent in matching. */
void count_match_time(uint64_t ns);
uint64_t clock_ns();

/* A message went to the unexpected queue of the communicator with `context` (event
 * pml_unexpected_message). */
void raise_unexpected(int context, int source, int tag, std::size_t bytes);
/* A JIT compilation finished (event dte_jit_compiled). */
void raise_jit_compiled(double seconds, std::size_t bytes);

} // namespace tessera::ompi::tool

extern "C" {
/*
 * For components (separate libraries): a state pvar whose values are those of the enum parameter
 * `enum_cvar` (the collective algorithm chosen: coll_tuned_bcast_algorithm's names), kept in libmpi so
 * that it outlives the component's DSO. Returns the slot for tessera_mpit_state_set, or -1.
 */
int tessera_mpit_state_register(const char *name, const char *desc, const char *enum_cvar);
void tessera_mpit_state_set(int slot, int value);
/* A JIT compilation finished after `seconds` (pvars dte_jit_compilations, dte_jit_compile_time, event
 * dte_jit_compiled); `bytes`: the size of one element of the compiled type. */
void tessera_mpit_jit_compiled(double seconds, size_t bytes);
}

#endif
