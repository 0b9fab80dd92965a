/*
 * ess pmix: the component (ess_pmix_component.cpp, no PMIx in it) and the client library it loads
 * (libtessera_ess_pmix_client.so, ess_pmix_client.cpp, the only code that links libpmix). The library
 * hands out its module through one entry point, checked against this build's identifier.
 */
#ifndef TESSERA_COMPONENTS_ESS_PMIX_ESS_PMIX_H
#define TESSERA_COMPONENTS_ESS_PMIX_ESS_PMIX_H

#include "frameworks/ess/ess.h"

extern "C" {

extern mca_ess_base_component_t mca_ess_pmix_component;

typedef struct tessera_ess_pmix_client {
    const char *build_id;           /* TESSERA_BUILD_ID of the library's build */
    mca_ess_base_module_t *module;  /* the process's module */
    void (*reset)(void);            /* finalizes PMIx if init ran and finalize did not (component close) */
} tessera_ess_pmix_client_t;

typedef const tessera_ess_pmix_client_t *(*tessera_ess_pmix_client_fn)(void);
}

namespace tessera::orte::ess_pmix {

inline constexpr const char *kClientSymbol = "tessera_ess_pmix_client";
inline constexpr const char *kClientLibrary = "libtessera_ess_pmix_client.so";

} // namespace tessera::orte::ess_pmix

#endif
