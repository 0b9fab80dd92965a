/* plm base: the framework declaration and what mpirun needs around the module. */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_BASE_H
#define TESSERA_FRAMEWORKS_PLM_BASE_BASE_H

#include "frameworks/plm/plm.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_plm_base_framework;

/* plm_base_wireup_timeout and plm_base_abort_grace (plm_base_frame.cpp), for mpirun. */
extern double mca_plm_base_wireup_timeout;
extern double mca_plm_base_abort_grace;
/* plm_base_sentinel_settle: how long mpirun's sentinel waits for killed ranks to be gone. */
extern double mca_plm_base_sentinel_settle;

#ifdef __cplusplus
}

#include <string>

namespace tessera::orte::plm {

/*
 * Selects the launcher of an open plm framework (select_one) and returns its module. Errors:
 * TESSERA_ERR_NOT_FOUND when no component accepted (after reporting it), or select_one's error.
 */
int select_module(mca_plm_base_module_t **module, const mca_plm_base_component_t **component);

/* How a child ended, for messages: "exit code 3", "signal 15 (Terminated)", "signal 11
 * (Segmentation fault), core dumped". */
std::string describe_exit(const mca_plm_base_exit_t &exit);

} // namespace tessera::orte::plm
#endif

#endif
