/* io posix: the module of one file — open, close, size, sync, hints — and its function table. */
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include "components/io/posix/io_posix.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::io_posix {

namespace {

std::string errno_text(const File *f, const char *what, int err)
{
    return std::string("cannot ") + what + " '" + f->filename + "': " + std::strerror(err);
}

/* The highest error class of all processes (0 when every one succeeded); a process that succeeded
 * but sees another fail says so. */
int agree(File *f, int rc)
{
    int worst = rc;
    if (native::allreduce_c(&rc, &worst, 1, MPI_INT, MPI_MAX, f->comm) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_OTHER, "the processes of " + file_label(*f) + " could not agree");
    }
    if (worst != MPI_SUCCESS && rc == MPI_SUCCESS) {
        f->error_detail = "another process failed on " + file_label(*f);
    }
    return worst;
}

int open_flags(int amode)
{
    int flags = amode & MPI_MODE_RDONLY ? O_RDONLY : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR;
    if (amode & MPI_MODE_CREATE) {
        flags |= O_CREAT;
    }
    if (amode & MPI_MODE_EXCL) {
        flags |= O_EXCL;
    }
    return flags | O_CLOEXEC;
}

/* open(2), read-write for a write-only file when the permissions allow (see FileState::can_read). */
int open_file(FileState *st, const char *name, int flags)
{
    if ((flags & O_ACCMODE) == O_WRONLY) {
        st->fd = ::open(name, (flags & ~O_ACCMODE) | O_RDWR, 0666);
        if (st->fd >= 0 || (errno != EACCES && errno != EPERM)) {
            return st->fd;
        }
        st->can_read = false;
    }
    st->fd = ::open(name, flags, 0666);
    return st->fd;
}

int io_open(const mca_io_base_file_args_t *args, MCA_IO_FILE)
{
    File *f = io::of(file);
    FileState *st = state(module);
    int flags = open_flags(args->amode);
    /* The first process creates (and checks MPI_MODE_EXCL), the others open what it made: with
     * O_EXCL everywhere all but one would fail. */
    int rc = MPI_SUCCESS;
    if (f->rank == 0) {
        if (open_file(st, args->filename, flags) < 0) {
            const int err = errno;
            rc = file_fail(f, file_errno_class(err), errno_text(f, "open", err));
        }
    }
    if (f->size > 1) {
        if (native::bcast_c(&rc, 1, MPI_INT, 0, f->comm) != MPI_SUCCESS) {
            rc = MPI_ERR_OTHER;
        }
        if (rc != MPI_SUCCESS && f->rank != 0) {
            f->error_detail = "the first process could not open " + file_label(*f);
        }
        if (rc == MPI_SUCCESS && f->rank != 0) {
            if (open_file(st, args->filename, flags & ~(O_CREAT | O_EXCL)) < 0) {
                const int err = errno;
                rc = file_fail(f, file_errno_class(err), errno_text(f, "open", err));
            }
        }
        rc = agree(f, rc);
    }
    if (rc == MPI_SUCCESS) {
        st->delete_on_close = (args->amode & MPI_MODE_DELETE_ON_CLOSE) != 0;
        if (args->amode & MPI_MODE_APPEND) {
            /* MPI-4.1 14.2.1: the initial file pointers are at the end of the file. */
            struct stat sb {};
            if (::fstat(st->fd, &sb) == 0) {
                f->pointer = sb.st_size;
            }
        }
        rc = find_host_leaders(f, st);
    }
    if (rc == MPI_SUCCESS) {
        rc = hints_apply(f, st);
    }
    if (rc != MPI_SUCCESS && st->fd >= 0) {
        ::close(st->fd);
        st->fd = -1;
    }
    return rc;
}

void io_release(mca_io_base_module_t *module)
{
    std::unique_ptr<FileState> st(state(module));
    if (st && st->fd >= 0) {
        ::close(st->fd);
    }
    delete module;
}

int io_close(MCA_IO_FILE)
{
    File *f = io::of(file);
    FileState *st = state(module);
    int rc = MPI_SUCCESS;
    if (::close(st->fd) != 0) {
        const int err = errno;
        rc = file_fail(f, file_errno_class(err), errno_text(f, "close", err));
    }
    st->fd = -1;
    /* Everyone has closed before the file goes (MPI-4.1 14.2.2). */
    if (native::barrier(f->comm) != MPI_SUCCESS && rc == MPI_SUCCESS) {
        rc = file_fail(f, MPI_ERR_OTHER, "the processes of " + file_label(*f) + " could not synchronize");
    }
    if (st->delete_on_close && f->rank == 0 && ::unlink(f->filename.c_str()) != 0 && errno != ENOENT &&
        rc == MPI_SUCCESS) {
        const int err = errno;
        rc = file_fail(f, file_errno_class(err), errno_text(f, "delete", err));
    }
    if (st->delete_on_close) {
        /* The file is gone on every process when close returns. */
        rc = agree(f, rc);
    }
    io_release(module);
    return rc;
}

int io_set_size(int64_t size, MCA_IO_FILE)
{
    File *f = io::of(file);
    int rc = MPI_SUCCESS;
    if (f->rank == 0 && ::ftruncate(state(module)->fd, size) != 0) {
        const int err = errno;
        rc = file_fail(f, file_errno_class(err), errno_text(f, ("resize to " + std::to_string(size)).c_str(), err));
    }
    return agree(f, rc);
}

int io_preallocate(int64_t size, MCA_IO_FILE)
{
    File *f = io::of(file);
    int rc = MPI_SUCCESS;
    if (f->rank == 0 && size > 0) {
        /* Only grows (MPI-4.1 14.2.5): fallocate without flags never shrinks. */
        if (const int err = ::posix_fallocate(state(module)->fd, 0, size); err != 0) {
            rc = file_fail(f, file_errno_class(err),
                           errno_text(f, ("reserve " + std::to_string(size) + " bytes of").c_str(), err));
        }
    }
    return agree(f, rc);
}

int io_get_size(int64_t *size, MCA_IO_FILE)
{
    File *f = io::of(file);
    struct stat sb {};
    if (::fstat(state(module)->fd, &sb) != 0) {
        const int err = errno;
        return file_fail(f, file_errno_class(err), errno_text(f, "stat", err));
    }
    *size = sb.st_size;
    return MPI_SUCCESS;
}

int io_sync(MCA_IO_FILE)
{
    File *f = io::of(file);
    int rc = MPI_SUCCESS;
    if (::fsync(state(module)->fd) != 0) {
        const int err = errno;
        rc = file_fail(f, file_errno_class(err), errno_text(f, "sync", err));
    }
    return agree(f, rc);
}

int io_view_changed(MCA_IO_FILE)
{
    (void)file, (void)module;
    return MPI_SUCCESS;
}

int io_hints_changed(MCA_IO_FILE)
{
    return hints_apply(io::of(file), state(module));
}

} // namespace

mca_io_base_module_t *module_create()
{
    auto module = std::make_unique<mca_io_base_module_t>();
    *module = {};
    module->io_open = io_open;
    module->io_close = io_close;
    module->io_release = io_release;
    module->io_set_size = io_set_size;
    module->io_preallocate = io_preallocate;
    module->io_get_size = io_get_size;
    module->io_sync = io_sync;
    module->io_view_changed = io_view_changed;
    module->io_hints_changed = io_hints_changed;
    module->io_read_at = read_at;
    module->io_write_at = write_at;
    module->io_read_at_all = read_at_all;
    module->io_write_at_all = write_at_all;
    module->module_state = new FileState();
    return module.release();
}

} // namespace tessera::ompi::io_posix
