/* MPI_File_set_view / get_view, get_type_extent, get_byte_offset, seek and get_position (MPI-4.1
 * 14.3, 14.4.3, 14.5.1). */
#include <string>
#include <utility>

#include "ompi/datatype/datatype_derived.h"
#include "ompi/file/file.h"
#include "ompi/file/file_access.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

/* A datatype argument that may be used in a view or an access: MPI_SUCCESS or the raised error. */
int type_argument(const char *function, MPI_File fh, MPI_Datatype handle, const char *name, const Datatype **out)
{
    const Datatype *t = datatype_lookup(handle);
    if (t == nullptr) {
        return raise_on_file(fh, MPI_ERR_TYPE, function, std::string("invalid datatype in argument '") + name + "'");
    }
    if (!datatype_committed(t)) {
        return raise_on_file(fh, MPI_ERR_TYPE, function,
                             std::string("the datatype in argument '") + name + "' is not committed");
    }
    *out = t;
    return MPI_SUCCESS;
}

} // namespace

int file_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep,
                  MPI_Info info)
{
    const char *function = "MPI_File_set_view";
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    const Datatype *e = nullptr, *t = nullptr;
    if (int c = type_argument(function, fh, etype, "etype", &e); c != MPI_SUCCESS) {
        return c;
    }
    if (int c = type_argument(function, fh, filetype, "filetype", &t); c != MPI_SUCCESS) {
        return c;
    }
    if (datarep == nullptr) {
        return raise_on_file(fh, MPI_ERR_ARG, function, "argument 'datarep' is NULL");
    }
    if (int c = file_datarep_check(function, fh, datarep, e, t); c != MPI_SUCCESS) {
        return c;
    }
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL)) {
            return raise_on_file(fh, MPI_ERR_ARG, function,
                                 "MPI_DISPLACEMENT_CURRENT is for files opened with MPI_MODE_SEQUENTIAL");
        }
        /* The first process reads it for all: the others must not read it after the reset below. */
        MPI_Offset shared[2] = {0, MPI_SUCCESS};
        if (f->rank == 0) {
            shared[1] = file_shared_position_bytes(f, &shared[0]);
        }
        if (bcast_c(shared, 2, MPI_OFFSET, 0, f->comm) != MPI_SUCCESS) {
            return raise_on_file(fh, MPI_ERR_OTHER, function, "the processes could not share the pointer");
        }
        if (shared[1] != MPI_SUCCESS) {
            return raise_on_file(fh, static_cast<int>(shared[1]), function, "cannot read the shared file pointer");
        }
        disp = shared[0];
    } else if (disp < 0) {
        return raise_on_file(fh, MPI_ERR_ARG, function, "negative displacement " + std::to_string(disp));
    }
    if (e->size == 0 || t->size % e->size != 0) {
        return raise_on_file(fh, MPI_ERR_ARG, function,
                             "the filetype's size " + std::to_string(t->size) +
                                 " is not a multiple of the etype's size " + std::to_string(e->size));
    }
    if (t->size > 0 && t->extent <= 0) {
        return raise_on_file(fh, MPI_ERR_ARG, function, "the filetype's extent is not positive");
    }
    /* ROMIO answers MPI_ERR_IO for these, and applications test for it. */
    const bool writable = !(f->amode & MPI_MODE_RDONLY);
    for (const auto &[type, name] : {std::pair{e, "etype"}, std::pair{t, "filetype"}}) {
        if (std::string why = view_type_problem(type, name, writable); !why.empty()) {
            return raise_on_file(fh, MPI_ERR_IO, function, why);
        }
    }
    if (info != MPI_INFO_NULL) {
        const Info *i = info_lookup(info);
        if (i == nullptr) {
            return raise_on_file(fh, MPI_ERR_INFO, function, "invalid info object in argument 'info'");
        }
        f->info.merge(i->entries);
    }
    std::string why;
    if (int c = view_set(&f->view, disp, e, t, datarep, &why); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, function, why);
    }
    /* MPI-4.1 14.3: the individual and shared file pointers go back to 0 of the new view. */
    f->pointer = 0;
    f->error_detail.clear();
    if (int c = file_shared_reset(f); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, function, f->error_detail);
    }
    if (f->io->io_view_changed != nullptr) {
        if (int c = f->io->io_view_changed(io::to_c(f), f->io); c != MPI_SUCCESS) {
            return raise_on_file(fh, c, function, f->error_detail);
        }
    }
    if (info != MPI_INFO_NULL && f->io->io_hints_changed != nullptr) {
        if (int c = f->io->io_hints_changed(io::to_c(f), f->io); c != MPI_SUCCESS) {
            return raise_on_file(fh, c, function, f->error_detail);
        }
    }
    return MPI_SUCCESS;
}

int file_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_view", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    /* Derived types come back as new handles the application frees (MPI-4.1 14.3). */
    auto give = [](const Datatype *t, MPI_Datatype *out) {
        const MPI_Datatype h = datatype_handle(t);
        return t->derived == nullptr ? (*out = h, MPI_SUCCESS) : type_dup(h, out);
    };
    if (int c = give(f->view.etype, etype); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, "MPI_File_get_view", "cannot duplicate the etype");
    }
    if (int c = give(f->view.filetype, filetype); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, "MPI_File_get_view", "cannot duplicate the filetype");
    }
    *disp = f->view.disp;
    const std::string &rep = f->view.datarep;
    rep.copy(datarep, MPI_MAX_DATAREP_STRING - 1);
    datarep[std::min<std::size_t>(rep.size(), MPI_MAX_DATAREP_STRING - 1)] = '\0';
    return MPI_SUCCESS;
}

int file_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_type_extent", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    const Datatype *t = datatype_lookup(datatype);
    if (t == nullptr) {
        return raise_on_file(fh, MPI_ERR_TYPE, "MPI_File_get_type_extent", "invalid datatype in argument 'datatype'");
    }
    *extent = file_datarep_extent(f, t);
    return MPI_SUCCESS;
}

int file_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Count e = 0;
    const int rc = file_get_type_extent_c(fh, datatype, &e);
    if (rc == MPI_SUCCESS) {
        *extent = static_cast<MPI_Aint>(e);
    }
    return rc;
}

int file_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_byte_offset", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (offset < 0) {
        return raise_on_file(fh, MPI_ERR_ARG, "MPI_File_get_byte_offset", "negative offset " + std::to_string(offset));
    }
    *disp = f->view.byte_offset(static_cast<std::uint64_t>(offset) * f->view.etype->size);
    return MPI_SUCCESS;
}

int file_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *function = "MPI_File_seek";
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (f->amode & MPI_MODE_SEQUENTIAL) {
        return raise_on_file(fh, MPI_ERR_UNSUPPORTED_OPERATION, function,
                             file_label(*f) + " was opened with MPI_MODE_SEQUENTIAL");
    }
    MPI_Offset base = 0;
    if (int c = file_seek_base(f, whence, f->pointer, &base); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, function, f->error_detail);
    }
    if (base + offset < 0) {
        return raise_on_file(fh, MPI_ERR_ARG, function,
                             "the new position " + std::to_string(base + offset) + " is before the view's start");
    }
    f->pointer = base + offset;
    return MPI_SUCCESS;
}

int file_get_position(MPI_File fh, MPI_Offset *offset)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_position", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    *offset = f->pointer;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
