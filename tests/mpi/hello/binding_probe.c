/* Prints where the rank runs after MPI_Init, for the binding check in hello_cases.sh: the PUs the
 * kernel lets it use (Cpus_allowed_list of /proc/self/status) and what mpirun asked for
 * (TESSERA_BIND, Tessera-specific). Linux only, like the rest of the launcher. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank = 0;
    char line[512], allowed[512] = "unknown";
    const char *bind = getenv("TESSERA_BIND");
    FILE *status;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    status = fopen("/proc/self/status", "r");
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            sscanf(line + 18, "%511s", allowed);
        }
    }
    if (status != NULL) {
        fclose(status);
    }
    printf("rank %d: allowed %s bind %s\n", rank, allowed, bind != NULL ? bind : "(unset)");
    MPI_Finalize();
    return 0;
}
