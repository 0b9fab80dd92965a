/* trace monitor: registration, query and module creation. Like every trace component it runs only
 * when the `trace` parameter names it (the framework's base enforces that). */
#include "components/trace/monitor/trace_monitor.h"
#include "mca/report.h"
#include "mca/var.h"

namespace tessera::ompi::trace_monitor {

const char *filename = "";

namespace {

constexpr int kPriority = 10;

int register_params(const mca_base_component_t *)
{
    filename = "";
    int rc = mca_var_register("trace", "monitor", "filename",
                              "File the monitor writes its per-peer message and byte counts to at "
                              "finalize (%r: the world rank; without it a job of several ranks writes "
                              "<name>.<rank>); empty: standard error",
                              MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_2, MCA_VAR_SCOPE_LOCAL,
                              MCA_VAR_FLAG_NONE, &filename);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

int close_component()
{
    module_destroy();
    return TESSERA_SUCCESS;
}

int query(void **module, int *priority)
{
    *module = nullptr; /* the module comes from trace_init, which knows the job */
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

mca_trace_base_module_t *init(const mca_trace_base_job_info_t *job)
{
    mca_trace_base_job_info_t single{};
    single.world_size = 1;
    mca_trace_base_module_t *m = module_create(job != nullptr ? *job : single);
    if (m == nullptr) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "trace monitor: already counting for this process; a second module is not created");
    }
    return m;
}

} // namespace
} // namespace tessera::ompi::trace_monitor

using namespace tessera::ompi::trace_monitor;

mca_trace_base_component_t mca_trace_monitor_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_trace_base_component_t, "trace", MCA_TRACE_BASE_VERSION, "monitor",
                                       1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = nullptr,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .trace_init = init,
    .reserved = {},
};
