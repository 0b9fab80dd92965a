/* Attributes on communicators (MPI-4.1 7.7.2-7.7.4) and their deprecated MPI-1 names (MPI-4.1 19.1:
 * MPI_Keyval_create, MPI_Attr_put, ...), which behave the same. The bindings have checked the handles. */
#include "ompi/runtime/native_api.h"
#include "ompi/attribute/keyval_calls.h"
#include "ompi/communicator/comm_checks.h"

namespace tessera::ompi::native {

namespace {

int put_value(const char *function, MPI_Comm comm, int keyval, void *value)
{
    int rc = MPI_SUCCESS;
    if (comm_settable_argument(function, comm, &rc) == nullptr) {
        return rc;
    }
    std::string error;
    rc = tessera::ompi::attr_set(AttrKind::Comm, comm, keyval, value, &error);
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm, rc, function, error);
}

/* attribute_val is really a void **: the value is stored there. */
int get_value(const char *function, MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    int rc = MPI_SUCCESS;
    if (comm_settable_argument(function, comm, &rc) == nullptr) {
        return rc;
    }
    std::string error;
    void *value = nullptr;
    rc = tessera::ompi::attr_get(AttrKind::Comm, comm, keyval, &value, flag, &error);
    if (rc != MPI_SUCCESS) {
        return raise_on_comm(comm, rc, function, error);
    }
    if (*flag != 0) {
        *static_cast<void **>(attribute_val) = value;
    }
    return MPI_SUCCESS;
}

int delete_value(const char *function, MPI_Comm comm, int keyval)
{
    int rc = MPI_SUCCESS;
    if (comm_settable_argument(function, comm, &rc) == nullptr) {
        return rc;
    }
    std::string error;
    rc = tessera::ompi::attr_delete(AttrKind::Comm, comm, keyval, &error);
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm, rc, function, error);
}

} // namespace

int comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                       int *comm_keyval, void *extra_state)
{
    return create_keyval_call(AttrKind::Comm, comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state);
}

int comm_free_keyval(int *comm_keyval)
{
    return free_keyval_call("MPI_Comm_free_keyval", AttrKind::Comm, comm_keyval);
}

int comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return put_value("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

int comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_value("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

int comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_value("MPI_Comm_delete_attr", comm, comm_keyval);
}

/* MPI_Copy_function and MPI_Delete_function have the communicator callbacks' C signatures. */
int keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    return create_keyval_call(AttrKind::Comm, copy_fn, delete_fn, keyval, extra_state);
}

int keyval_free(int *keyval)
{
    return free_keyval_call("MPI_Keyval_free", AttrKind::Comm, keyval);
}

int attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return put_value("MPI_Attr_put", comm, keyval, attribute_val);
}

int attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_value("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

int attr_delete(MPI_Comm comm, int keyval)
{
    return delete_value("MPI_Attr_delete", comm, keyval);
}

} // namespace tessera::ompi::native
