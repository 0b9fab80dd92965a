/*
 * Data representations (MPI-4.1 14.5.2-14.5.3). Views take "native", "internal" (Tessera's internal
 * representation is the native one: files are read back by the same build on the same kind of
 * machine) and "external32" for types whose external32 size is their native size (the big-endian
 * conversion of MPI_Pack_external, file_access.cpp). The representations an application registers with
 * MPI_Register_datarep are known by name but not converted yet: a view asking for one fails with
 * MPI_ERR_UNSUPPORTED_DATAREP saying so.
 */
#include <mutex>
#include <string>
#include <vector>

#include "ompi/file/file_access.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi {

namespace {

struct Registered {
    std::string name;
    MPI_Datarep_extent_function *extent = nullptr;
    void *extra_state = nullptr;
};

std::mutex registry_lock;

std::vector<Registered> &registry()
{
    static std::vector<Registered> list;
    return list;
}

bool registered(const std::string &name)
{
    const std::lock_guard<std::mutex> guard(registry_lock);
    for (const Registered &r : registry()) {
        if (r.name == name) {
            return true;
        }
    }
    return false;
}

int add(const char *datarep, MPI_Datarep_extent_function *extent, void *extra_state)
{
    const char *function = "MPI_Register_datarep";
    if (datarep == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function, "argument 'datarep' is NULL");
    }
    const std::string name = datarep;
    if (name.empty() || name.size() >= MPI_MAX_DATAREP_STRING) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function,
                             "a data representation's name has 1 to " + std::to_string(MPI_MAX_DATAREP_STRING - 1) +
                                 " characters");
    }
    if (extent == nullptr) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_ARG, function, "argument 'dtype_file_extent_fn' is NULL");
    }
    if (name == "native" || name == "internal" || name == "external32" || registered(name)) {
        return raise_on_file(MPI_FILE_NULL, MPI_ERR_DUP_DATAREP, function,
                             "the data representation '" + name + "' exists already");
    }
    const std::lock_guard<std::mutex> guard(registry_lock);
    registry().push_back({name, extent, extra_state});
    return MPI_SUCCESS;
}

} // namespace

int file_datarep_check(const char *function, MPI_File fh, const char *datarep, const Datatype *etype,
                       const Datatype *filetype)
{
    const std::string name = datarep;
    if (name == "native" || name == "internal") {
        return MPI_SUCCESS;
    }
    if (name == "external32") {
        /* Converted element by element into a stream of the same length: the view's layout in the file
         * is the native one only when every basic type keeps its size. */
        for (const Datatype *t : {etype, filetype}) {
            MPI_Count bytes = 0;
            if (native::pack_external_size_c("external32", 1, datatype_handle(t), &bytes) != MPI_SUCCESS ||
                static_cast<std::size_t>(bytes) != t->size) {
                return raise_on_file(fh, MPI_ERR_UNSUPPORTED_DATAREP, function,
                                     "external32 views of types whose external32 size differs from the native one "
                                     "are not converted yet");
            }
        }
        return MPI_SUCCESS;
    }
    if (registered(name)) {
        return raise_on_file(fh, MPI_ERR_UNSUPPORTED_DATAREP, function,
                             "the data representation '" + name + "' is not converted by Tessera yet (use \"native\")");
    }
    return raise_on_file(fh, MPI_ERR_UNSUPPORTED_DATAREP, function,
                         "unknown data representation '" + name + "' (native, internal, or one registered with "
                                                                   "MPI_Register_datarep)");
}

MPI_Count file_datarep_extent(const File *, const Datatype *type)
{
    return type->extent;
}

namespace native {

int register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *, MPI_Datarep_conversion_function_c *,
                       MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    return add(datarep, dtype_file_extent_fn, extra_state);
}

int register_datarep(const char *datarep, MPI_Datarep_conversion_function *, MPI_Datarep_conversion_function *,
                     MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    return add(datarep, dtype_file_extent_fn, extra_state);
}

} // namespace native
} // namespace tessera::ompi
