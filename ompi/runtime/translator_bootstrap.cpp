#include "ompi/runtime/translator_bootstrap.h"

#include <cstdlib>
#include <string>

#include "frameworks/translator/base/base.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/runtime/abi_functions.h"
#include "ompi/runtime/launcher_settings.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi {

namespace {

/*
 * At exit, the translator lets go of its runtime (translator.h: "after MPI_Finalize, or when the process
 * exits without it") and every framework still open closes, unloading the component DSOs while the MCA
 * core's static objects still exist: a DSO unloaded during static destruction parks its parameters in a
 * map that may already be gone (the selection below unloads the translators it does not keep, which
 * constructs that map after the frameworks' own). Under a runtime translator nothing else closes them
 * (the native MPI_Finalize never runs), and a native rank may exit without MPI_Finalize. Registered
 * after the selection, so it runs before the destructors of the statics the selection created, and
 * after the runtime's own exit handlers (registered later, by its MPI_Init). After the native
 * MPI_Finalize it finds everything closed already.
 */
void release_at_exit()
{
    (void)mca_translator_base_finalize();
    mca::frameworks_finalize();
}

} // namespace

int bootstrap_translator(tessera_mpi_dispatch_t *table, size_t *filled)
{
    /* A malformed setting is reported again, as an error of MPI_Init, when the native engine runs. */
    if (std::string bad = apply_launcher_settings(); !bad.empty()) {
        mca::report(mca::Severity::Error, bad);
    }
    mca::load_sources();
    mca_translator_base_module_t *module = nullptr;
    int rc = mca_translator_base_select(&module);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    /* The process's procs (in the Runtime) must outlive the frameworks closed at exit, which release
     * their endpoints (a rank that exits without MPI_Finalize): constructed before the handler is
     * registered, the Runtime is destroyed after it runs. */
    (void)runtime();
    std::atexit(release_at_exit);
    size_t count = 0;
    rc = module->translator_fill(module, TESSERA_MPI_LAYOUT, reinterpret_cast<mca_translator_base_fn_t *>(table),
                                 TESSERA_MPI_FUNCTION_COUNT, &count);
    if (rc != TESSERA_SUCCESS) {
        /* A half-filled table would mix runtimes; the fallbacks at least say what is wrong. */
        *table = tessera_mpi_unsupported_fallbacks;
        mca::report(mca::Severity::Error, std::string("translator: ") + mca_translator_base_runtime_name() +
                                              " could not fill the MPI dispatch table: " + tessera_strerror(rc));
        return rc;
    }
    install_abi_functions(table);
    if (filled != nullptr) {
        *filled = count;
    }
    return TESSERA_SUCCESS;
}

} // namespace tessera::ompi
