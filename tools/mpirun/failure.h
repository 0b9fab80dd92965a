/*
 * What ends a job early, the message mpirun prints for it and the exit status it returns. Only the first
 * failure counts: the ranks that die in the teardown it causes are not failures of their own.
 *
 *   rank exits with status N (N != 0)       -> N
 *   rank killed by signal N                 -> 128 + N
 *   rank exits 0 before MPI_Finalize while  -> 1   (MPI jobs only: a program that never called MPI_Init
 *     other ranks still run                        may end whenever it likes)
 *   MPI_Abort(comm, code)                   -> code (0..255)
 *   --timeout                               -> 124 (as timeout(1))
 *   ranks missing from the wire-up after    -> 1
 *     plm_base_wireup_timeout
 *   mpirun receives signal N                -> 128 + N
 *   a rank cannot be started                -> 127 when the program is not found, else 1
 */
#ifndef TESSERA_TOOLS_MPIRUN_FAILURE_H
#define TESSERA_TOOLS_MPIRUN_FAILURE_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/plm/plm.h"

namespace tessera::mpirun {

struct Failure {
    int status = 1;
    std::string message; /* one line, "mpirun: ..." */
};

struct RankEnd {
    int rank = 0;
    std::string host;
    mca_plm_base_exit_t exit{};
    bool mpi_job = false;    /* some rank of the job used the wire-up service */
    bool finalized = false;  /* this rank reached MPI_Finalize */
    bool others_running = false;
};

/* nullopt when the end is a normal one. */
std::optional<Failure> failure_from_exit(const RankEnd &end);
Failure failure_from_abort(int rank, const std::string &host, int code, const std::string &text, bool others_running);
Failure failure_from_timeout(double seconds);
Failure failure_from_signal(int sig);
/* Ranks (number, host) that never reached the wire-up within plm_base_wireup_timeout seconds. */
Failure failure_from_wireup(double seconds, const std::vector<std::pair<int, std::string>> &missing);
Failure failure_from_spawn(int rank, const std::string &host, int rc);

} // namespace tessera::mpirun

#endif
