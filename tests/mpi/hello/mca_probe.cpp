/*
 * Checks what a rank sees of mpirun's settings after MPI_Init: an MCA parameter's value and source
 * (through tessera::mca::find_var, a Tessera-specific hook until MPI_T exists) and an environment
 * variable exported with -x.
 *   mca_probe <param> <value> <source> [<env var> <value>]...
 */
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "mca/var_store.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int failures = 0;
    if (argc < 4 || argc % 2 != 0) {
        std::fprintf(stderr, "usage: mca_probe <param> <value> <source> [<env var> <value>]...\n");
        return 2;
    }
    auto var = tessera::mca::find_var(argv[1]);
    if (!var) {
        std::fprintf(stderr, "rank %d: no parameter %s\n", rank, argv[1]);
        ++failures;
    } else if (var->value != argv[2] || var->source.describe() != argv[3]) {
        std::fprintf(stderr, "rank %d: %s = '%s' from '%s', expected '%s' from '%s'\n", rank, argv[1],
                     var->value.c_str(), var->source.describe().c_str(), argv[2], argv[3]);
        ++failures;
    } else {
        std::printf("rank %d: %s = %s (source: %s)\n", rank, argv[1], var->value.c_str(),
                    var->source.describe().c_str());
    }
    for (int i = 4; i + 1 < argc; i += 2) {
        const char *value = std::getenv(argv[i]);
        if (value == nullptr || std::string(value) != argv[i + 1]) {
            std::fprintf(stderr, "rank %d: %s = '%s', expected '%s'\n", rank, argv[i], value ? value : "(unset)",
                         argv[i + 1]);
            ++failures;
        } else {
            std::printf("rank %d: %s = %s\n", rank, argv[i], value);
        }
    }
    MPI_Finalize();
    return failures != 0;
}
