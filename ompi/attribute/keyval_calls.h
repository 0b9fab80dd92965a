/* What the MPI_*_create_keyval and MPI_*_free_keyval calls of every object kind do. They name no
 * object: errors go to MPI_COMM_SELF's handler. */
#ifndef TESSERA_OMPI_ATTRIBUTE_KEYVAL_CALLS_H
#define TESSERA_OMPI_ATTRIBUTE_KEYVAL_CALLS_H

#include <string>

#include "ompi/attribute/attribute.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi {

template <class Copy, class Delete>
int create_keyval_call(AttrKind kind, Copy *copy, Delete *del, int *keyval, void *extra_state)
{
    *keyval = keyval_create(kind, reinterpret_cast<void (*)()>(copy), reinterpret_cast<void (*)()>(del), extra_state);
    return MPI_SUCCESS;
}

inline int free_keyval_call(const char *function, AttrKind kind, int *keyval)
{
    std::string error;
    if (int rc = keyval_free(kind, *keyval, &error); rc != MPI_SUCCESS) {
        return raise_on_comm(MPI_COMM_SELF, rc, function, error);
    }
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi

#endif
