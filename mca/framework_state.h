/*
 * The run-time state behind mca_base_framework_t::state, shared by the life cycle (framework.cpp) and
 * selection (select.cpp). Private to the MCA core: frameworks and components never see it.
 */
#ifndef TESSERA_MCA_FRAMEWORK_STATE_H
#define TESSERA_MCA_FRAMEWORK_STATE_H

#include <mutex>
#include <string>
#include <vector>

#include "mca/component_repository.h"
#include "mca/framework.h"

/*
 * One per framework for the life of the process, even across frameworks_finalize: the parameter system
 * keeps pointers to `selection` and `verbose`, which therefore must never move or be freed.
 */
struct mca_framework_state {
    bool registered = false;
    int refcount = 0;
    bool loaded = false; /* components found and their parameters registered */
    /* After register: every component that passed the checks. After open: the open ones; after
     * selection: the selected ones. Erasing an entry unloads its DSO. */
    std::vector<tessera::mca::FoundComponent> components;
    const char *selection = nullptr; /* parameter "<fw>" */
    int verbose = 0;                 /* parameter "<fw>_base_verbose" */
};

namespace tessera::mca {

/* Held by every framework and selection call; recursive because a component's open may open another
 * framework. */
std::recursive_mutex &framework_mutex();

/* Calls the close function of an open component; its DSO goes when its entry is erased. */
void close_component(const mca_base_framework_t &fw, const FoundComponent &component);

} // namespace tessera::mca

#endif
