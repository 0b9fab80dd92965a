/*
 * io base: the framework declaration and the selection per file. The framework is opened with the
 * others at MPI_Init (the parameter `io` includes or excludes components as for every framework);
 * tessera_io_base_file_select chooses a file's module at MPI_File_open: every open component is asked
 * for a module, the one of highest priority is kept and the others released (a tie goes to the
 * component listed first). The MPI layer drives it from ompi/file.
 */
#ifndef TESSERA_FRAMEWORKS_IO_BASE_BASE_H
#define TESSERA_FRAMEWORKS_IO_BASE_BASE_H

#include "frameworks/io/io.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_io_base_framework;

/* Named tessera_*, not mca_*: Open MPI's libmpi exports mca_io_base_* functions, and a process
 * translated to Open MPI has both libraries loaded. */

/* The module of a file being opened (`name` for messages); TESSERA_ERR_NOT_FOUND when no component
 * offers one. The module is not opened yet (io_open is the caller's). */
int tessera_io_base_file_select(struct tessera_file *file, const mca_io_base_file_args_t *args, const char *name,
                                mca_io_base_module_t **out);

/* The first open component that offers io_delete, or NULL. */
const mca_io_base_component_t *tessera_io_base_deleter(void);

#ifdef __cplusplus
}
#endif

#endif
