#include "frameworks/plm/base/base.h"
#include "mca/report.h"

namespace tessera::orte::plm {

int select_module(mca_plm_base_module_t **module, const mca_plm_base_component_t **component)
{
    tessera::mca::SelectedComponent chosen;
    int rc = tessera::mca::select_one(&mca_plm_base_framework, &chosen);
    if (rc != TESSERA_SUCCESS && rc != TESSERA_ERR_NOT_FOUND) {
        return rc;
    }
    if (rc == TESSERA_ERR_NOT_FOUND || chosen.component == nullptr || chosen.module == nullptr) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "plm: no launcher is available (no plm component accepted)");
        return TESSERA_ERR_NOT_FOUND;
    }
    *module = static_cast<mca_plm_base_module_t *>(chosen.module);
    if (component != nullptr) {
        *component = reinterpret_cast<const mca_plm_base_component_t *>(chosen.component);
    }
    return TESSERA_SUCCESS;
}

} // namespace tessera::orte::plm
