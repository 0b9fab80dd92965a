/*
 * Files (MPI-4.1 chapter 14): the file object as the MPI layer keeps it — its private communicator,
 * name, access mode, view, individual file pointer, shared file pointer, atomicity, hints and error
 * handler — and the stream-to-file mapping of a view.
 *
 * How bytes reach the file is the business of the file's io module (frameworks/io/io.h, docs/io.md),
 * chosen at MPI_File_open: this layer checks the arguments, moves the file pointers and hands each
 * access to the module with an offset in etypes of the view.
 */
#ifndef TESSERA_OMPI_FILE_FILE_H
#define TESSERA_OMPI_FILE_FILE_H

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "frameworks/io/io.h"
#include "ompi/datatype/datatype.h"
#include "ompi/info/info.h"
#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

/* A run of file bytes of one filetype element: `offset` from the element's start, and where its bytes
 * begin in the element's packed stream. In stream order (the order of the dte's normalized
 * description), which need not be file order for a struct type (MPI-4.1 14.1.1 requires filetypes of
 * monotonically non-decreasing displacements, so it is file order for a valid view). */
struct ViewSegment {
    std::int64_t offset;
    std::uint64_t length;
    std::uint64_t stream; /* bytes of the element's stream before this segment */
};

/* A file byte range. */
struct FileRange {
    std::int64_t offset;
    std::uint64_t length;
};

struct FileView {
    MPI_Offset disp = 0;
    const Datatype *etype = nullptr;    /* retained (datatype_retain) while in the view */
    const Datatype *filetype = nullptr; /* retained */
    std::string datarep = "native";
    /* One filetype element as file runs; a contiguous filetype is one segment. */
    std::vector<ViewSegment> segments;
    std::uint64_t element_size = 0;  /* filetype size: stream bytes per element */
    std::int64_t element_extent = 0; /* filetype extent: file bytes from one element to the next */

    /* The file ranges of stream bytes [pos, pos + len) (pos counted from the view's start), in stream
     * order, adjacent runs merged; appended to *out. */
    void ranges(std::uint64_t pos, std::uint64_t len, std::vector<FileRange> *out) const;
    /* The absolute file offset of stream byte `pos`. */
    std::int64_t byte_offset(std::uint64_t pos) const;
};

struct File {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x46494c45; /* "FILE" */
    static void *operator new(std::size_t size) { return handle_slot_new<File>(size); }
    static void operator delete(void *object) { handle_slot_delete<File>(object); }

    /* The handle is valid from file_register to file_unregister. */
    static constexpr bool kHandleOpensLater = true;

    MPI_Comm comm = MPI_COMM_NULL; /* private duplicate of the opening communicator: collective I/O */
    int size = 0;
    int rank = 0;
    std::string filename;
    int amode = 0;
    FileView view;
    MPI_Offset pointer = 0; /* the individual file pointer, in etypes of the view */
    bool atomic = false;
    MPI_Errhandler errhandler = MPI_ERRORS_RETURN; /* retained while set (errhandler_assign) */
    InfoEntries info; /* the hints the application gave; the module adds the values in force */

    /* The shared file pointer (in etypes of the view): one MPI_Offset in a window at rank 0, moved with
     * MPI_Fetch_and_op (file_shared.cpp). */
    MPI_Win shared = MPI_WIN_NULL;
    MPI_Offset shared_cell = 0;

    /* The split collective begun and not ended yet (MPI-4.1 14.4.5): its outcome. */
    bool split_active = false;
    const void *split_buf = nullptr;
    int split_rc = MPI_SUCCESS;
    std::size_t split_bytes = 0;

    /* The file's module (frameworks/io/io.h), chosen at MPI_File_open. */
    mca_io_base_module_t *io = nullptr;
    /* What the module said of its last failure (file_fail): the detail of the error raised. */
    std::string error_detail;
};

/* The file of a handle, or nullptr for MPI_FILE_NULL and handles that name no open file. */
File *file_lookup(MPI_File handle);
MPI_File file_handle(File *f);
void file_register(File *f);
void file_unregister(File *f);

/* "file '/path'" for messages. */
std::string file_label(const File &f);

/* Raises `code` for `function` on the file's error handler (MPI_FILE_NULL: its own handler). */
int raise_on_file(MPI_File fh, int code, const char *function, const std::string &detail);

/* The file of argument `fh`, or nullptr after raising MPI_ERR_FILE (*rc says what to return). */
File *file_argument(const char *function, MPI_File fh, int *rc);

/* For modules: records why an operation failed (an errno-derived sentence naming the file) and
 * returns `code`. */
int file_fail(File *f, int code, const std::string &why);
/* The MPI error class of an errno from open/read/write/ftruncate... (ENOENT: MPI_ERR_NO_SUCH_FILE,
 * EACCES/EPERM: MPI_ERR_ACCESS, EEXIST: MPI_ERR_FILE_EXISTS, ENOSPC: MPI_ERR_NO_SPACE, EDQUOT:
 * MPI_ERR_QUOTA, EROFS: MPI_ERR_READ_ONLY, ETXTBSY/EBUSY: MPI_ERR_FILE_IN_USE, else MPI_ERR_IO). */
int file_errno_class(int err);

/* The view a file starts with and returns to: displacement 0, etype and filetype MPI_BYTE, "native". */
void view_reset(FileView *v);
/* Sets a view (filetype and etype committed, checked by the caller); MPI error class, *why on error. */
int view_set(FileView *v, MPI_Offset disp, const Datatype *etype, const Datatype *filetype, const char *datarep,
             std::string *why);
/* "" when `type` may be a view's etype or filetype (`name` says which): displacements non-negative
 * and non-decreasing, and no overlap in a file opened for writing (MPI-4.1 14.3); else why not. */
std::string view_type_problem(const Datatype *type, const char *name, bool writable);
/* Releases the view's datatypes. */
void view_clear(FileView *v);

namespace io {

inline tessera_file *to_c(File *f)
{
    return reinterpret_cast<tessera_file *>(f);
}
inline File *of(tessera_file *f)
{
    return reinterpret_cast<File *>(f);
}
inline tessera_datatype *to_c(const Datatype *t)
{
    return reinterpret_cast<tessera_datatype *>(const_cast<Datatype *>(t));
}
inline const Datatype *of(tessera_datatype *t)
{
    return reinterpret_cast<const Datatype *>(t);
}
inline tessera_comm *comm_to_c(void *c)
{
    return reinterpret_cast<tessera_comm *>(c);
}

} // namespace io
} // namespace tessera::ompi

#endif
