/* What every group function checks: the group handles (the generated wrappers have checked them
 * already; these checks matter only when the functions are called around the bindings). Group
 * functions name no object, so errors go to MPI_COMM_SELF's handler (MPI-4.1 9.3). */
#ifndef TESSERA_OMPI_GROUP_GROUP_CHECKS_H
#define TESSERA_OMPI_GROUP_GROUP_CHECKS_H

#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/group/group.h"

namespace tessera::ompi {

inline int group_error(const char *function, int code, const std::string &detail)
{
    return raise_on_comm(MPI_COMM_SELF, code, function, detail);
}

/* *out = the group of `handle`, or the error raised. */
inline int group_argument(const char *function, MPI_Group handle, const char *name, Group **out)
{
    *out = group_lookup(handle);
    if (*out == nullptr) {
        return group_error(function, MPI_ERR_GROUP,
                           std::string(handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "invalid group") +
                               " in argument '" + name + "'");
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi

#endif
