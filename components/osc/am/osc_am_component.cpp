/* osc am: registration and the module each window gets. */
#include "components/osc/am/osc_am.h"

#include "mca/constants.h"
#include "mca/var.h"

namespace tessera::ompi::osc_am {

/* Low: a component specialised for a window (shared memory on one host) should serve it; am serves
 * every window and is the fallback. */
int priority = 10;

namespace {

int register_params(const mca_base_component_t *)
{
    const int rc = mca_var_register("osc", "am", "priority",
                                    "Priority of the am (active message) one-sided communication: each window is "
                                    "served by the highest-priority component offering a module for it",
                                    MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL,
                                    MCA_VAR_FLAG_NONE, &priority);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

mca_osc_base_module_t *win_query(struct tessera_win *win, const mca_osc_base_window_args_t *args, int *out_priority)
{
    /* Shared windows need memory the processes share: osc sm's. */
    if (args->flavor == MPI_WIN_FLAVOR_SHARED) {
        return nullptr;
    }
    *out_priority = priority;
    return module_create(osc::of(win));
}

} // namespace
} // namespace tessera::ompi::osc_am

using namespace tessera::ompi::osc_am;

mca_osc_base_component_t mca_osc_am_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_osc_base_component_t, "osc", MCA_OSC_BASE_VERSION, "am", 1, 0, 0),
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
