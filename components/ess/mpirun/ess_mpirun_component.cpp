/* ess mpirun: registration and query. mpirun marks its ranks with TESSERA_KV_URI; the highest
 * priority, because a rank of our mpirun may well run inside another launcher's job (an srun step). */
#include <cstdlib>

#include "components/ess/mpirun/ess_mpirun.h"
#include "mca/constants.h"
#include "orte/runtime/launch_env.h"

namespace tessera::orte::ess_mpirun {

namespace {

constexpr int kPriority = 100;

int close_component()
{
    reset();
    return TESSERA_SUCCESS;
}

int query(void **out_module, int *priority)
{
    const char *uri = std::getenv(kEnvKvUri);
    if (uri == nullptr) {
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    *out_module = module();
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::orte::ess_mpirun

using namespace tessera::orte::ess_mpirun;

mca_ess_base_component_t mca_ess_mpirun_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_ess_base_component_t, "ess", MCA_ESS_BASE_VERSION, "mpirun", 1, 0, 0),
             .mca_register_params = nullptr,
             .mca_open_component = nullptr,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
