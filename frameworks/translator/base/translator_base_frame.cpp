/* The translator framework. */
#include "frameworks/translator/base/base.h"

extern "C" const mca_base_component_t *const mca_translator_base_static_components[];

extern "C" {
mca_base_framework_t mca_translator_base_framework = {
    .layer = "ompi",
    .name = "translator",
    .description = "Which MPI runtime serves the application's calls (native, Open MPI, MPICH)",
    .version = MCA_TRANSLATOR_BASE_VERSION,
    .kind = MCA_FRAMEWORK_ONE_OF_MANY,
    .component_struct_size = sizeof(mca_translator_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_translator_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
