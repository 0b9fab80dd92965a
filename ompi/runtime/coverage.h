/* What the selected translator provides, function by function, for `tessera_info --coverage`. Needs
 * no MPI_Init: the module fills a private table, not the one the bindings use. */
#ifndef TESSERA_OMPI_RUNTIME_COVERAGE_H
#define TESSERA_OMPI_RUNTIME_COVERAGE_H

#include <string>
#include <vector>

namespace tessera::ompi {

struct FunctionCoverage {
    std::string name;     /* "MPI_Send" */
    std::string category; /* the API description's cat=: "p2p", "coll", "topo", ... */
    bool implemented = false;
};

struct TranslatorCoverage {
    std::string component; /* "native", "ompi", "mpich"; empty when the selection failed */
    std::string runtime;   /* the module's translator_runtime */
    std::vector<FunctionCoverage> functions; /* every function of the ABI, in the API description's order */
    std::string error; /* non-empty: nothing was selected or the fill failed (details went to stderr) */
};

/*
 * Selects the translator through its framework exactly as the first MPI call of a process would (the
 * `translator` parameter, else the launcher in the environment, else native), lets the module fill a
 * table preset with the fallbacks, and lists which entries it set. The selection is released afterwards.
 * Parameter sources must be loaded (tools do it before opening frameworks).
 */
TranslatorCoverage translator_coverage();

} // namespace tessera::ompi

#endif
