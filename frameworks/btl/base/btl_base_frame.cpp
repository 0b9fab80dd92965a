/* The btl framework: its declaration and the parameters shared by every btl component. */
#include "frameworks/btl/base/base.h"
#include "frameworks/btl/base/btl_base_internal.h"
#include "mca/var.h"

extern "C" const mca_base_component_t *const mca_btl_base_static_components[];

int mca_btl_base_striping = MCA_BTL_BASE_STRIPING_ROUND_ROBIN;
bool mca_btl_base_allow_mixed_exclusivity = false;

namespace {

const mca_var_enum_value_t striping_values[] = {
    {MCA_BTL_BASE_STRIPING_ROUND_ROBIN, "round_robin"},
    {MCA_BTL_BASE_STRIPING_WEIGHTED, "weighted"},
    {0, nullptr},
};

int register_params()
{
    /* Registration takes the storage's value as the default: start from the real defaults even when
     * the variables were registered and changed before (vars_finalize, then again). */
    mca_btl_base_striping = MCA_BTL_BASE_STRIPING_ROUND_ROBIN;
    mca_btl_base_allow_mixed_exclusivity = false;

    int rc = mca_var_register("btl", "base", "striping",
                              "How the fragments of a large message are spread over the modules that "
                              "reach the peer: round_robin (one each in turn) or weighted (in "
                              "proportion to each module's bandwidth)",
                              MCA_VAR_TYPE_ENUM, striping_values, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL,
                              MCA_VAR_FLAG_NONE, &mca_btl_base_striping);
    if (rc < 0) {
        return rc;
    }
    rc = mca_var_register("btl", "base", "allow_mixed_exclusivity",
                          "Also use modules of lower exclusivity than the best one that reaches a peer "
                          "(e.g. tcp next to shm on the same host)",
                          MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_5, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                          &mca_btl_base_allow_mixed_exclusivity);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

int close_framework()
{
    tessera::ompi::btl_base::release_all_peers();
    tessera::ompi::btl_base::release_modules();
    return TESSERA_SUCCESS;
}

} // namespace

extern "C" {
mca_base_framework_t mca_btl_base_framework = {
    .layer = "ompi",
    .name = "btl",
    .description = "Byte transfer layer: moves fragments between processes (self, shared memory, tcp)",
    .version = MCA_BTL_BASE_VERSION,
    .kind = MCA_FRAMEWORK_MANY_OF_MANY,
    .component_struct_size = sizeof(mca_btl_base_component_t),
    .register_params = register_params,
    .open = nullptr,
    .close = close_framework,
    .static_components = mca_btl_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
