#include "mca_check.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "mca/constants.h"
#include "mca/framework.h"
#include "mca/select.h"
#include "mca/var.h"
#include "mca/var_store.h"
#include "ompi/ompi_frameworks.h"

namespace tessera::mpirun {
namespace {

/* The selection parameter of each framework, parsed as framework_open would, without opening. */
bool selections_ok()
{
    bool ok = true;
    const std::vector<tessera::mca::LoadError> refused = tessera::mca::load_errors();
    for (mca_base_framework_t *fw : tessera::mca::registered_frameworks()) {
        auto var = tessera::mca::find_var(fw->name);
        if (!var || var->value.empty()) {
            continue;
        }
        std::vector<std::string> names;
        for (const tessera::mca::ComponentEntry &c : tessera::mca::framework_components(fw)) {
            names.emplace_back(c.component->mca_component_name);
        }
        std::vector<tessera::mca::LoadError> mine;
        for (const tessera::mca::LoadError &e : refused) {
            if (e.framework == fw->name) {
                mine.push_back(e);
            }
        }
        tessera::mca::Selection selection;
        if (tessera::mca::parse_selection(fw->name, var->value, names, mine, &selection) != TESSERA_SUCCESS) {
            ok = false;
        }
    }
    return ok;
}

/* Every parameter with a range, component by component, as framework_open checks a component's before
 * opening it: a rank would stop at the first it opens. */
bool ranges_ok()
{
    std::set<std::pair<std::string, std::string>> owners;
    for (const tessera::mca::VarInfo &v : tessera::mca::list_vars()) {
        if (!v.min_value.empty() || !v.max_value.empty()) {
            owners.emplace(v.framework, v.component);
        }
    }
    int bad = 0;
    for (const auto &[framework, component] : owners) {
        bad += std::max(0, mca_var_check_ranges(framework.c_str(), component.c_str()));
    }
    return bad == 0;
}

} // namespace

bool check_mca_settings(const tessera::mca::CmdlineResult &, std::vector<std::string> *warned_names)
{
    tessera::mca::load_sources();
    tessera::ompi::register_frameworks();
    bool ok = selections_ok();
    ok = ranges_ok() && ok;
    /* An unknown name is only a warning (with the closest names), as everywhere: a rank on another
     * host may load components, and so register parameters, that mpirun never sees. */
    tessera::mca::warn_unknown_names();
    *warned_names = tessera::mca::unknown_names();
    if (tessera::mca::error_count() > 0) {
        ok = false;
    }
    if (!ok) {
        std::fprintf(stderr, "mpirun: not starting the job: fix the MCA settings above\n");
    }
    return ok;
}

} // namespace tessera::mpirun
