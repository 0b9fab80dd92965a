/* What a status says (MPI-4.1 3.2.5, 3.8.2, 4.1.11) and the sizes of predefined datatypes. */
#include "ompi/pml/p2p_functions.h"

#include <climits>

#include "ompi/datatype/datatype.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::native {

namespace {

int bad_type(const char *function)
{
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_TYPE, function, "invalid datatype");
}

/* Elements in the status's bytes, MPI_UNDEFINED when they are not a whole number of them. */
MPI_Count elements(const MPI_Status *status, const Datatype &type)
{
    const std::size_t bytes = pml::status_count(status);
    if (type.size == 0) {
        return bytes == 0 ? 0 : MPI_UNDEFINED;
    }
    return bytes % type.size == 0 ? static_cast<MPI_Count>(bytes / type.size) : MPI_UNDEFINED;
}

} // namespace

int test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = pml::status_cancelled(status);
    return MPI_SUCCESS;
}

int get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        return bad_type("MPI_Get_count");
    }
    *count = elements(status, *type);
    return MPI_SUCCESS;
}

int get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count c = 0;
    if (int rc = get_count_c(status, datatype, &c); rc != MPI_SUCCESS) {
        return rc;
    }
    *count = c > INT_MAX ? MPI_UNDEFINED : static_cast<int>(c);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
