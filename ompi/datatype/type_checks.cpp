#include "ompi/datatype/type_checks.h"

#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

int type_error(const char *function, int code, const std::string &detail)
{
    return raise_on_comm(MPI_COMM_SELF, code, function, detail);
}

int type_argument(const char *function, MPI_Datatype handle, const char *arg, const Datatype **out)
{
    *out = datatype_lookup(handle);
    if (*out == nullptr) {
        return type_error(function, MPI_ERR_TYPE,
                          std::string(handle == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "an invalid datatype") +
                              " in argument '" + arg + "'");
    }
    return MPI_SUCCESS;
}

int type_committed_argument(const char *function, MPI_Datatype handle, MPI_Comm comm, const Datatype **out)
{
    *out = datatype_lookup(handle);
    if (*out == nullptr) {
        return raise_on_comm(comm, MPI_ERR_TYPE, function,
                             handle == MPI_DATATYPE_NULL ? "the datatype is MPI_DATATYPE_NULL" : "invalid datatype");
    }
    if (!datatype_committed(*out)) {
        return raise_on_comm(comm, MPI_ERR_TYPE, function, "the datatype is not committed (MPI_Type_commit)");
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi
