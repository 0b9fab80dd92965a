/* The trace framework. */
#include "frameworks/trace/base/base.h"

extern "C" const mca_base_component_t *const mca_trace_base_static_components[];

namespace {

int close_framework()
{
    mca_trace_base_finalize();
    return TESSERA_SUCCESS;
}

} // namespace

extern "C" {
mca_base_framework_t mca_trace_base_framework = {
    .layer = "ompi",
    .name = "trace",
    .description = "Tracing: observers of every MPI message and collective (otf2 archives, monitor counts)",
    .version = MCA_TRACE_BASE_VERSION,
    .kind = MCA_FRAMEWORK_MANY_OF_MANY,
    .component_struct_size = sizeof(mca_trace_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = close_framework,
    .static_components = mca_trace_base_static_components,
    .state = nullptr,
    .flags = MCA_FRAMEWORK_FLAG_OPT_IN,
    .reserved_u32 = 0,
    .reserved = {},
};
}
