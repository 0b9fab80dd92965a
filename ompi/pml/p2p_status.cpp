/* What a status says (MPI-4.1 3.2.5, 3.8.2, 4.1.11), and how an application sets it: for generalized
 * requests' query functions (MPI-4.1 13.3.1) and the MPI-5 accessors of its public fields. */
#include "ompi/pml/p2p_functions.h"

#include <climits>

#include "ompi/datatype/datatype.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::native {

namespace {

int bad_type(const char *function)
{
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_TYPE, function, "invalid datatype");
}

/* The status argument of the calls that read or write one: MPI_STATUS_IGNORE (NULL) has no fields. */
int no_status(const char *function)
{
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, function, "the status is MPI_STATUS_IGNORE");
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

int status_set_cancelled(MPI_Status *status, int flag)
{
    if (status == nullptr) {
        return no_status("MPI_Status_set_cancelled");
    }
    pml::status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}

int status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    if (status == nullptr) {
        return no_status("MPI_Status_set_elements");
    }
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        return bad_type("MPI_Status_set_elements");
    }
    if (count > 0 && datatype_elements(type) == 0) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Status_set_elements",
                             std::to_string(count) + " elements of a datatype that holds none");
    }
    pml::status_set_count(status, datatype_bytes_of(type, static_cast<std::uint64_t>(count)));
    return MPI_SUCCESS;
}

int status_get_source(const MPI_Status *status, int *source)
{
    if (status == nullptr) {
        return no_status("MPI_Status_get_source");
    }
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

int status_get_tag(const MPI_Status *status, int *tag)
{
    if (status == nullptr) {
        return no_status("MPI_Status_get_tag");
    }
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

int status_get_error(const MPI_Status *status, int *error)
{
    if (status == nullptr) {
        return no_status("MPI_Status_get_error");
    }
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}

int status_set_source(MPI_Status *status, int source)
{
    if (status == nullptr) {
        return no_status("MPI_Status_set_source");
    }
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

int status_set_tag(MPI_Status *status, int tag)
{
    if (status == nullptr) {
        return no_status("MPI_Status_set_tag");
    }
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

int status_set_error(MPI_Status *status, int error)
{
    if (status == nullptr) {
        return no_status("MPI_Status_set_error");
    }
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
