/* dte base: the framework declaration. Plan selection per type arrives with ompi/datatype. */
#ifndef TESSERA_FRAMEWORKS_DTE_BASE_BASE_H
#define TESSERA_FRAMEWORKS_DTE_BASE_BASE_H

#include "frameworks/dte/dte.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_dte_base_framework;

#ifdef __cplusplus
}
#endif

#endif
