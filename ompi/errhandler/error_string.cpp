/* MPI_Error_string and MPI_Error_class (MPI-4.1 9.4), for predefined and user-defined codes. Allowed
 * before MPI_Init and after MPI_Finalize (MPI-4.1 11.2.1). */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/errhandler/user_errors.h"
#include "ompi/runtime/string_out.h"

namespace tessera::ompi::native {

namespace {

int unknown_code(const char *function, int errorcode)
{
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, function,
                         std::to_string(errorcode) + " is not an error code of this library");
}

} // namespace

/* A user code's string is the application's, "" until it sets one (MPI-4.1 9.5). */
int error_string(int errorcode, char *string, int *resultlen)
{
    std::string text;
    if (const ErrorClass *c = find_error_class(errorcode)) {
        text = std::string(c->name) + ": " + c->text;
    } else if (const auto user = user_error_find(errorcode)) {
        text = user->text;
    } else {
        return unknown_code("MPI_Error_string", errorcode);
    }
    copy_string_out(text, string, MPI_MAX_ERROR_STRING, resultlen);
    return MPI_SUCCESS;
}

int error_class(int errorcode, int *errorclass)
{
    if (find_error_class(errorcode) == nullptr && !user_error_find(errorcode)) {
        return unknown_code("MPI_Error_class", errorcode);
    }
    *errorclass = error_class_of(errorcode);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
