/* The plm framework: one launcher per process that starts ranks (mpirun). */
#include "frameworks/plm/base/base.h"

extern "C" const mca_base_component_t *const mca_plm_base_static_components[];

extern "C" {
mca_base_framework_t mca_plm_base_framework = {
    .layer = "orte",
    .name = "plm",
    .description = "Process launch: starts, signals and reaps the processes of a job",
    .version = MCA_PLM_BASE_VERSION,
    .kind = MCA_FRAMEWORK_ONE_OF_MANY,
    .component_struct_size = sizeof(mca_plm_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_plm_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
