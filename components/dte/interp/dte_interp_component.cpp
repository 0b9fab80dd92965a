/* dte interp: registration. There is nothing to open: plans are made per type (dte_interp_plan.cpp). */
#include "components/dte/interp/dte_interp.h"

#include "mca/var.h"

namespace tessera::ompi::dte_interp {

/* Below a compiled engine (jit), which serves a type better once its code is ready. */
int priority = 10;

namespace {

int register_params(const mca_base_component_t *)
{
    const int rc = mca_var_register("dte", "interp", "priority",
                                    "Priority of the interpreter's plans: among the plans offered for a type "
                                    "the highest serves it",
                                    MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL,
                                    MCA_VAR_FLAG_NONE, &priority);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::ompi::dte_interp

using namespace tessera::ompi::dte_interp;

mca_dte_base_component_t mca_dte_interp_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_dte_base_component_t, "dte", MCA_DTE_BASE_VERSION, "interp", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .dte_plan_create = plan_create,
    .reserved = {},
};
