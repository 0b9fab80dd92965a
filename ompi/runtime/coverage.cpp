#include "ompi/runtime/coverage.h"

#include <cstring>

#include "frameworks/translator/base/base.h"
#include "ompi/runtime/abi_functions.h"
#include "tessera_mpi_dispatch.h"

namespace tessera::ompi {

TranslatorCoverage translator_coverage()
{
    TranslatorCoverage c;
    mca_translator_base_module_t *module = nullptr;
    int rc = mca_translator_base_select(&module);
    if (rc != TESSERA_SUCCESS) {
        c.error = std::string("no translator could be selected: ") + tessera_strerror(rc);
        mca_translator_base_finalize();
        return c;
    }
    if (module->translator_component != nullptr) {
        const mca_base_component_t &base = module->translator_component->base;
        c.component.assign(base.mca_component_name, strnlen(base.mca_component_name, sizeof base.mca_component_name));
    }
    tessera_mpi_dispatch_t table = tessera_mpi_unsupported_fallbacks;
    size_t filled = 0;
    rc = module->translator_fill(module, TESSERA_MPI_LAYOUT, reinterpret_cast<mca_translator_base_fn_t *>(&table),
                                 TESSERA_MPI_FUNCTION_COUNT, &filled);
    if (rc != TESSERA_SUCCESS) {
        c.error = "translator " + c.component + " could not fill the table: " + tessera_strerror(rc);
        table = tessera_mpi_unsupported_fallbacks;
    } else {
        install_abi_functions(&table);
    }
    /* After the fill: a module may describe its runtime only once it has loaded it. */
    c.runtime = module->translator_runtime != nullptr ? module->translator_runtime : c.component;
    c.functions.reserve(TESSERA_MPI_FUNCTION_COUNT);
    for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
        c.functions.push_back(
            {tessera_mpi_slots[i].name, tessera_mpi_slots[i].category, tessera_mpi_slot_filled(&table, i) != 0});
    }
    mca_translator_base_finalize();
    return c;
}

} // namespace tessera::ompi
