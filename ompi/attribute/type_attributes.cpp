/* Attributes on datatypes (MPI-4.1 7.7.5), predefined datatypes included. MPI_Type_dup copies them and
 * MPI_Type_free deletes them (ompi/datatype). */
#include "ompi/runtime/native_api.h"
#include "ompi/attribute/keyval_calls.h"
#include "ompi/datatype/type_checks.h"

namespace tessera::ompi::native {

namespace {

int outcome(const char *function, int rc, const std::string &error)
{
    return rc == MPI_SUCCESS ? rc : type_error(function, rc, error);
}

} // namespace

int type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
                       int *type_keyval, void *extra_state)
{
    return create_keyval_call(AttrKind::Type, type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state);
}

int type_free_keyval(int *type_keyval)
{
    return free_keyval_call("MPI_Type_free_keyval", AttrKind::Type, type_keyval);
}

int type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_set_attr", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    return outcome("MPI_Type_set_attr", attr_set(AttrKind::Type, datatype, type_keyval, attribute_val, &error), error);
}

/* attribute_val is really a void **: the value is stored there. */
int type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_get_attr", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    void *value = nullptr;
    if (int rc = tessera::ompi::attr_get(AttrKind::Type, datatype, type_keyval, &value, flag, &error); rc != MPI_SUCCESS) {
        return type_error("MPI_Type_get_attr", rc, error);
    }
    if (*flag != 0) {
        *static_cast<void **>(attribute_val) = value;
    }
    return MPI_SUCCESS;
}

int type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_delete_attr", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    return outcome("MPI_Type_delete_attr", tessera::ompi::attr_delete(AttrKind::Type, datatype, type_keyval, &error), error);
}

} // namespace tessera::ompi::native
