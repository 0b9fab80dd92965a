/* The ess framework: one module per process, from MPI_Init to MPI_Finalize. */
#include "frameworks/ess/base/base.h"

extern "C" const mca_base_component_t *const mca_ess_base_static_components[];

extern "C" {
mca_base_framework_t mca_ess_base_framework = {
    .layer = "orte",
    .name = "ess",
    .description = "Who the process is (rank, size, node, peers) and the wire-up exchange with its launcher",
    .version = MCA_ESS_BASE_VERSION,
    .kind = MCA_FRAMEWORK_ONE_OF_MANY,
    .component_struct_size = sizeof(mca_ess_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_ess_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
