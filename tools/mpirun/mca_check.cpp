#include "mca_check.h"

#include <cstdio>
#include <string>
#include <vector>

#include "mca/constants.h"
#include "mca/framework.h"
#include "mca/select.h"
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

} // namespace

bool check_mca_settings(const tessera::mca::CmdlineResult &)
{
    tessera::mca::load_sources();
    tessera::ompi::register_frameworks();
    bool ok = selections_ok();
    /* An unknown name is only a warning (with the closest names), as everywhere: a rank on another
     * host may load components, and so register parameters, that mpirun never sees. */
    tessera::mca::warn_unknown_names();
    if (tessera::mca::error_count() > 0) {
        ok = false;
    }
    if (!ok) {
        std::fprintf(stderr, "mpirun: not starting the job: fix the MCA settings above\n");
    }
    return ok;
}

} // namespace tessera::mpirun
