/* The parameters every btl component has: one registration and one check for all of them. */
#include <iterator>
#include <optional>
#include <string>

#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "mca/var.h"
#include "mca/var_store.h"

namespace {

/* Said of any transport; a component may say it of itself instead. */
constexpr const char *kEagerLimitHelp = "Largest message (header included) the pml sends in one fragment";
constexpr const char *kMaxSendSizeHelp = "Largest fragment, header included";
constexpr const char *kLatencyHelp = "One-way latency estimate of a small fragment, ns (orders a peer's modules)";
constexpr const char *kBandwidthHelp = "Bandwidth estimate, MB/s (weights striping)";

mca_var_row_t row(const char *name, mca_var_type_t type, const mca_btl_base_param_spec_t &spec,
                  const char *base_help, void *storage)
{
    return {name, type, spec.default_value, spec.min, spec.max, spec.help != nullptr ? spec.help : base_help,
            spec.level, nullptr, storage};
}

} // namespace

extern "C" int mca_btl_base_register_common(const char *component, const mca_btl_base_common_specs_t *specs,
                                            mca_btl_base_common_params_t *params)
{
    const mca_var_row_t rows[] = {
        row("eager_limit", MCA_VAR_TYPE_SIZE, specs->eager_limit, kEagerLimitHelp, &params->eager_limit),
        row("max_send_size", MCA_VAR_TYPE_SIZE, specs->max_send_size, kMaxSendSizeHelp, &params->max_send_size),
        row("latency", MCA_VAR_TYPE_UNSIGNED, specs->latency, kLatencyHelp, &params->latency),
        row("bandwidth", MCA_VAR_TYPE_UNSIGNED, specs->bandwidth, kBandwidthHelp, &params->bandwidth),
    };
    return mca_var_register_rows("btl", component, rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

extern "C" int mca_btl_base_check_common(const char *component, const mca_btl_base_common_params_t *params)
{
    if (params->eager_limit <= params->max_send_size) {
        return TESSERA_SUCCESS;
    }
    const std::string prefix = std::string("btl_") + component + "_";
    const std::string max_send_size = prefix + "max_send_size (" + std::to_string(params->max_send_size) + ")";
    /* The eager limit's own minimum, if its row has one, is the other end of what it may be. */
    const std::optional<tessera::mca::VarInfo> eager = tessera::mca::find_var(prefix + "eager_limit");
    const std::string min = eager.has_value() ? eager->min_value : "";
    tessera::mca::report(tessera::mca::Severity::Error,
                         tessera::mca::bad_value(prefix + "eager_limit", std::to_string(params->eager_limit),
                                                 min.empty() ? "is larger than " + max_send_size
                                                             : "is not in " + min + ".." + max_send_size));
    return TESSERA_ERR_BAD_PARAM;
}
