/* translator base: what every component uses besides the depth — the table layout, the direct table,
 * decline reasons and the launcher seen in the environment. */
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "frameworks/translator/base/base.h"
#include "mca/constants.h"
#include "mca/report.h"
#include "tessera_mpi_dispatch.h"

namespace {

std::mutex &decline_mutex()
{
    static std::mutex m;
    return m;
}

std::map<std::string, std::string> &declines()
{
    static std::map<std::string, std::string> reasons;
    return reasons;
}

bool set(const char *name)
{
    const char *v = std::getenv(name);
    return v != nullptr && v[0] != '\0';
}

} // namespace

extern "C" {

const char *mca_translator_base_layout(void)
{
    return TESSERA_MPI_LAYOUT;
}

int mca_translator_base_layout_check(const char *component, const char *built_for, const char *given)
{
    if (built_for != nullptr && given != nullptr && std::string(built_for) == given) {
        return TESSERA_SUCCESS;
    }
    tessera::mca::report(tessera::mca::Severity::Error,
                         std::string("translator ") + (component != nullptr ? component : "?") +
                             ": built for dispatch table layout " + (built_for != nullptr ? built_for : "(none)") +
                             " but this libmpi has " + (given != nullptr ? given : "(none)") +
                             "; rebuild the component with this Tessera");
    return TESSERA_ERR_VERSION;
}

mca_translator_base_fn_t *mca_translator_base_direct_table(size_t *entries)
{
    static_assert(sizeof(tessera_mpi_direct) == TESSERA_MPI_FUNCTION_COUNT * sizeof(mca_translator_base_fn_t),
                  "the dispatch table is an array of function pointers");
    if (entries != nullptr) {
        *entries = TESSERA_MPI_FUNCTION_COUNT;
    }
    return reinterpret_cast<mca_translator_base_fn_t *>(&tessera_mpi_direct);
}

int mca_translator_base_decline(const char *component, const char *reason)
{
    std::lock_guard lock(decline_mutex());
    declines()[component != nullptr ? component : ""] = reason != nullptr ? reason : "";
    return TESSERA_ERR_NOT_AVAILABLE;
}

const char *mca_translator_base_decline_reason(const char *component)
{
    std::lock_guard lock(decline_mutex());
    auto it = declines().find(component != nullptr ? component : "");
    return it == declines().end() ? nullptr : it->second.c_str();
}

mca_translator_base_launcher_t mca_translator_base_launcher(void)
{
    /* Only Open MPI's own launchers (ORTE's mpirun, prterun with Open MPI's personality) set
     * OMPI_COMM_WORLD_*. PMIX_RANK says no more than "a PMIx server started me": srun --mpi=pmix sets
     * it without any OMPI_ variable, and the native engine serves that launch itself (ess pmix).
     * Hydra sets PMI_RANK, and PMI_FD (or PMI_PORT with a remote proxy); so does srun --mpi=pmi2, which
     * MPICH's library serves. Our own launcher sets none of them. */
    if (set("OMPI_COMM_WORLD_SIZE") || set("OMPI_COMM_WORLD_RANK")) {
        return MCA_TRANSLATOR_LAUNCHER_OPENMPI;
    }
    if (set("PMI_RANK") || set("PMI_FD") || set("PMI_PORT")) {
        return MCA_TRANSLATOR_LAUNCHER_HYDRA;
    }
    if (set("PMIX_RANK")) {
        return MCA_TRANSLATOR_LAUNCHER_PMIX;
    }
    return MCA_TRANSLATOR_LAUNCHER_NONE;
}

} // extern "C"
