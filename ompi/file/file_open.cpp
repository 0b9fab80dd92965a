/* MPI_File_open, MPI_File_close and MPI_File_delete (MPI-4.1 14.2.1-14.2.3), and the file's size,
 * group, access mode, hints and sync (14.2.4-14.2.8, 14.6.1). */
#include <memory>

#include "frameworks/io/base/base.h"
#include "mca/constants.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/file/file.h"
#include "ompi/file/file_access.h"
#include "ompi/info/info.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

constexpr int kKnownModes = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL |
                            MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL |
                            MPI_MODE_APPEND;

/* "" when the access mode is consistent (MPI-4.1 14.2.1), else why not. */
std::string amode_problem(int amode)
{
    if ((amode & ~kKnownModes) != 0) {
        return "access mode " + std::to_string(amode) + " has bits of no MPI_MODE_* constant";
    }
    const int access = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_RDWR ? 1 : 0) +
                       (amode & MPI_MODE_WRONLY ? 1 : 0);
    if (access != 1) {
        return "access mode " + std::to_string(amode) +
               " must hold exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR, MPI_MODE_WRONLY";
    }
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) {
        return "MPI_MODE_RDONLY cannot be combined with MPI_MODE_CREATE or MPI_MODE_EXCL";
    }
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)) {
        return "MPI_MODE_RDWR cannot be combined with MPI_MODE_SEQUENTIAL";
    }
    return "";
}

/* Every process's error class after a collective step: the highest, so that all return the same
 * class (0 when all succeeded). */
int agree(MPI_Comm comm, int rc)
{
    int worst = rc;
    if (allreduce_c(&rc, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
        return MPI_ERR_OTHER;
    }
    return worst;
}

void destroy(File *f)
{
    view_clear(&f->view);
    if (f->comm != MPI_COMM_NULL) {
        comm_free(&f->comm);
    }
    errhandler_assign(&f->errhandler, MPI_ERRORS_RETURN);
}

} // namespace

int file_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    const char *function = "MPI_File_open";
    *fh = MPI_FILE_NULL;
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(function, comm, &rc);
    if (parent == nullptr) {
        return rc;
    }
    if (parent->is_inter()) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_COMM, function, "a file is opened over an intracommunicator only");
    }
    if (filename == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function, "argument 'filename' is NULL");
    }
    InfoEntries hints;
    if (info != MPI_INFO_NULL) {
        const Info *i = info_lookup(info);
        if (i == nullptr) {
            return raise_on_file(MPI_FILE_NULL, MPI_ERR_INFO, function, "invalid info object in argument 'info'");
        }
        hints = i->entries;
    }
    /* A filename may carry a file-system prefix ("ufs:", "nfs:" as ROMIO names them); the posix
     * component serves them all, so the prefix is dropped. */
    std::string name = filename;
    if (auto colon = name.find(':'); colon != std::string::npos && colon > 1 && name.find('/') > colon) {
        name = name.substr(colon + 1);
    }

    auto f = std::make_unique<File>();
    f->filename = name;
    f->amode = amode;
    f->info = hints;
    view_reset(&f->view);
    Communicator *dup = nullptr;
    std::string error;
    if (int c = comm::split(parent, {0, 0, parent->rank}, {}, nullptr, &dup, &error); c != MPI_SUCCESS) {
        view_clear(&f->view);
        return raise_on_file(MPI_FILE_NULL, c, function, error);
    }
    /* Errors of the file's own traffic are raised on the file, not on the duplicate. */
    errhandler_assign(&dup->errhandler, MPI_ERRORS_RETURN);
    f->comm = comm_handle(dup);
    f->size = dup->size;
    f->rank = dup->rank;

    /* The access mode is checked by all together: an inconsistent one anywhere, or different ones,
     * fail the open everywhere. */
    std::string problem = amode_problem(amode);
    int modes[2] = {amode, -amode};
    int extremes[2] = {0, 0};
    if (allreduce_c(modes, extremes, 2, MPI_INT, MPI_MAX, f->comm) != MPI_SUCCESS) {
        destroy(f.get());
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_OTHER, function, "the processes could not agree on the mode");
    }
    int code = problem.empty() ? MPI_SUCCESS : MPI_ERR_AMODE;
    if (code == MPI_SUCCESS && extremes[0] != -extremes[1]) {
        code = MPI_ERR_NOT_SAME;
        problem = "the processes passed different access modes";
    }
    if (const int all = agree(f->comm, code); all != MPI_SUCCESS) {
        destroy(f.get());
        return raise_on_file(MPI_FILE_NULL, all,
                             function, problem.empty() ? "another process's access mode is wrong" : problem);
    }

    const mca_io_base_file_args_t args{name.c_str(), amode, io::comm_to_c(dup), f->size, f->rank, {}};
    const std::string label = file_label(*f);
    mca_io_base_module_t *module = nullptr;
    if (int c = tessera_io_base_file_select(io::to_c(f.get()), &args, label.c_str(), &module); c != TESSERA_SUCCESS) {
        destroy(f.get());
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_UNSUPPORTED_OPERATION, function,
                             "no io component offers a module for " + label +
                                 " (see the io parameter; io_base_verbose 1 says more)");
    }
    f->io = module;
    /* The module's open is collective and agrees itself: every process returns the same class. */
    if (int c = module->io_open(&args, io::to_c(f.get()), module); c != MPI_SUCCESS) {
        if (module->io_release != nullptr) {
            module->io_release(module);
        }
        f->io = nullptr;
        const std::string why = f->error_detail.empty() ? "cannot open " + label : f->error_detail;
        destroy(f.get());
        return raise_on_file(MPI_FILE_NULL, c, function, why);
    }
    if (int c = file_shared_open(f.get()); c != MPI_SUCCESS) {
        const std::string why = f->error_detail;
        module->io_close(io::to_c(f.get()), module);
        f->io = nullptr;
        destroy(f.get());
        return raise_on_file(MPI_FILE_NULL, c, function, why);
    }
    /* A file starts with MPI_FILE_NULL's handler (MPI-4.1 14.7). */
    const MPI_Errhandler inherited = errhandler_get(&file_null_errhandler());
    errhandler_assign(&f->errhandler, inherited);
    errhandler_release(inherited);
    *fh = file_handle(f.get());
    file_register(f.release());
    return MPI_SUCCESS;
}

int file_close(MPI_File *fh)
{
    const char *function = "MPI_File_close";
    if (fh == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function, "argument 'fh' is NULL");
    }
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, *fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    f->error_detail.clear();
    file_shared_close(f);
    const int c = f->io->io_close(io::to_c(f), f->io);
    f->io = nullptr;
    if (c != MPI_SUCCESS) {
        /* The file is closed all the same (the module released itself): the error says what was lost. */
        rc = raise_on_file(*fh, c, function, f->error_detail);
    }
    file_unregister(f);
    destroy(f);
    delete f;
    *fh = MPI_FILE_NULL;
    return rc;
}

int file_delete(const char *filename, MPI_Info info)
{
    const char *function = "MPI_File_delete";
    if (filename == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function, "argument 'filename' is NULL");
    }
    if (info != MPI_INFO_NULL && info_lookup(info) == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_INFO, function, "invalid info object in argument 'info'");
    }
    const mca_io_base_component_t *deleter = tessera_io_base_deleter();
    if (deleter == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_UNSUPPORTED_OPERATION, function,
                             "no io component can delete files (see the io parameter)");
    }
    std::string name = filename;
    if (auto colon = name.find(':'); colon != std::string::npos && colon > 1 && name.find('/') > colon) {
        name = name.substr(colon + 1);
    }
    char why[512] = "";
    if (int c = deleter->io_delete(name.c_str(), why, sizeof why); c != MPI_SUCCESS) {
        return raise_on_file(MPI_FILE_NULL, c, function, why);
    }
    return MPI_SUCCESS;
}

namespace {

/* Runs a collective size operation and raises what it failed with. */
int size_call(const char *function, MPI_File fh, MPI_Offset size, bool preallocate)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument(function, fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (size < 0) {
        return raise_on_file(fh, MPI_ERR_ARG, function, "negative size " + std::to_string(size));
    }
    if (f->amode & MPI_MODE_SEQUENTIAL) {
        return raise_on_file(fh, MPI_ERR_UNSUPPORTED_OPERATION, function,
                             file_label(*f) + " was opened with MPI_MODE_SEQUENTIAL");
    }
    if (f->amode & MPI_MODE_RDONLY) {
        return raise_on_file(fh, MPI_ERR_READ_ONLY, function, file_label(*f) + " was opened MPI_MODE_RDONLY");
    }
    /* Every process must pass the same size (MPI-4.1 14.2.4). */
    MPI_Offset sizes[2] = {size, -size};
    MPI_Offset extremes[2] = {0, 0};
    if (allreduce_c(sizes, extremes, 2, MPI_OFFSET, MPI_MAX, f->comm) != MPI_SUCCESS) {
        return raise_on_file(fh, MPI_ERR_OTHER, function, "the processes could not agree on the size");
    }
    if (extremes[0] != -extremes[1]) {
        return raise_on_file(fh, MPI_ERR_NOT_SAME, function, "the processes passed different sizes");
    }
    f->error_detail.clear();
    const int c = preallocate ? f->io->io_preallocate(size, io::to_c(f), f->io)
                              : f->io->io_set_size(size, io::to_c(f), f->io);
    return c == MPI_SUCCESS ? c : raise_on_file(fh, c, function, f->error_detail);
}

} // namespace

int file_set_size(MPI_File fh, MPI_Offset size)
{
    return size_call("MPI_File_set_size", fh, size, false);
}

int file_preallocate(MPI_File fh, MPI_Offset size)
{
    return size_call("MPI_File_preallocate", fh, size, true);
}

int file_get_size(MPI_File fh, MPI_Offset *size)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument("MPI_File_get_size", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    f->error_detail.clear();
    std::int64_t bytes = 0;
    if (int c = f->io->io_get_size(&bytes, io::to_c(f), f->io); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, "MPI_File_get_size", f->error_detail);
    }
    *size = bytes;
    return MPI_SUCCESS;
}

int file_get_group(MPI_File fh, MPI_Group *group)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_group", fh, &rc);
    return f == nullptr ? rc : comm_group(f->comm, group);
}

int file_get_amode(MPI_File fh, int *amode)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_amode", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    *amode = f->amode;
    return MPI_SUCCESS;
}

int file_set_info(MPI_File fh, MPI_Info info)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument("MPI_File_set_info", fh, &rc);
    if (f == nullptr || info == MPI_INFO_NULL) {
        return rc;
    }
    const Info *i = info_lookup(info);
    if (i == nullptr) {
        return raise_on_file(fh, MPI_ERR_INFO, "MPI_File_set_info", "invalid info object in argument 'info'");
    }
    f->info.merge(i->entries);
    f->error_detail.clear();
    if (f->io->io_hints_changed != nullptr) {
        if (int c = f->io->io_hints_changed(io::to_c(f), f->io); c != MPI_SUCCESS) {
            return raise_on_file(fh, c, "MPI_File_set_info", f->error_detail);
        }
    }
    return MPI_SUCCESS;
}

int file_get_info(MPI_File fh, MPI_Info *info_used)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_info", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    *info_used = info_create(f->info);
    return MPI_SUCCESS;
}

int file_sync(MPI_File fh)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument("MPI_File_sync", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    if (f->amode & MPI_MODE_RDONLY) {
        /* Nothing of this process to write back; still collective (MPI-4.1 14.6.1). */
        return barrier(f->comm);
    }
    f->error_detail.clear();
    if (int c = f->io->io_sync(io::to_c(f), f->io); c != MPI_SUCCESS) {
        return raise_on_file(fh, c, "MPI_File_sync", f->error_detail);
    }
    return MPI_SUCCESS;
}

int file_set_atomicity(MPI_File fh, int flag)
{
    int rc = MPI_SUCCESS;
    File *f = file_argument("MPI_File_set_atomicity", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    int flags[2] = {flag ? 1 : 0, flag ? -1 : 0};
    int extremes[2] = {0, 0};
    if (allreduce_c(flags, extremes, 2, MPI_INT, MPI_MAX, f->comm) != MPI_SUCCESS) {
        return raise_on_file(fh, MPI_ERR_OTHER, "MPI_File_set_atomicity", "the processes could not agree");
    }
    if (extremes[0] != -extremes[1]) {
        return raise_on_file(fh, MPI_ERR_NOT_SAME, "MPI_File_set_atomicity", "the processes passed different flags");
    }
    f->atomic = flag != 0;
    return MPI_SUCCESS;
}

int file_get_atomicity(MPI_File fh, int *flag)
{
    int rc = MPI_SUCCESS;
    const File *f = file_argument("MPI_File_get_atomicity", fh, &rc);
    if (f == nullptr) {
        return rc;
    }
    *flag = f->atomic ? 1 : 0;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
