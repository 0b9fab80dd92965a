/* osc sm: parameters, and a module for each window whose processes all share this host. */
#include <iterator>

#include "components/osc/sm/osc_sm.h"
#include "mca/constants.h"
#include "mca/var.h"
#include "ompi/proc/proc.h"

namespace tessera::ompi::osc_sm {

Params params;

namespace {

int register_params(const mca_base_component_t *)
{
    const mca_var_row_t rows[] = {
        {"priority", MCA_VAR_TYPE_INT, "20", nullptr, nullptr,
         "Priority of the shared-memory one-sided communication, offered for MPI_Win_allocate_shared windows and "
         "for MPI_Win_allocate windows whose processes all share a host (am: 10, serves the rest)",
         MCA_INFO_LVL_6, nullptr, &params.priority},
        {"noncontig_alignment", MCA_VAR_TYPE_SIZE, "4096", "64", "1G",
         "Where each process's part of a window's segment starts (a multiple of this) when the parts need not be "
         "contiguous: MPI_Win_allocate windows, and shared windows with the alloc_shared_noncontig hint; a page "
         "keeps each part on pages of its own (the first touch places them near their process); rounded up to a "
         "power of two; the value of the window's rank 0 decides",
         MCA_INFO_LVL_6, nullptr, &params.noncontig_alignment},
        {"polls", MCA_VAR_TYPE_INT, "64", "1", nullptr,
         "While waiting for a lock, a post, a completion or an accumulate lock, polls of the word between two "
         "passes of the progress engine (which yields the CPU when this host's ranks outnumber its cores)",
         MCA_INFO_LVL_6, nullptr, &params.polls},
    };
    return mca_var_register_rows("osc", "sm", rows, std::size(rows), MCA_VAR_SCOPE_ALL);
}

/* Every process answers alike: the flavor and the group's procs are the same facts everywhere. */
mca_osc_base_module_t *win_query(struct tessera_win *win, const mca_osc_base_window_args_t *args, int *out_priority)
{
    if (args->flavor != MPI_WIN_FLAVOR_SHARED && args->flavor != MPI_WIN_FLAVOR_ALLOCATE) {
        return nullptr;
    }
    for (const tessera_proc_t *p : osc::of(args->comm)->procs) {
        if ((p->proc_flags & (TESSERA_PROC_ON_NODE | TESSERA_PROC_IS_SELF)) == 0) {
            return nullptr;
        }
    }
    *out_priority = params.priority;
    return module_create(osc::of(win));
}

} // namespace
} // namespace tessera::ompi::osc_sm

using namespace tessera::ompi::osc_sm;

mca_osc_base_component_t mca_osc_sm_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_osc_base_component_t, "osc", MCA_OSC_BASE_VERSION, "sm", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .osc_init_query = nullptr,
    .osc_win_query = win_query,
    .reserved = {},
};
