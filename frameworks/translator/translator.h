/*
 * translator: which MPI runtime serves the application's calls. Layer: ompi (libmpi). Selection:
 * one-of-many, once, at the first MPI call (MPI_Init, MPI_Init_thread, MPI_Session_init, or a call
 * allowed before init such as MPI_Get_version): the `translator` parameter names one, or each
 * component's query says how sure it is — a runtime component that sees its own launcher's
 * environment (mpirun.openmpi, hydra) answers with a high priority, one whose runtime library is
 * absent declines, and `native` (our own engine) accepts with a middle priority. Components: native,
 * ompi, mpich.
 *
 * The chosen module fills the dispatch table generated from the API description: one entry
 * per function of the standard ABI, in the generator's order, each pointing to the native
 * implementation or to a thunk that converts arguments to the runtime's ABI, calls it and converts
 * results back. The table's layout is identified by a string the generator derives from the API
 * description; a module built for another layout refuses to fill it.
 */
#ifndef TESSERA_FRAMEWORKS_TRANSLATOR_TRANSLATOR_H
#define TESSERA_FRAMEWORKS_TRANSLATOR_TRANSLATOR_H

#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_TRANSLATOR_BASE_VERSION {1, 0, 0}

/* An entry of the dispatch table: every function is called through its own prototype. */
typedef void (*mca_translator_base_fn_t)(void);

struct mca_translator_base_module;
typedef struct mca_translator_base_module mca_translator_base_module_t;

/*
 * Fills table[0 .. entries-1]. `layout` identifies the table (the generator's hash of the API
 * description): a different one is refused with TESSERA_ERR_VERSION. An entry the runtime cannot
 * serve is left as the caller preset it (the fallback that returns MPI_ERR_UNSUPPORTED_OPERATION naming
 * the function and the runtime). *filled receives how many entries the module set, for
 * `tessera_info --coverage`.
 */
typedef int (*mca_translator_base_fill_fn_t)(mca_translator_base_module_t *module, const char *layout,
                                             mca_translator_base_fn_t *table, size_t entries, size_t *filled);

/* After MPI_Finalize (or when the process exits without it): lets go of the runtime. */
typedef int (*mca_translator_base_finalize_fn_t)(mca_translator_base_module_t *module);

struct mca_translator_base_module {
    const struct mca_translator_base_component *translator_component;
    /* What serves the calls, for messages and tessera_info: "Tessera 0.1.0", "Open MPI 4.1.4 (libmpi.so.40)". */
    const char *translator_runtime;
    mca_translator_base_fill_fn_t translator_fill;
    mca_translator_base_finalize_fn_t translator_finalize;
    void *module_state; /* the component's own: the runtime's library handle, handle tables */
    void *reserved[8];
};

typedef struct mca_translator_base_component {
    /* The generic query returns the module (a mca_translator_base_module_t*) and the priority;
     * TESSERA_ERR_NOT_AVAILABLE when its runtime cannot be loaded (saying why in the load errors). */
    mca_base_component_t base;
    void *reserved[4];
} mca_translator_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
