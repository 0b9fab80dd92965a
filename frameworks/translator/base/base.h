/*
 * translator base: the framework, the selection made at the first MPI call, and the runtime-independent
 * support every translator component uses.
 *
 * API for components (ompi, mpich, native) — short version:
 *   reentry.h (plain C, also read by the generated bindings):
 *     tessera_translator_enter() / tessera_translator_leave()   around every call into the runtime
 *     tessera_translator_inside()                               non-zero while in the runtime
 *     saved = tessera_translator_suspend(); ...; tessera_translator_resume(saved);
 *                                                               around an application callback run by
 *                                                               a trampoline
 *   TESSERA_MPI_LAYOUT (generated tessera_mpi_dispatch.h, the table the component was built for) and
 *     mca_translator_base_layout_check(component, TESSERA_MPI_LAYOUT, layout) at the top of fill:
 *     TESSERA_ERR_VERSION (reported) when the caller's table is another layout.
 *   mca_translator_base_direct_table(&entries): the table of the runtime's own functions, same layout as
 *     the dispatch table; fill sets each entry to the dlsym'd runtime function (cast to the ABI prototype)
 *     so that a binding entered from inside the runtime calls it with the arguments untouched. An entry
 *     left NULL makes such a call return MPI_ERR_UNSUPPORTED_OPERATION.
 *   mca_translator_base_decline(component, reason): records why query returns TESSERA_ERR_NOT_AVAILABLE;
 *     the selection reports it when the user named the component (--mca translator ompi).
 *   mca_translator_base_launcher(): which launcher started the process (environment only).
 * The dispatch table entries a component does not fill keep the fallback the caller preset: it raises
 * MPI_ERR_UNSUPPORTED_OPERATION naming the function and the selected module's translator_runtime.
 */
#ifndef TESSERA_FRAMEWORKS_TRANSLATOR_BASE_BASE_H
#define TESSERA_FRAMEWORKS_TRANSLATOR_BASE_BASE_H

#include "frameworks/translator/base/reentry.h"
#include "frameworks/translator/translator.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_translator_base_framework;

/* The layout of the dispatch table of this libmpi (TESSERA_MPI_LAYOUT of its generated header). */
const char *mca_translator_base_layout(void);

/* TESSERA_SUCCESS when `given` (fill's argument) is `built_for` (the component's TESSERA_MPI_LAYOUT);
 * otherwise reports the mismatch naming the component and returns TESSERA_ERR_VERSION. */
int mca_translator_base_layout_check(const char *component, const char *built_for, const char *given);

/* The process's direct table (see above); *entries receives its length (TESSERA_MPI_FUNCTION_COUNT). */
mca_translator_base_fn_t *mca_translator_base_direct_table(size_t *entries);

/* Records why `component` cannot serve this process (library not found, symbol missing); the last reason
 * per component is kept. Returns TESSERA_ERR_NOT_AVAILABLE, so that a query can end with
 * `return mca_translator_base_decline("ompi", why);`. */
int mca_translator_base_decline(const char *component, const char *reason);

/* The reason recorded for `component`, or NULL. The string lives until the next decline of it. */
const char *mca_translator_base_decline_reason(const char *component);

/* Which launcher started this process, read from its environment (docs/translator.md). */
typedef enum mca_translator_base_launcher {
    MCA_TRANSLATOR_LAUNCHER_NONE = 0, /* singleton, or our own mpirun */
    MCA_TRANSLATOR_LAUNCHER_OPENMPI,  /* Open MPI's own launcher: OMPI_COMM_WORLD_SIZE or _RANK (with PMIx or not) */
    /* PMI-1/2 clients: MPICH's hydra, or srun --mpi=pmi2: PMI_RANK, PMI_FD or PMI_PORT */
    MCA_TRANSLATOR_LAUNCHER_HYDRA,
    /* Any other PMIx server (srun --mpi=pmix, ...): PMIX_RANK without Open MPI's variables. The native
     * engine serves it, through the ess framework's pmix component. */
    MCA_TRANSLATOR_LAUNCHER_PMIX
} mca_translator_base_launcher_t;

mca_translator_base_launcher_t mca_translator_base_launcher(void);

/*
 * Registers and opens the framework and selects one component (the `translator` parameter, else the
 * highest priority). *module receives the module. When nothing can serve, reports why (with the decline
 * reasons) and returns the error. Once per process; a second call returns TESSERA_ERR_EXISTS.
 */
int mca_translator_base_select(mca_translator_base_module_t **module);

/* The selected module, or NULL before selection. */
mca_translator_base_module_t *mca_translator_base_selected(void);

/* What serves the calls, for messages: the selected module's translator_runtime, or "Tessera's native
 * engine" before selection. */
const char *mca_translator_base_runtime_name(void);

/* Clears the direct table, finalizes the selected module (when it has a finalize) and closes the
 * framework; a later select may choose again (tools and tests). The dispatch table a module filled is
 * the caller's to reset. */
int mca_translator_base_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
