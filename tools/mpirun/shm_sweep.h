/*
 * After the job: the shared-memory objects its ranks created on this host are removed, also when a rank
 * crashed before it could. Ranks name every POSIX shared-memory object "tessera-<jobid>-<anything>"
 * (shm_open("/tessera-<jobid>-...") -> /dev/shm/tessera-<jobid>-...), and semaphores the same way
 * (sem_open -> /dev/shm/sem.tessera-<jobid>-...). See docs/runtime.md.
 */
#ifndef TESSERA_TOOLS_MPIRUN_SHM_SWEEP_H
#define TESSERA_TOOLS_MPIRUN_SHM_SWEEP_H

#include <cstdint>
#include <string>

namespace tessera::mpirun {

/* "tessera-<jobid>-" */
std::string shm_prefix(uint32_t jobid);

/* Removes the job's entries from `dir` (default /dev/shm); returns how many were removed. */
int sweep_shm(uint32_t jobid, const std::string &dir = "/dev/shm");

} // namespace tessera::mpirun

#endif
