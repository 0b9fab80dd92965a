/* Argument checks of the point-to-point calls that need the library's state (the generated ones in
 * mpi_checked.c cover handles, negative counts and tags, NULL outputs). */
#ifndef TESSERA_OMPI_PML_P2P_CHECKS_H
#define TESSERA_OMPI_PML_P2P_CHECKS_H

#include <cstddef>

#include <mpi.h>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"

namespace tessera::ompi::pml {

/* The largest tag (MPI_TAG_UB). */
inline constexpr int kTagUpperBound = 0x7fffffff;

enum class Role { Send, Recv, Probe };

struct Checked {
    Communicator *comm = nullptr;
    const Datatype *type = nullptr;
};

/* Checks what a send, receive or probe names: communicator, rank (dest or source with its wildcards),
 * tag, datatype, buffer. Returns MPI_SUCCESS or the error raised on the communicator's handler. */
int check_args(const char *function, MPI_Comm comm, int rank, int tag, Role role, MPI_Datatype datatype,
               const void *buf, std::size_t count, Checked *out);

} // namespace tessera::ompi::pml

#endif
