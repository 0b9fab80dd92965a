/*
 * Data representations (MPI-4.1 14.5.2-14.5.3). Views take "native" and "internal" (Tessera's internal
 * representation is the native one: files are read back by the same build on the same kind of
 * machine). "external32" and the representations an application registers with MPI_Register_datarep
 * are known by name but not converted yet: a view asking for one fails with
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

int file_datarep_check(const char *function, MPI_File fh, const char *datarep)
{
    const std::string name = datarep;
    if (name == "native" || name == "internal") {
        return MPI_SUCCESS;
    }
    if (name == "external32" || registered(name)) {
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
