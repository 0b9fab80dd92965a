/* What the native engine implements, function by function, for `tessera_info --coverage`. Needs no
 * MPI_Init: it fills a private table, not the one the bindings use. */
#ifndef TESSERA_OMPI_RUNTIME_COVERAGE_H
#define TESSERA_OMPI_RUNTIME_COVERAGE_H

#include <string>
#include <vector>

namespace tessera::ompi {

struct FunctionCoverage {
    std::string name; /* "MPI_Send" */
    bool implemented = false;
};

/* Every function of the MPI 5.0 ABI, in the API description's order. */
std::vector<FunctionCoverage> native_coverage();

} // namespace tessera::ompi

#endif
