/*
 * io: parallel file access (MPI 5.0 chapter 14). Layer: ompi (libmpi). Selection: per file, by
 * priority — at MPI_File_open every open component is asked for a module for that file, and the
 * module of highest priority does the file's I/O until MPI_File_close. Components in the tree: posix
 * (pread/pwrite on any POSIX file system, data sieving, two-phase collective buffering); `tessera_info`
 * lists what a build has.
 *
 * The MPI layer (ompi/file) keeps the file object: its communicator (a private duplicate), access mode,
 * view, individual file pointer, atomicity, hints and error handler, and checks the arguments before it
 * calls a module (the handle, the access mode against the operation, committed datatypes, offsets not
 * negative). It moves file pointers; the module moves bytes. Offsets given to a module are in etypes of
 * the current view, as the application gives them to the explicit-offset calls; the view itself is
 * reached through the file (ompi/file/file.h: the file's stream-to-file mapping, built from the
 * filetype's normalized dte description).
 *
 * Return values are MPI error classes (MPI_SUCCESS is 0); a module that fails stores a sentence saying
 * what and where (with the file name and the errno text) in the file (ompi/file/file.h,
 * file_fail), which the MPI layer puts in the error message. An entry left NULL is an operation the
 * module does not provide: the MPI layer raises MPI_ERR_UNSUPPORTED_OPERATION on the file.
 */
#ifndef TESSERA_FRAMEWORKS_IO_IO_H
#define TESSERA_FRAMEWORKS_IO_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_IO_BASE_VERSION {1, 0, 0}

/* The MPI layer's objects (ompi/): opaque here. */
struct tessera_file;
struct tessera_comm;
struct tessera_datatype;

struct mca_io_base_module;
typedef struct mca_io_base_module mca_io_base_module_t;
typedef struct tessera_datatype *mca_io_dt_t;

#define MCA_IO_FILE struct tessera_file *file, mca_io_base_module_t *module

/* What a file is opened with, as the component sees it when it is asked for a module. */
typedef struct mca_io_base_file_args {
    const char *filename;
    int amode;                 /* MPI_MODE_* as given (already checked for consistency) */
    struct tessera_comm *comm; /* the file's private communicator (its own context) */
    int comm_size;
    int comm_rank;
    void *reserved[4];
} mca_io_base_file_args_t;

/*
 * Data access. `offset` is in etypes of the current view, counted from the view's displacement (the
 * MPI layer converts the individual and shared pointers into it); `count` elements of `datatype` at
 * `buf` in memory. *bytes receives the bytes moved (a read stops at the end of the file). The
 * collective forms (_all) are called by every process of the file's communicator, with counts that may
 * differ and be 0.
 */
typedef int (*mca_io_base_access_fn_t)(int64_t offset, void *buf, size_t count, mca_io_dt_t datatype,
                                       size_t *bytes, MCA_IO_FILE);

struct mca_io_base_module {
    const struct mca_io_base_component *io_component;

    /* Collective over the file's communicator: opens the file on this process. The MPI layer checked
     * the access mode; the module maps what the file system says (missing file, no permission, exists
     * with MPI_MODE_EXCL...) to MPI_ERR_NO_SUCH_FILE, MPI_ERR_ACCESS, MPI_ERR_FILE_EXISTS... On failure
     * the module is released by the MPI layer. */
    int (*io_open)(const mca_io_base_file_args_t *args, MCA_IO_FILE);
    /* Collective: closes the file (and deletes it when opened with MPI_MODE_DELETE_ON_CLOSE), and
     * releases the module whatever the outcome. */
    int (*io_close)(MCA_IO_FILE);
    /* A module offered but not chosen (or whose open failed). */
    void (*io_release)(mca_io_base_module_t *module);

    /* Collective: the size (bytes) every process passed. set_size truncates or extends; preallocate
     * only extends, with storage reserved. */
    int (*io_set_size)(int64_t size, MCA_IO_FILE);
    int (*io_preallocate)(int64_t size, MCA_IO_FILE);
    int (*io_get_size)(int64_t *size, MCA_IO_FILE);
    /* Collective: everything written by this process reaches the storage device. */
    int (*io_sync)(MCA_IO_FILE);
    /* Collective: the file's view changed (the MPI layer holds it); the module drops what it derived. */
    int (*io_view_changed)(MCA_IO_FILE);
    /* Collective: hints set by MPI_File_set_info (held by the MPI layer); the module applies those it
     * knows. */
    int (*io_hints_changed)(MCA_IO_FILE);

    /* Independent and collective access at an explicit offset (etypes of the view). */
    mca_io_base_access_fn_t io_read_at;
    mca_io_base_access_fn_t io_write_at;
    mca_io_base_access_fn_t io_read_at_all;
    mca_io_base_access_fn_t io_write_at_all;

    void *module_state; /* the component's own, per file */
    void *reserved[16];
};

/* Called once per MPI_File_open for every open component: a module for this file with its priority,
 * or NULL to leave the file to others. Every process of the file must answer the same (the open is
 * collective). */
typedef mca_io_base_module_t *(*mca_io_base_file_query_fn_t)(struct tessera_file *file,
                                                              const mca_io_base_file_args_t *args, int *priority);
/* MPI_File_delete (asked of the first open component that offers it): removes the file. MPI_SUCCESS, or MPI_ERR_NO_SUCH_FILE, MPI_ERR_ACCESS,
 * MPI_ERR_FILE_IN_USE, MPI_ERR_IO with a sentence in `why` (at most `why_len` bytes with its NUL). */
typedef int (*mca_io_base_delete_fn_t)(const char *filename, char *why, size_t why_len);

typedef struct mca_io_base_component {
    mca_base_component_t base;
    mca_io_base_file_query_fn_t io_file_query;
    mca_io_base_delete_fn_t io_delete;
    void *reserved[6];
} mca_io_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
