/*
 * Launches a singleton must not pretend to serve. A resource manager that starts N copies of a program
 * without a process-management interface for them would otherwise get N jobs of size 1, each exiting 0
 * after computing the wrong thing: the worst kind of failure, a silent one.
 */
#include <cstdlib>
#include <string>

#include "frameworks/ess/base/base.h"

namespace tessera::orte::ess {

namespace {

const char *value_of(const char *name)
{
    const char *v = std::getenv(name);
    return v != nullptr && v[0] != '\0' ? v : nullptr;
}

/* A task count > 1, or 0 when the variable is absent or says 1 or is not a number. */
long tasks_in(const char *name)
{
    const char *v = value_of(name);
    if (v == nullptr) {
        return 0;
    }
    char *end = nullptr;
    long n = std::strtol(v, &end, 10);
    return end != v && *end == '\0' && n > 1 ? n : 0;
}

} // namespace

std::string unserved_launch()
{
    if (value_of("PMIX_RANK") != nullptr || value_of("PMIX_NAMESPACE") != nullptr) {
        return "this process was started by a PMIx server (PMIX_RANK/PMIX_NAMESPACE are set), but no ess component "
               "served it: the pmix component is not built (libpmix-dev was not found at build time), could not be "
               "loaded (see `tessera_info --show-failed`) or is excluded by the `ess` parameter";
    }
    /* srun sets SLURM_STEP_NUM_TASKS in a job step; SLURM_NTASKS alone is also set in an allocation's
     * shell (salloc, sbatch), where a program started by hand is rightly a singleton. */
    long tasks = tasks_in("SLURM_STEP_NUM_TASKS");
    if (tasks == 0 && (value_of("SLURM_STEP_ID") != nullptr || value_of("SLURM_STEPID") != nullptr)) {
        tasks = tasks_in("SLURM_NTASKS");
    }
    if (tasks > 1) {
        return "Slurm started " + std::to_string(tasks) +
               " tasks of this step but gave this process no PMI to find the others (no PMIX_RANK), so it would "
               "run as one of " + std::to_string(tasks) +
               " unrelated singletons: run it with `srun --mpi=pmix` (or MpiDefault=pmix in slurm.conf); to run "
               "independent singletons on purpose, set ess_singleton_ignore_launch=1";
    }
    return "";
}

} // namespace tessera::orte::ess
