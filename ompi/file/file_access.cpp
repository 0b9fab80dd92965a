/*
 * Blocking data access (MPI-4.1 14.4): explicit offsets, individual and shared file pointers,
 * independent and collective, and the split collectives (14.4.5), which Tessera runs whole at _begin
 * and finishes at _end (the standard allows it: only one split collective per file is active at a time,
 * and its buffer is not touched between the two calls).
 */
#include <string>
#include <vector>

#include "ompi/file/file_access.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

void access_status(MPI_Status *status, std::size_t bytes)
{
    if (status == MPI_STATUS_IGNORE) {
        return;
    }
    MPI_Status s;
    pml::status_empty(&s);
    pml::status_set_count(&s, bytes);
    pml::status_deliver(status, s);
}

int access_check(const AccessCall &call, File **out, const Datatype **type)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument(call.function, call.fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    const Datatype *t = datatype_lookup(call.datatype);
    if (t == nullptr) {
        return raise_on_file(call.fh, MPI_ERR_TYPE, call.function, "invalid datatype in argument 'datatype'");
    }
    if (!datatype_committed(t)) {
        return raise_on_file(call.fh, MPI_ERR_TYPE, call.function, "the datatype is not committed");
    }
    if (call.count < 0) {
        return raise_on_file(call.fh, MPI_ERR_COUNT, call.function, "negative count " + std::to_string(call.count));
    }
    if (call.write && (f->amode & MPI_MODE_RDONLY)) {
        return raise_on_file(call.fh, MPI_ERR_READ_ONLY, call.function,
                             file_label(*f) + " was opened MPI_MODE_RDONLY");
    }
    if (!call.write && (f->amode & MPI_MODE_WRONLY)) {
        return raise_on_file(call.fh, MPI_ERR_ACCESS, call.function, file_label(*f) + " was opened MPI_MODE_WRONLY");
    }
    if (call.position != Position::Shared && (f->amode & MPI_MODE_SEQUENTIAL)) {
        return raise_on_file(call.fh, MPI_ERR_UNSUPPORTED_OPERATION, call.function,
                             file_label(*f) + " was opened with MPI_MODE_SEQUENTIAL: only shared file pointers");
    }
    if (call.position == Position::Explicit && call.offset < 0) {
        return raise_on_file(call.fh, MPI_ERR_ARG, call.function, "negative offset " + std::to_string(call.offset));
    }
    const std::size_t etype = f->view.etype->size;
    if (etype > 0 && (static_cast<std::size_t>(call.count) * t->size) % etype != 0) {
        return raise_on_file(call.fh, MPI_ERR_TYPE, call.function,
                             "the data (" + std::to_string(static_cast<std::size_t>(call.count) * t->size) +
                                 " bytes) is not a whole number of etypes of " + std::to_string(etype) + " bytes");
    }
    if (call.buf == nullptr && call.count > 0 && t->size > 0 && t->true_lb >= 0) {
        return raise_on_file(call.fh, MPI_ERR_BUFFER, call.function, "argument 'buf' is NULL");
    }
    *out = f;
    *type = t;
    return MPI_SUCCESS;
}

namespace {

/* The module's call for an access in the file's own representation. */
int access_move(File *f, const AccessCall &call, const Datatype *type, MPI_Offset offset, std::size_t *bytes)
{
    mca_io_base_module_t *m = f->io;
    mca_io_base_access_fn_t fn = call.collective ? (call.write ? m->io_write_at_all : m->io_read_at_all)
                                                 : (call.write ? m->io_write_at : m->io_read_at);
    if (fn == nullptr && call.collective) {
        /* A module without collective access: each process on its own, then together again. */
        fn = call.write ? m->io_write_at : m->io_read_at;
        f->error_detail.clear();
        int rc = fn == nullptr ? MPI_ERR_UNSUPPORTED_OPERATION
                               : fn(offset, call.buf, static_cast<std::size_t>(call.count), io::to_c(type), bytes,
                                    io::to_c(f), m);
        int worst = rc;
        native::allreduce_c(&rc, &worst, 1, MPI_INT, MPI_MAX, f->comm);
        return rc;
    }
    if (fn == nullptr) {
        return file_fail(f, MPI_ERR_UNSUPPORTED_OPERATION,
                         std::string("the io component ") + m->io_component->base.mca_component_name +
                             " does not provide " + call.function);
    }
    f->error_detail.clear();
    return fn(offset, call.buf, static_cast<std::size_t>(call.count), io::to_c(type), bytes, io::to_c(f), m);
}

/*
 * "external32" (MPI-4.1 14.5.2): the data is converted by MPI_Pack_external / MPI_Unpack_external into
 * a stream of the same length (file_datarep_check admits only types whose external32 size is their
 * native size, so the view's layout holds), which the module moves as bytes.
 */
int access_external32(File *f, AccessCall call, const Datatype *type, MPI_Offset offset, std::size_t *bytes)
{
    const std::size_t total = static_cast<std::size_t>(call.count) * type->size;
    MPI_Count converted = 0;
    if (native::pack_external_size_c("external32", call.count, call.datatype, &converted) != MPI_SUCCESS ||
        static_cast<std::size_t>(converted) != total) {
        return file_fail(f, MPI_ERR_CONVERSION,
                         "the memory datatype's external32 size differs from its native size: not converted yet");
    }
    std::vector<char> stream(total);
    MPI_Count position = 0;
    if (call.write && native::pack_external_c("external32", call.buf, call.count, call.datatype, stream.data(),
                                              converted, &position) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_CONVERSION, "cannot convert the data to external32");
    }
    void *user = call.buf;
    const MPI_Count count = call.count;
    const MPI_Datatype datatype = call.datatype;
    call.buf = stream.data();
    call.count = static_cast<MPI_Count>(total);
    call.datatype = MPI_BYTE;
    const int rc = access_move(f, call, datatype_lookup(MPI_BYTE), offset, bytes);
    if (rc != MPI_SUCCESS || call.write) {
        return rc;
    }
    /* Only whole elements of what was read are converted back. */
    const std::size_t whole = type->size == 0 ? 0 : *bytes / type->size;
    position = 0;
    if (whole > 0 && native::unpack_external_c("external32", stream.data(), static_cast<MPI_Count>(total), &position,
                                               user, static_cast<MPI_Count>(whole), datatype) != MPI_SUCCESS) {
        return file_fail(f, MPI_ERR_CONVERSION, "cannot convert the data from external32");
    }
    (void)count;
    return MPI_SUCCESS;
}

} // namespace

int access_run(File *f, const AccessCall &call, const Datatype *type, MPI_Offset offset, std::size_t *bytes)
{
    return f->view.datarep == "external32" ? access_external32(f, call, type, offset, bytes)
                                           : access_move(f, call, type, offset, bytes);
}

int access_blocking(const AccessCall &call, MPI_Status *status)
{
    File *f = nullptr;
    const Datatype *type = nullptr;
    if (int rc = access_check(call, &f, &type); rc != MPI_SUCCESS) {
        return rc;
    }
    const std::size_t etype = f->view.etype->size;
    const MPI_Offset etypes = etype == 0 ? 0 : static_cast<MPI_Offset>(static_cast<std::size_t>(call.count) * type->size / etype);
    MPI_Offset offset = call.offset;
    if (call.position == Position::Individual) {
        offset = f->pointer;
    } else if (call.position == Position::Shared) {
        if (int rc = file_shared_fetch_add(f, etypes, &offset); rc != MPI_SUCCESS) {
            return raise_on_file(call.fh, rc, call.function, f->error_detail);
        }
    }
    std::size_t bytes = 0;
    const int rc = access_run(f, call, type, offset, &bytes);
    if (call.position == Position::Individual) {
        /* The pointer moves over what was accessed (a read that met the end of the file moves less). */
        f->pointer = offset + (etype == 0 ? 0 : static_cast<MPI_Offset>(bytes / etype));
    }
    if (rc != MPI_SUCCESS) {
        return raise_on_file(call.fh, rc, call.function, f->error_detail);
    }
    access_status(status, bytes);
    return MPI_SUCCESS;
}

int file_seek_base(File *f, int whence, MPI_Offset current, MPI_Offset *base)
{
    switch (whence) {
    case MPI_SEEK_SET:
        *base = 0;
        return MPI_SUCCESS;
    case MPI_SEEK_CUR:
        *base = current;
        return MPI_SUCCESS;
    case MPI_SEEK_END:
        break;
    default:
        return file_fail(f, MPI_ERR_ARG, "whence " + std::to_string(whence) +
                                             " is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END");
    }
    std::int64_t size = 0;
    if (int rc = f->io->io_get_size(&size, io::to_c(f), f->io); rc != MPI_SUCCESS) {
        return rc;
    }
    /* The stream bytes of the view that lie before the end of the file. */
    const FileView &v = f->view;
    std::uint64_t stream = 0;
    if (size > v.disp && v.element_size > 0) {
        const std::int64_t past = size - v.disp;
        const std::int64_t whole = past / v.element_extent;
        const std::int64_t rest = past % v.element_extent;
        stream = static_cast<std::uint64_t>(whole) * v.element_size;
        for (const ViewSegment &s : v.segments) {
            if (s.offset < rest) {
                stream += std::min<std::uint64_t>(s.length, static_cast<std::uint64_t>(rest - s.offset));
            }
        }
    }
    const std::uint64_t etype = v.etype->size;
    *base = etype == 0 ? 0 : static_cast<MPI_Offset>((stream + etype - 1) / etype);
    return MPI_SUCCESS;
}

namespace native {

namespace {

int run(const char *function, MPI_File fh, bool write, bool collective, Position position, MPI_Offset offset,
        const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    const AccessCall call{function, fh, write, collective, position, offset, const_cast<void *>(buf), count, datatype};
    return access_blocking(call, status);
}

} // namespace

int file_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_read", fh, false, false, Position::Individual, 0, buf, count, datatype, status);
}
int file_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_write", fh, true, false, Position::Individual, 0, buf, count, datatype, status);
}
int file_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Status *status)
{
    return run("MPI_File_read_at", fh, false, false, Position::Explicit, offset, buf, count, datatype, status);
}
int file_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Status *status)
{
    return run("MPI_File_write_at", fh, true, false, Position::Explicit, offset, buf, count, datatype, status);
}
int file_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_read_all", fh, false, true, Position::Individual, 0, buf, count, datatype, status);
}
int file_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_write_all", fh, true, true, Position::Individual, 0, buf, count, datatype, status);
}
int file_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    return run("MPI_File_read_at_all", fh, false, true, Position::Explicit, offset, buf, count, datatype, status);
}
int file_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    return run("MPI_File_write_at_all", fh, true, true, Position::Explicit, offset, buf, count, datatype, status);
}
int file_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_read_shared", fh, false, false, Position::Shared, 0, buf, count, datatype, status);
}
int file_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    return run("MPI_File_write_shared", fh, true, false, Position::Shared, 0, buf, count, datatype, status);
}

} // namespace native
} // namespace tessera::ompi
