/* The MCA side of MPI_Init and MPI_Finalize: parameter sources, framework registration and opening. */
#ifndef TESSERA_OMPI_RUNTIME_RUNTIME_FRAMEWORKS_H
#define TESSERA_OMPI_RUNTIME_RUNTIME_FRAMEWORKS_H

#include <string>

namespace tessera::ompi {

/*
 * Reads the parameter sources, registers every framework (orte's too, so that their parameter names
 * are known), opens the MPI layer's frameworks (btl, dte, coll, translator, trace; launching is
 * mpirun's business) and, with warn_unknown, warns about names that match no parameter. Returns an
 * empty string, or what is wrong (bad values, malformed files, bad selection lists) — the details
 * went to stderr as they were found.
 */
std::string open_runtime_frameworks(bool warn_unknown);

/* Closes what open_runtime_frameworks opened and unloads the component DSOs. */
void close_runtime_frameworks();

} // namespace tessera::ompi

#endif
