/*
 * ess pmix: registration and query. A PMIx server marks its clients with PMIX_RANK and
 * PMIX_NAMESPACE; the query looks at nothing else (no connection before the component is chosen).
 * Only then does it load the client library from the installation's lib/ (ess_pmix.h):
 * a process that was not started by a PMIx server never maps libpmix. Once loaded the library stays,
 * since PMIx runs threads of its own.
 */
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "components/ess/pmix/ess_pmix.h"
#include "mca/constants.h"
#include "mca/report.h"
#include "opal/install_dirs.h"
#include "tessera_build_id.h"

namespace tessera::orte::ess_pmix {

namespace {

/* Below mpirun's: a rank of our mpirun started inside a PMIx job is mpirun's. */
constexpr int kPriority = 50;

const tessera_ess_pmix_client_t *client = nullptr;

bool set(const char *name)
{
    const char *v = std::getenv(name);
    return v != nullptr && v[0] != '\0';
}

/* The client library, loaded once; nullptr after reporting why it cannot be. */
const tessera_ess_pmix_client_t *load_client()
{
    if (client != nullptr) {
        return client;
    }
    const std::string path = tessera::opal::install_dirs().libdir + "/" + kClientLibrary;
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string problem;
    if (handle == nullptr) {
        const char *why = dlerror();
        problem = "cannot load " + path + ": " + (why != nullptr ? why : "unknown error");
    } else if (auto entry = reinterpret_cast<tessera_ess_pmix_client_fn>(dlsym(handle, kClientSymbol));
               entry == nullptr) {
        problem = path + " has no symbol " + kClientSymbol;
    } else if (const tessera_ess_pmix_client_t *c = entry();
               c == nullptr || c->build_id == nullptr || std::strcmp(c->build_id, TESSERA_BUILD_ID) != 0) {
        problem = path + " was built by another Tessera build (" + (c != nullptr && c->build_id ? c->build_id : "?") +
                  ", this one is " + TESSERA_BUILD_ID + ")";
    } else {
        client = c;
        return client;
    }
    tessera::mca::report(tessera::mca::Severity::Error, "ess pmix: " + problem);
    return nullptr;
}

int close_component()
{
    if (client != nullptr) {
        client->reset();
    }
    return TESSERA_SUCCESS;
}

int query(void **out_module, int *priority)
{
    if (!set("PMIX_RANK") || !set("PMIX_NAMESPACE")) {
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    const tessera_ess_pmix_client_t *c = load_client();
    if (c == nullptr) {
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    *out_module = c->module;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::orte::ess_pmix

using namespace tessera::orte::ess_pmix;

mca_ess_base_component_t mca_ess_pmix_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_ess_base_component_t, "ess", MCA_ESS_BASE_VERSION, "pmix", 1, 0, 0),
             .mca_register_params = nullptr,
             .mca_open_component = nullptr,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
