/* coll base: the framework declaration. Per-communicator selection arrives with communicators (issue 7). */
#ifndef TESSERA_FRAMEWORKS_COLL_BASE_BASE_H
#define TESSERA_FRAMEWORKS_COLL_BASE_BASE_H

#include "frameworks/coll/coll.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_coll_base_framework;

#ifdef __cplusplus
}
#endif

#endif
