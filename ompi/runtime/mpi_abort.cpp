/*
 * MPI_Abort (MPI-4.1 11.3): ends every process of the job, whatever the communicator — the standard
 * lets an implementation abort more than comm's group, and a job whose ranks cannot all go on is
 * better ended whole. mpirun exits with errorcode and names the rank that called it.
 */
#include <string>

#include "ompi/communicator/communicator.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

int abort(MPI_Comm comm, int errorcode)
{
    /* Allowed at any time, even before MPI_Init or after MPI_Finalize: an application that gives up
     * must be able to say so. */
    const Communicator *c = comm_lookup(comm);
    const std::string name = c != nullptr ? c->name : "a communicator";
    /* mpirun prefixes "rank R on host H ended the job with status N: ". */
    std::string to_mpirun = "called MPI_Abort(" + name + ", " + std::to_string(errorcode) + ")";
    if (comm != MPI_COMM_WORLD) {
        to_mpirun += "; Tessera ends the whole job";
    }
    abort_job(errorcode, to_mpirun,
              "MPI_Abort(" + name + ", " + std::to_string(errorcode) + ") called by " + process_label() + ": ending the job");
}

} // namespace tessera::ompi::native
