/* The plm framework: one launcher per process that starts ranks (mpirun), and the parameters of
 * mpirun's watch over a job that are the launcher's, not a component's. */
#include <iterator>

#include "frameworks/plm/base/base.h"
#include "mca/var.h"

extern "C" const mca_base_component_t *const mca_plm_base_static_components[];

double mca_plm_base_wireup_timeout;
double mca_plm_base_abort_grace;
double mca_plm_base_sentinel_settle;

namespace {

int register_params()
{
    const mca_var_row_t rows[] = {
        {"wireup_timeout", MCA_VAR_TYPE_DOUBLE, "300", "0.001", nullptr,
         "Seconds mpirun waits, once every rank has been started and some rank has reached the wire-up, for the "
         "ranks that have not; then it ends the job naming them (--timeout bounds the whole job as well)",
         MCA_INFO_LVL_4, nullptr, &mca_plm_base_wireup_timeout},
        {"abort_grace", MCA_VAR_TYPE_DOUBLE, "1", "0", nullptr,
         "Seconds mpirun waits for a rank that is dying (being killed) when another rank fails, so that the "
         "report names the rank that died first, not one that saw it die",
         MCA_INFO_LVL_5, nullptr, &mca_plm_base_abort_grace},
        {"sentinel_settle", MCA_VAR_TYPE_DOUBLE, "2", "0", nullptr,
         "Seconds mpirun's sentinel waits, after mpirun was killed outright, for the ranks it killed to be "
         "gone before it removes the job's /dev/shm entries anyway; also how long mpirun waits for its "
         "sentinel at the end of a job",
         MCA_INFO_LVL_6, nullptr, &mca_plm_base_sentinel_settle},
    };
    return mca_var_register_rows("plm", "base", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

} // namespace

extern "C" {
mca_base_framework_t mca_plm_base_framework = {
    .layer = "orte",
    .name = "plm",
    .description = "Process launch: starts, signals and reaps the processes of a job",
    .version = MCA_PLM_BASE_VERSION,
    .kind = MCA_FRAMEWORK_ONE_OF_MANY,
    .component_struct_size = sizeof(mca_plm_base_component_t),
    .register_params = register_params,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_plm_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
