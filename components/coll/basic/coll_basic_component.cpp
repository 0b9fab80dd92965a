/* coll basic: registration and the module each communicator gets. */
#include "components/coll/basic/coll_basic.h"

#include "mca/var.h"

namespace tessera::ompi::coll_basic {

/* Low: any other component that implements a collective should serve it; basic is the fallback and the
 * reference. */
int priority = 10;

namespace {

int register_params(const mca_base_component_t *)
{
    const int rc = mca_var_register("coll", "basic", "priority",
                                    "Priority of the basic (linear, reference) collectives: for each collective "
                                    "of a communicator the highest-priority component implementing it serves it",
                                    MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL,
                                    MCA_VAR_FLAG_NONE, &priority);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

mca_coll_base_module_t *comm_query(struct tessera_comm *comm, int *out_priority)
{
    *out_priority = priority;
    return module_create(coll::of(comm)->is_inter());
}

} // namespace
} // namespace tessera::ompi::coll_basic

using namespace tessera::ompi::coll_basic;

mca_coll_base_component_t mca_coll_basic_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_coll_base_component_t, "coll", MCA_COLL_BASE_VERSION, "basic", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = nullptr,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .coll_init_query = nullptr,
    .coll_comm_query = comm_query,
    .reserved = {},
};
