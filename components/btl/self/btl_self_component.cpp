/* btl self: registration, query and module creation. Every process can talk to itself, so the query
 * always accepts; the module's exclusivity makes it the only transport used for the own process. */
#include "components/btl/self/btl_self.h"

namespace tessera::ompi::btl_self {
namespace {

/* Among btl components only the order of modules of equal exclusivity depends on this. */
constexpr int kPriority = 100;

mca_btl_base_module_t *modules[1];

int query(void **module, int *priority)
{
    *module = nullptr; /* modules come from btl_init */
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

int close_component()
{
    module_destroy();
    return TESSERA_SUCCESS;
}

mca_btl_base_module_t **init(int *num_modules, bool, bool enable_mpi_threads)
{
    modules[0] = module_create(enable_mpi_threads);
    *num_modules = modules[0] != nullptr ? 1 : 0;
    return modules[0] != nullptr ? modules : nullptr;
}

} // namespace
} // namespace tessera::ompi::btl_self

using namespace tessera::ompi::btl_self;

mca_btl_base_component_t mca_btl_self_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "self", 1, 0,
                                       0),
             .mca_register_params = nullptr,
             .mca_open_component = nullptr,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .btl_init = init,
    .reserved = {},
};
