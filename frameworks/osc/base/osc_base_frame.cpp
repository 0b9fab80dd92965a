/* The osc framework. */
#include "frameworks/osc/base/base.h"

extern "C" const mca_base_component_t *const mca_osc_base_static_components[];

extern "C" {
mca_base_framework_t mca_osc_base_framework = {
    .layer = "ompi",
    .name = "osc",
    .description = "One-sided communication, a module chosen per window by priority",
    .version = MCA_OSC_BASE_VERSION,
    .kind = MCA_FRAMEWORK_PER_OBJECT,
    .component_struct_size = sizeof(mca_osc_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_osc_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
