/* translator base: the framework declaration. Filling the dispatch table arrives with the generated
 * bindings (issue 3). */
#ifndef TESSERA_FRAMEWORKS_TRANSLATOR_BASE_BASE_H
#define TESSERA_FRAMEWORKS_TRANSLATOR_BASE_BASE_H

#include "frameworks/translator/translator.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_translator_base_framework;

#ifdef __cplusplus
}
#endif

#endif
