/*
 * Split collective data access (MPI-4.1 14.4.5). The collective runs whole in _begin and _end hands
 * back its status: the standard lets an implementation do the work at either call, the buffer must
 * not be touched in between anyway, and only one split collective per file may be active.
 */
#include <string>

#include "ompi/file/file_access.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {


int begin(const char *function, MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
          int (*op)(MPI_File, const void *, MPI_Count, MPI_Datatype, MPI_Status *, MPI_Offset), MPI_Offset offset)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (f->split_active) {
        return raise_on_file(fh, MPI_ERR_OTHER, function,
                             "a split collective is already active on " + file_label(*f) +
                                 " (MPI-4.1 14.4.5: one at a time per file)");
    }
    MPI_Status status;
    rc = op(fh, buf, count, datatype, &status, offset);
    f->split_active = true;
    f->split_buf = buf;
    f->split_rc = rc;
    f->split_bytes = rc == MPI_SUCCESS ? pml::status_count(&status) : 0;
    return rc;
}

int end(const char *function, MPI_File fh, const void *buf, MPI_Status *status)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (!f->split_active) {
        return raise_on_file(fh, MPI_ERR_OTHER, function, "no split collective is active on " + file_label(*f));
    }
    if (buf != f->split_buf) {
        return raise_on_file(fh, MPI_ERR_BUFFER, function, "the buffer is not the one given to the _begin call");
    }
    f->split_active = false;
    if (f->split_rc != MPI_SUCCESS) {
        return f->split_rc; /* raised at _begin */
    }
    access_status(status, f->split_bytes);
    return MPI_SUCCESS;
}

int read_all(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status, MPI_Offset)
{
    return file_read_all_c(fh, const_cast<void *>(buf), count, datatype, status);
}
int write_all(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status, MPI_Offset)
{
    return file_write_all_c(fh, buf, count, datatype, status);
}
int read_at_all(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                MPI_Offset offset)
{
    return file_read_at_all_c(fh, offset, const_cast<void *>(buf), count, datatype, status);
}
int write_at_all(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                 MPI_Offset offset)
{
    return file_write_at_all_c(fh, offset, buf, count, datatype, status);
}
int read_ordered(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status, MPI_Offset)
{
    return file_read_ordered_c(fh, const_cast<void *>(buf), count, datatype, status);
}
int write_ordered(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status,
                  MPI_Offset)
{
    return file_write_ordered_c(fh, buf, count, datatype, status);
}

} // namespace

int file_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return begin("MPI_File_read_all_begin", fh, buf, count, datatype, read_all, 0);
}
int file_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return end("MPI_File_read_all_end", fh, buf, status);
}
int file_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return begin("MPI_File_write_all_begin", fh, buf, count, datatype, write_all, 0);
}
int file_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return end("MPI_File_write_all_end", fh, buf, status);
}
int file_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return begin("MPI_File_read_at_all_begin", fh, buf, count, datatype, read_at_all, offset);
}
int file_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return end("MPI_File_read_at_all_end", fh, buf, status);
}
int file_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              MPI_Datatype datatype)
{
    return begin("MPI_File_write_at_all_begin", fh, buf, count, datatype, write_at_all, offset);
}
int file_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return end("MPI_File_write_at_all_end", fh, buf, status);
}
int file_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return begin("MPI_File_read_ordered_begin", fh, buf, count, datatype, read_ordered, 0);
}
int file_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return end("MPI_File_read_ordered_end", fh, buf, status);
}
int file_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return begin("MPI_File_write_ordered_begin", fh, buf, count, datatype, write_ordered, 0);
}
int file_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return end("MPI_File_write_ordered_end", fh, buf, status);
}

} // namespace tessera::ompi::native
