/* trace otf2: registration, query and module creation. Like every trace component it runs only when
 * the `trace` parameter names it (the framework's base enforces that). */
#include <iterator>
#include <string>

#include "components/trace/otf2/trace_otf2.h"
#include "mca/report.h"
#include "mca/var.h"

namespace tessera::ompi::trace_otf2 {

Params params;

namespace {

constexpr int kPriority = 20;

const mca_var_enum_value_t clock_values[] = {{kClockAuto, "auto"}, {kClockMonotonic, "monotonic"}, {0, nullptr}};
int register_params(const mca_base_component_t *)
{
    const mca_var_row_t rows[] = {
        {"dir", MCA_VAR_TYPE_STRING, "./tessera-trace", nullptr, nullptr,
         "Directory of the OTF2 archive (traces.otf2 and its files, one event stream per rank; created if "
         "missing, an earlier archive there is replaced)",
         MCA_INFO_LVL_2, nullptr, &params.dir},
        /* At least OTF2's smallest event chunk. */
        {"buffer_size", MCA_VAR_TYPE_SIZE, "16M", "256k", nullptr,
         "Memory for each rank's events (bytes, k/M/G suffixes); when it is full the events are written to the "
         "archive and recording goes on (at least 256k)",
         MCA_INFO_LVL_4, nullptr, &params.buffer_size},
        {"record_buffer_size", MCA_VAR_TYPE_SIZE, "16M", "4k", nullptr,
         "Memory for each rank's records as the MPI calls leave them (bytes, k/M/G suffixes; 40 bytes a record): "
         "when it is full, and at finalize, they are encoded into OTF2 events (at least 4k)",
         MCA_INFO_LVL_4, nullptr, &params.record_buffer_size},
        {"clock", MCA_VAR_TYPE_ENUM, "auto", nullptr, nullptr,
         "Clock of the records: auto (the processor's time-stamp counter when the kernel of every rank uses it as "
         "its clock source, else CLOCK_MONOTONIC) or monotonic",
         MCA_INFO_LVL_5, clock_values, &params.clock},
    };
    return mca_var_register_rows("trace", "otf2", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

int open_component()
{
    if (params.dir == nullptr || params.dir[0] == '\0') {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "trace_otf2_dir: empty; the otf2 trace component needs a directory for its archive");
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
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
    return module_create(job != nullptr ? *job : single);
}

} // namespace
} // namespace tessera::ompi::trace_otf2

using namespace tessera::ompi::trace_otf2;

mca_trace_base_component_t mca_trace_otf2_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_trace_base_component_t, "trace", MCA_TRACE_BASE_VERSION, "otf2", 1, 0,
                                       0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .trace_init = init,
    .reserved = {},
};
