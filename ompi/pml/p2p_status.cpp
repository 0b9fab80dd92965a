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
    return raise_on_comm(MPI_COMM_SELF, MPI_ERR_TYPE, function, "invalid datatype (derived datatypes come with issue 6)");
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

/* For predefined datatypes the basic elements are the elements themselves, except the pair types,
 * whose two members count separately (MPI-4.1 5.1.12). */
int get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        return bad_type("MPI_Get_elements");
    }
    const MPI_Count whole = elements(status, *type);
    if (type->block_count == 1 || whole != MPI_UNDEFINED) {
        *count = whole == MPI_UNDEFINED ? MPI_UNDEFINED : whole * type->block_count;
        return MPI_SUCCESS;
    }
    /* A partial pair: the whole pairs' members, plus the value of the last one if it arrived. */
    const std::size_t bytes = pml::status_count(status);
    const std::size_t pairs = bytes / type->size, rest = bytes % type->size;
    *count = rest == type->blocks[0].length ? static_cast<MPI_Count>(2 * pairs + 1) : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count c = 0;
    if (int rc = get_elements_c(status, datatype, &c); rc != MPI_SUCCESS) {
        return rc;
    }
    *count = c > INT_MAX ? MPI_UNDEFINED : static_cast<int>(c);
    return MPI_SUCCESS;
}

int type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        return bad_type("MPI_Type_size");
    }
    *size = static_cast<MPI_Count>(type->size);
    return MPI_SUCCESS;
}

int type_size(MPI_Datatype datatype, int *size)
{
    MPI_Count c = 0;
    if (int rc = type_size_c(datatype, &c); rc != MPI_SUCCESS) {
        return rc;
    }
    *size = static_cast<int>(c);
    return MPI_SUCCESS;
}

int type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        return bad_type("MPI_Type_get_extent");
    }
    *lb = type->lb;
    *extent = type->extent;
    return MPI_SUCCESS;
}

int type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    MPI_Aint l = 0, e = 0;
    if (int rc = type_get_extent(datatype, &l, &e); rc != MPI_SUCCESS) {
        return rc;
    }
    *lb = l;
    *extent = e;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
