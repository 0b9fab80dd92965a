/* MPI_Add_error_class/_code/_string (MPI-4.1 9.5) and MPI 4.1's MPI_Remove_error_class/_code/_string.
 * They name no object: errors go to MPI_COMM_SELF's handler. */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/user_errors.h"

namespace tessera::ompi::native {

namespace {

int outcome(const char *function, int rc, const std::string &error)
{
    return rc == MPI_SUCCESS ? rc : raise_on_comm(MPI_COMM_SELF, rc, function, error);
}

} // namespace

int add_error_class(int *errorclass)
{
    return outcome("MPI_Add_error_class", user_error_add_class(errorclass), "every error class value is in use");
}

int add_error_code(int errorclass, int *errorcode)
{
    std::string error;
    return outcome("MPI_Add_error_code", user_error_add_code(errorclass, errorcode, &error), error);
}

int add_error_string(int errorcode, const char *string)
{
    std::string error;
    return outcome("MPI_Add_error_string", user_error_set_string(errorcode, string, &error), error);
}

int remove_error_class(int errorclass)
{
    std::string error;
    return outcome("MPI_Remove_error_class", user_error_remove_class(errorclass, &error), error);
}

int remove_error_code(int errorcode)
{
    std::string error;
    return outcome("MPI_Remove_error_code", user_error_remove_code(errorcode, &error), error);
}

int remove_error_string(int errorcode)
{
    std::string error;
    return outcome("MPI_Remove_error_string", user_error_remove_string(errorcode, &error), error);
}

} // namespace tessera::ompi::native
