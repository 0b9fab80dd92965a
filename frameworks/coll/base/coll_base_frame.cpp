/* The coll framework. */
#include "frameworks/coll/base/base.h"

extern "C" const mca_base_component_t *const mca_coll_base_static_components[];

extern "C" {
mca_base_framework_t mca_coll_base_framework = {
    .layer = "ompi",
    .name = "coll",
    .description = "Collective operations, chosen per communicator and per collective by priority",
    .version = MCA_COLL_BASE_VERSION,
    .kind = MCA_FRAMEWORK_PER_OBJECT,
    .component_struct_size = sizeof(mca_coll_base_component_t),
    .register_params = nullptr,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_coll_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
