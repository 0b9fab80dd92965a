/*
 * The predefined attribute keys: the environmental attributes of communicators (MPI-4.1 9.1.2:
 * MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE)
 * and those of windows (MPI_WIN_BASE ... MPI_WIN_MODEL, 12.2.6). The application reads them and
 * cannot set, delete or free them.
 *
 * The environmental values are the process's, so every communicator answers them, not only
 * MPI_COMM_WORLD where the standard attaches them (MPICH does the same); a duplicate of
 * MPI_COMM_WORLD then has them as the standard's copy would give.
 */
#ifndef TESSERA_OMPI_ATTRIBUTE_PREDEFINED_ATTRIBUTES_H
#define TESSERA_OMPI_ATTRIBUTE_PREDEFINED_ATTRIBUTES_H

#include "ompi/attribute/attribute.h"

namespace tessera::ompi {

/* "MPI_TAG_UB", or nullptr when the keyval is not predefined. */
const char *predefined_keyval_name(int keyval);
/* The kind a predefined keyval belongs to (only for predefined keyvals). */
AttrKind predefined_keyval_kind(int keyval);

/* Where the value of a predefined communicator attribute is (an int that stays current), or nullptr
 * when the key has none. */
const int *predefined_comm_attribute(int keyval);

} // namespace tessera::ompi

#endif
