/*
 * MPI_T (MPI-4.1 chapter 15), the MCA registry's face to tools: what every MPI_T call shares. Control
 * variables are the MCA parameters, by their index in the registry; categories are the frameworks and
 * their components; performance variables are kept in ompi/tool/mpit_pvar.h, events in mpit_event.h.
 *
 * MPI_T is thread-safe at every level (15.3: "MPI_T functions may be called from any thread at any
 * time"), works before MPI_Init and after MPI_Finalize, and is never on a message's path, so one plain
 * mutex guards all of its state.
 */
#ifndef TESSERA_OMPI_TOOL_MPIT_H
#define TESSERA_OMPI_TOOL_MPIT_H

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "mca/var_store.h"
#include "mca/var_tool.h"

namespace tessera::ompi::tool {

/* An enumeration (MPI_T_enum): the named values of an enum parameter, or of a state pvar. */
struct Enum {
    std::string name;
    std::vector<std::pair<int, std::string>> items;
};

struct Category {
    std::string name;
    std::string desc;
    std::vector<int> cvars;
    std::vector<int> pvars;
    std::vector<int> events;
    std::vector<int> children;
};

/* Everything MPI_T enumerates. Indices only grow: a tool may keep an index for the whole run (15.3.7). */
struct Catalog {
    std::vector<mca::VarInfo> cvars;                  /* by MCA variable index */
    std::vector<Enum *> cvar_enum;                    /* by cvar index; null for non-enums */
    std::deque<Enum> enums;                           /* never move: MPI_T_enum points at them */
    std::vector<Category> categories;
    std::map<std::string, int, std::less<>> category_by_name;
    int changed = 0;                                  /* MPI_T_category_changed */
    size_t frameworks_seen = 0;
};

struct State {
    std::mutex mutex;
    int init_count = 0;     /* MPI_T_init_thread minus MPI_T_finalize */
    Catalog catalog;
};

State &state();

/* Under state().mutex: MPI_T_ERR_NOT_INITIALIZED or MPI_SUCCESS. */
inline int require_init(const State &s)
{
    return s.init_count > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
}

/* Under state().mutex: brings the catalog up to the registry (parameters and frameworks registered
 * since the last call, e.g. by MPI_Init). */
void refresh_catalog(State &s);

/* The category named `name`, made (empty, child of `parent` when >= 0) when new. */
int category_for(Catalog &c, const std::string &name, const std::string &desc, int parent);

/* An enumeration that lives as long as the process (Catalog::enums). */
Enum *make_enum(Catalog &c, std::string name, std::vector<std::pair<int, std::string>> items);
/* The Enum of a handle, or null when the handle is not one of ours. */
const Enum *enum_of(const Catalog &c, MPI_T_enum handle);

/* Under state().mutex, when the last MPI_T user calls MPI_T_finalize: each kind of handle is freed by
 * the file that keeps it. */
void release_cvar_handles();
void release_pvar_sessions();
void release_event_registrations();

/* The pvars' categories (ompi/tool/mpit_pvar.cpp), added to the catalog with the others. */
void refresh_pvar_categories(Catalog &c);
/* The state pvars components registered since the last call (ompi/tool/mpit_counters.cpp). */
void add_pending_states(Catalog &c);
/* The events' categories (ompi/tool/mpit_event.cpp). */
void refresh_event_categories(Catalog &c);

/* The MCA level (1..9) as MPI_T's verbosity: user/tuner/developer x basic/detail/all, in order. */
int verbosity_of_level(int level);

/*
 * MPI_T's strings (15.3.3): with a null buffer or *len == 0, *len becomes the length the whole text
 * needs with its terminator; otherwise as much as fits is copied, terminated, and *len is what was
 * stored including the terminator. A null len means the caller wants nothing.
 */
void string_out(std::string_view text, char *buf, int *len);

/* The clock of the timestamps of events and the source MPI_T_source_* describes: nanoseconds of
 * CLOCK_MONOTONIC, the same in every thread of the process. */
MPI_Count timestamp_now();

} // namespace tessera::ompi::tool

#endif
