/* MPI_Error_string and MPI_Error_class (MPI-4.1 9.4). Allowed before MPI_Init and after
 * MPI_Finalize (MPI-4.1 11.2.1). */
#include <algorithm>
#include <cstring>
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/errhandler/error_classes.h"
#include "ompi/runtime/native_functions.h"

namespace tessera::ompi::native {

int error_string(int errorcode, char *string, int *resultlen)
{
    const ErrorClass *c = find_error_class(errorcode);
    if (c == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Error_string",
                             std::to_string(errorcode) + " is not an error code of this library");
    }
    const std::string text = std::string(c->name) + ": " + c->text;
    const size_t n = std::min(text.size(), static_cast<size_t>(MPI_MAX_ERROR_STRING - 1));
    std::memcpy(string, text.data(), n);
    string[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}

/* Every code is its own class until user-defined codes exist (issue 7). */
int error_class(int errorcode, int *errorclass)
{
    if (find_error_class(errorcode) == nullptr) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Error_class",
                             std::to_string(errorcode) + " is not an error code of this library");
    }
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
