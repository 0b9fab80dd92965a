/* The io framework. */
#include "frameworks/io/base/base.h"

extern "C" const mca_base_component_t *const mca_io_base_static_components[];

extern "C" {
mca_base_framework_t mca_io_base_framework = {
    .layer = "ompi",
    .name = "io",
    .description = "Parallel file access (MPI-IO), a module chosen per file by priority",
    .version = MCA_IO_BASE_VERSION,
    .kind = MCA_FRAMEWORK_PER_OBJECT,
    .component_struct_size = sizeof(mca_io_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_io_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
