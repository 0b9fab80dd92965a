#include "ompi/runtime/runtime_frameworks.h"

#include <algorithm>
#include <vector>

#include "mca/constants.h"
#include "mca/framework.h"
#include "mca/var_store.h"
#include "ompi/ompi_frameworks.h"
#include "orte/orte_frameworks.h"
#include "orte/runtime/launch_env.h"

namespace tessera::ompi {

namespace {

std::vector<mca_base_framework_t *> &opened()
{
    static std::vector<mca_base_framework_t *> list;
    return list;
}

} // namespace

std::string open_runtime_frameworks(bool warn_unknown)
{
    mca::load_sources();
    register_frameworks();

    const std::vector<mca_base_framework_t *> runtime_layer = orte::frameworks();
    std::vector<std::string> bad_selections;
    for (mca_base_framework_t *fw : frameworks()) {
        if (std::find(runtime_layer.begin(), runtime_layer.end(), fw) != runtime_layer.end()) {
            continue;
        }
        if (mca::framework_open(fw) == TESSERA_SUCCESS) {
            opened().push_back(fw);
        } else {
            bad_selections.emplace_back(fw->name);
        }
    }
    if (warn_unknown) {
        mca::warn_unknown_names(orte::warned_mca_names());
    }

    std::string problem;
    const std::vector<std::string> errors = mca::error_messages();
    if (!errors.empty()) {
        problem = std::to_string(errors.size()) + " bad MCA parameter setting" + (errors.size() == 1 ? "" : "s") +
                  " (first: " + errors.front() + ")";
    }
    if (!bad_selections.empty()) {
        std::string names;
        for (const std::string &n : bad_selections) {
            names += (names.empty() ? "" : ", ") + n;
        }
        problem += (problem.empty() ? "" : "; ") + std::string("the component selection of ") + names +
                   " cannot be applied (see above)";
    }
    return problem;
}

void close_runtime_frameworks()
{
    for (auto it = opened().rbegin(); it != opened().rend(); ++it) {
        mca::framework_close(*it);
    }
    opened().clear();
    mca::frameworks_finalize();
}

} // namespace tessera::ompi
