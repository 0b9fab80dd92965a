/* Files' handles, labels and errors: a file's handle is valid from MPI_File_open to MPI_File_close,
 * and refused afterwards even once a new file took its memory (runtime/user_handle.h). */
#include "ompi/file/file.h"

#include <cerrno>

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

File *file_lookup(MPI_File handle)
{
    return user_object<File>(handle);
}

MPI_File file_handle(File *f)
{
    return user_handle<MPI_File>(f);
}

void file_register(File *f)
{
    handle_open(f);
}

void file_unregister(File *f)
{
    handle_close(f);
}

std::string file_label(const File &f)
{
    return "file '" + f.filename + "'";
}

int raise_on_file(MPI_File fh, int code, const char *function, const std::string &detail)
{
    return raise_error(ObjectKind::File, fh, code, function, detail);
}

File *file_argument(const char *function, MPI_File fh, int *rc)
{
    File *f = file_lookup(fh);
    if (f == nullptr) {
        *rc = raise_on_file(fh, MPI_ERR_FILE, function,
                            fh == MPI_FILE_NULL ? "argument 'fh' is MPI_FILE_NULL"
                                                : "invalid file handle in argument 'fh' (not an open file)");
    }
    return f;
}

int file_fail(File *f, int code, const std::string &why)
{
    f->error_detail = why;
    return code;
}

int file_errno_class(int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
    case ENAMETOOLONG:
        return MPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM:
    case EISDIR:
        return MPI_ERR_ACCESS;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case ENOSPC:
    case EFBIG:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ETXTBSY:
    case EBUSY:
        return MPI_ERR_FILE_IN_USE;
    default:
        return MPI_ERR_IO;
    }
}

} // namespace tessera::ompi
