/* mpirun's own --mca and --tune settings, handed to the ranks in the environment (orte/runtime/launch_env.h). */
#ifndef TESSERA_OMPI_RUNTIME_LAUNCHER_SETTINGS_H
#define TESSERA_OMPI_RUNTIME_LAUNCHER_SETTINGS_H

#include <string>

namespace tessera::ompi {

/*
 * Gives mpirun's --mca settings to the parameter store as the "command line" source and its --tune
 * files as tune files. Once per process: the translator's selection at the first MPI call needs them
 * (mpirun --mca translator native) and MPI_Init calls it again; later calls return the first outcome.
 * Returns an empty string or what is wrong.
 */
std::string apply_launcher_settings();

} // namespace tessera::ompi

#endif
