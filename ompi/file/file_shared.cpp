/*
 * The shared file pointer (MPI-4.1 14.4.4): one MPI_Offset in a window exposed by the first process of
 * the file, moved with MPI_Fetch_and_op, which the one-sided component applies atomically at the
 * target. Nothing on disk: a job that dies leaves no pointer file behind (ROMIO keeps one beside the
 * file). A fetch is served when the first process makes MPI calls, or at any time with
 * mpi_async_progress.
 */
#include <string>

#include "ompi/file/file_access.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

int file_shared_open(File *f)
{
    const MPI_Aint bytes = f->rank == 0 ? static_cast<MPI_Aint>(sizeof(MPI_Offset)) : 0;
    f->shared_cell = 0;
    /* Without one-sided communication (no osc component) the file works, but without a shared file
     * pointer: those calls then fail with MPI_ERR_UNSUPPORTED_OPERATION. Every process gets the same
     * answer from window creation, which is collective. */
    if (native::win_create_c(f->rank == 0 ? &f->shared_cell : nullptr, bytes, sizeof(MPI_Offset), MPI_INFO_NULL,
                             f->comm, &f->shared) != MPI_SUCCESS) {
        f->shared = MPI_WIN_NULL;
        return MPI_SUCCESS;
    }
    native::win_set_errhandler(f->shared, MPI_ERRORS_RETURN);
    return MPI_SUCCESS;
}

namespace {

int no_shared_pointer(File *f)
{
    return file_fail(f, MPI_ERR_UNSUPPORTED_OPERATION,
                     file_label(*f) + " has no shared file pointer: no osc component could make its window (see the "
                                      "osc parameter)");
}

} // namespace

void file_shared_close(File *f)
{
    if (f->shared != MPI_WIN_NULL) {
        native::win_free(&f->shared);
    }
}

int file_shared_fetch_add(File *f, MPI_Offset delta, MPI_Offset *old)
{
    if (f->shared == MPI_WIN_NULL) {
        return no_shared_pointer(f);
    }
    int rc = native::win_lock(MPI_LOCK_SHARED, 0, 0, f->shared);
    if (rc == MPI_SUCCESS) {
        rc = native::fetch_and_op(&delta, old, MPI_OFFSET, 0, 0, MPI_SUM, f->shared);
        const int unlock = native::win_unlock(0, f->shared);
        rc = rc != MPI_SUCCESS ? rc : unlock;
    }
    return rc == MPI_SUCCESS ? rc : file_fail(f, rc, "cannot move the shared file pointer of " + file_label(*f));
}

int file_shared_set(File *f, MPI_Offset value)
{
    if (f->shared == MPI_WIN_NULL) {
        return no_shared_pointer(f);
    }
    MPI_Offset old = 0;
    int rc = native::win_lock(MPI_LOCK_SHARED, 0, 0, f->shared);
    if (rc == MPI_SUCCESS) {
        rc = native::fetch_and_op(&value, &old, MPI_OFFSET, 0, 0, MPI_REPLACE, f->shared);
        const int unlock = native::win_unlock(0, f->shared);
        rc = rc != MPI_SUCCESS ? rc : unlock;
    }
    return rc == MPI_SUCCESS ? rc : file_fail(f, rc, "cannot set the shared file pointer of " + file_label(*f));
}

int file_shared_reset(File *f)
{
    if (f->shared == MPI_WIN_NULL) {
        return MPI_SUCCESS; /* nothing to reset: the file has no shared pointer */
    }
    int rc = f->rank == 0 ? file_shared_set(f, 0) : MPI_SUCCESS;
    /* Nobody uses the pointer of the new view before it is reset. */
    if (const int b = native::barrier(f->comm); rc == MPI_SUCCESS && b != MPI_SUCCESS) {
        rc = file_fail(f, b, "the processes of " + file_label(*f) + " could not synchronize");
    }
    return rc;
}

int file_shared_position_bytes(File *f, MPI_Offset *bytes)
{
    MPI_Offset at = 0;
    if (int rc = file_shared_fetch_add(f, 0, &at); rc != MPI_SUCCESS) {
        return rc;
    }
    *bytes = f->view.byte_offset(static_cast<std::uint64_t>(at) * f->view.etype->size);
    return MPI_SUCCESS;
}

namespace native {

int file_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument("MPI_File_get_position_shared", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (int c = file_shared_fetch_add(f, 0, offset); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, "MPI_File_get_position_shared", f->error_detail);
    }
    return MPI_SUCCESS;
}

/* Collective: every process passes the same offset and whence (MPI-4.1 14.4.4). */
int file_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *function = "MPI_File_seek_shared";
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    MPI_Offset mine[4] = {offset, -offset, whence, -whence};
    MPI_Offset all[4] = {};
    if (allreduce_c(mine, all, 4, MPI_OFFSET, MPI_MAX, f->comm) != MPI_SUCCESS) {
        return raise_on_file(fh, MPI_ERR_OTHER, function, "the processes could not agree");
    }
    if (all[0] != -all[1] || all[2] != -all[3]) {
        return raise_on_file(fh, MPI_ERR_NOT_SAME, function, "the processes passed different offsets or whence");
    }
    int code = MPI_SUCCESS;
    f->error_detail.clear();
    if (f->rank == 0) {
        MPI_Offset current = 0, base = 0;
        code = file_shared_fetch_add(f, 0, &current);
        if (code == MPI_SUCCESS) {
            code = file_seek_base(f, whence, current, &base);
        }
        if (code == MPI_SUCCESS && base + offset < 0) {
            code = file_fail(f, MPI_ERR_ARG,
                             "the new position " + std::to_string(base + offset) + " is before the view's start");
        }
        if (code == MPI_SUCCESS) {
            code = file_shared_set(f, base + offset);
        }
    }
    if (bcast_c(&code, 1, MPI_INT, 0, f->comm) != MPI_SUCCESS) {
        code = MPI_ERR_OTHER;
    }
    if (code != MPI_SUCCESS) {
        return raise_on_file(fh, code, function,
                             f->error_detail.empty() ? "the first process could not seek" : f->error_detail);
    }
    return MPI_SUCCESS;
}

namespace {

/* Collective, in rank order from the shared pointer (MPI-4.1 14.4.4). */
int ordered(const char *function, MPI_File fh, bool write, const void *buf, MPI_Count count, MPI_Datatype datatype,
            MPI_Status *status)
{
    /* Shared-pointer access: allowed on a MPI_MODE_SEQUENTIAL file (access_run takes no position). */
    const AccessCall call{function, fh, write, true, Position::Shared, 0, const_cast<void *>(buf), count, datatype};
    File *f = nullptr;
    const Datatype *type = nullptr;
    if (int rc = access_check(call, &f, &type); rc != MPI_SUCCESS) {
        return rc;
    }
    const std::size_t etype = f->view.etype->size;
    MPI_Offset mine = etype == 0 ? 0 : static_cast<MPI_Offset>(static_cast<std::size_t>(count) * type->size / etype);
    MPI_Offset before = 0, total = 0;
    if (exscan_c(&mine, &before, 1, MPI_OFFSET, MPI_SUM, f->comm) != MPI_SUCCESS ||
        allreduce_c(&mine, &total, 1, MPI_OFFSET, MPI_SUM, f->comm) != MPI_SUCCESS) {
        return raise_on_file(fh, MPI_ERR_OTHER, function, "the processes could not count their data");
    }
    if (f->rank == 0) {
        before = 0;
    }
    MPI_Offset base = 0;
    int code = f->rank == 0 ? file_shared_fetch_add(f, total, &base) : MPI_SUCCESS;
    MPI_Offset shared[2] = {base, code};
    if (bcast_c(shared, 2, MPI_OFFSET, 0, f->comm) != MPI_SUCCESS) {
        return raise_on_file(fh, MPI_ERR_OTHER, function, "the processes could not share the pointer");
    }
    if (shared[1] != MPI_SUCCESS) {
        return raise_on_file(fh, static_cast<int>(shared[1]), function, "cannot read the shared file pointer");
    }
    std::size_t bytes = 0;
    if (int rc = access_run(f, call, type, shared[0] + before, &bytes); rc != MPI_SUCCESS) {
        return raise_on_file(fh, rc, function, f->error_detail);
    }
    access_status(status, bytes);
    return MPI_SUCCESS;
}

} // namespace

int file_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return ordered("MPI_File_read_ordered", fh, false, buf, count, datatype, status);
}

int file_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return ordered("MPI_File_write_ordered", fh, true, buf, count, datatype, status);
}

} // namespace native
} // namespace tessera::ompi
