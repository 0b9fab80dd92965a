/* The dte framework. */
#include "frameworks/dte/base/base.h"

extern "C" const mca_base_component_t *const mca_dte_base_static_components[];

extern "C" {
mca_base_framework_t mca_dte_base_framework = {
    .layer = "ompi",
    .name = "dte",
    .description = "Datatype engine: turns committed datatypes into pack/unpack plans (interpreter, LLVM JIT)",
    .version = MCA_DTE_BASE_VERSION,
    .kind = MCA_FRAMEWORK_PER_OBJECT,
    .component_struct_size = sizeof(mca_dte_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_dte_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
