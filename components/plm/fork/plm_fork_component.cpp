/* plm fork: registration, open and query. Fork works on every POSIX host, at a low priority so that
 * a launcher for a managed environment wins when it is available. */
#include <cmath>
#include <iterator>
#include <string>

#include "components/plm/fork/plm_fork.h"
#include "mca/report.h"
#include "mca/var.h"

namespace tessera::orte::plm_fork {

double kill_grace = 1.0;

namespace {

constexpr int kPriority = 10;

/* The module handed out by query; the launcher behind it lives until close. */
constinit plm::LauncherModule module(&mca_plm_fork_component);

int register_params(const mca_base_component_t *)
{
    /* A row with its range, so that mpirun refuses a negative grace before it starts any rank. */
    const mca_var_row_t rows[] = {
        {"kill_grace", MCA_VAR_TYPE_DOUBLE, "1", "0", nullptr,
         "Seconds a process is given to exit after SIGTERM when the job is torn down, before SIGKILL",
         MCA_INFO_LVL_5, nullptr, &kill_grace},
    };
    return mca_var_register_rows("plm", "fork", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

int open_component()
{
    if (!std::isfinite(kill_grace) || kill_grace < 0.0) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             tessera::mca::bad_value("plm_fork_kill_grace", std::to_string(kill_grace),
                                                     "is not a number of seconds >= 0"));
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

int close_component()
{
    module.close();
    return TESSERA_SUCCESS;
}

int query(void **out_module, int *priority)
{
    return module.query([] { return make_launcher(kill_grace); }, kPriority, out_module, priority);
}

} // namespace
} // namespace tessera::orte::plm_fork

using namespace tessera::orte::plm_fork;

mca_plm_base_component_t mca_plm_fork_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_plm_base_component_t, "plm", MCA_PLM_BASE_VERSION, "fork", 1, 0,
                                       0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
