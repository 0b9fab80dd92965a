/*
 * osc base: the framework declaration and the selection per window. The framework is opened with the
 * others at MPI_Init (the parameter `osc` includes or excludes components as for every framework);
 * tessera_osc_base_init then asks each open component's osc_init_query once, and
 * tessera_osc_base_win_select chooses a window's module when the window is created: every taking-part
 * component is asked for a module, the one of highest priority is enabled and the others released (a
 * tie goes to the component listed first). The MPI layer drives it from ompi/win.
 */
#ifndef TESSERA_FRAMEWORKS_OSC_BASE_BASE_H
#define TESSERA_FRAMEWORKS_OSC_BASE_BASE_H

#include "frameworks/osc/osc.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_osc_base_framework;

/* Named tessera_*, not mca_*: Open MPI's libmpi exports mca_osc_base_* functions, and a process
 * translated to Open MPI has both libraries loaded. */

/* After the framework is open (MPI_Init): asks each open component's osc_init_query; one that does not
 * answer TESSERA_SUCCESS takes no part in any window. */
int tessera_osc_base_init(bool enable_progress_threads, bool enable_mpi_threads);
/* MPI_Finalize. */
void tessera_osc_base_finalize(void);

/*
 * Chooses and enables the module of a window being created (`name` for messages); *base as
 * osc_enable takes it. TESSERA_ERR_NOT_FOUND when no component offers a module, or the error of the
 * chosen module's enable (the module is then released).
 */
int tessera_osc_base_win_select(struct tessera_win *win, const mca_osc_base_window_args_t *args, const char *name,
                                void **base, mca_osc_base_module_t **out);

#ifdef __cplusplus
}
#endif

#endif
