/* The loops of the predefined ops, per predefined datatype (op_kernels.cpp). */
#ifndef TESSERA_OMPI_OP_OP_KERNELS_H
#define TESSERA_OMPI_OP_OP_KERNELS_H

#include <cstddef>

#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"

namespace tessera::ompi {

/* inout[i] = in[i] op inout[i] over `count` elements laid out as arrays of the type. */
using OpKernel = void (*)(const void *in, void *inout, std::size_t count);

/* The kernel of the predefined op `kind` (MPI_REPLACE and MPI_NO_OP excluded: they need none) on the
 * predefined type `type`; nullptr when MPI-4.1 6.9.2 does not define the op on that type. */
OpKernel op_kernel(OpKind kind, const Datatype *type);

/* The datatype classes `kind` is defined on, for error messages. */
const char *op_classes(OpKind kind);

} // namespace tessera::ompi

#endif
