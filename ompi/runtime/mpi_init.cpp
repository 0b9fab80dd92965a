/*
 * MPI_Init and MPI_Init_thread (MPI-4.1 11.2.1), and the queries about the life cycle. The start-up
 * sequence of a rank:
 *   1. mpirun's --mca and --tune settings, given the "command line" source as in mpirun itself;
 *   2. parameter files and TESSERA_MCA_* environment; every framework registered (so that misspelled
 *      names can be told apart from real ones);
 *   3. who the process is: the ess framework (frameworks/ess/ess.h) chooses the component for its
 *      launcher (our mpirun, a PMIx server, none: a singleton), which connects to it;
 *   4. the MPI layer's frameworks opened; binding to the PUs mpirun chose (TESSERA_BIND);
 *   5. wire-up (wire_up.h): start the btl components (which put their business cards), put this
 *      rank's card, fence through the ess module, create every rank's proc, give the procs to the btl
 *      modules, start the point-to-point engine.
 * Any failure is raised on MPI_COMM_SELF, whose handler is MPI_ERRORS_ARE_FATAL at this point: the
 * message is printed and the job ends (MPI-4.1 9.3: MPI_Init's errors are raised on MPI_COMM_SELF).
 */
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "frameworks/ess/base/base.h"
#include "mca/var_store.h"
#include "ompi/ompi_frameworks.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/async_progress.h"
#include "ompi/runtime/launcher_settings.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"
#include "ompi/runtime/runtime_frameworks.h"
#include "ompi/runtime/wire_up.h"
#include "opal/binding.h"
#include "opal/threads.h"

namespace tessera::ompi {

namespace {

int fail(const char *function, int code, const std::string &detail)
{
    return raise_error(ObjectKind::Comm, MPI_COMM_SELF, code, function, detail);
}

int initialize(const char *function, int required, int *provided)
{
    Runtime &rt = runtime();
    Phase expected = Phase::NotInitialized;
    if (!mpi_phase.compare_exchange_strong(expected, Phase::Initializing)) {
        return fail(function, MPI_ERR_OTHER,
                    expected == Phase::Finalized
                        ? "MPI cannot be initialized again after MPI_Finalize"
                        : "MPI is already initialized (MPI_Init or MPI_Init_thread may be called only once)");
    }

    /* Usually applied already by the translator's selection at the first MPI call. */
    if (std::string bad = apply_launcher_settings(); !bad.empty()) {
        return fail(function, MPI_ERR_OTHER, bad);
    }
    /* The parameters first: they choose the ess component and configure it. */
    mca::load_sources();
    register_frameworks();

    std::string error;
    auto launch = orte::ess::start(&error);
    if (!launch) {
        return fail(function, MPI_ERR_OTHER, error);
    }
    rt.launch = std::move(*launch);
    /* The key is the library's from here on (rt.launch): a process the application starts must not
     * inherit it, or any program it runs could join the job's transports. */
    unsetenv(orte::kEnvJobKey);
    if (rt.launch.host.empty()) {
        rt.launch.host = host_name();
    }
    comm_init_predefined(rt.launch.rank, rt.launch.size);

    /* Every rank gets the same settings, so only rank 0 warns about unknown names: N copies of each
     * warning would bury it. */
    std::string mca_error = open_runtime_frameworks(rt.launch.rank == 0);
    if (!mca_error.empty()) {
        return fail(function, MPI_ERR_OTHER, mca_error);
    }

    if (!rt.launch.bind.empty() && rt.launch.bind != "none") {
        if (opal::bind_to_pus(rt.launch.bind, &error) != 0) {
            return fail(function, MPI_ERR_OTHER, "cannot bind to the PUs " + rt.launch.bind + " mpirun chose: " + error);
        }
    }

    rt.thread_requested = required;
    rt.thread_provided = required < max_thread_level() ? required : max_thread_level();
    if (std::string bad = async_progress::check_params(async_progress::params); !bad.empty()) {
        return fail(function, MPI_ERR_OTHER, bad);
    }
    /* The engine and the btls lock when anything runs MPI from several threads: MULTIPLE, or a progress
     * thread calling into the engine while the application does. */
    opal::set_using_threads(rt.thread_provided == MPI_THREAD_MULTIPLE || async_progress::params.enabled);
    if (std::string problem = wire_up(opal::using_threads()); !problem.empty()) {
        return fail(function, MPI_ERR_OTHER, problem);
    }
    if (async_progress::params.enabled) {
        if (std::string problem = async_progress::start(); !problem.empty()) {
            return fail(function, MPI_ERR_OTHER, problem);
        }
    }

    rt.main_thread = std::this_thread::get_id();
    if (provided != nullptr) {
        *provided = rt.thread_provided;
    }
    mpi_phase.store(Phase::Initialized, std::memory_order_release);
    info_env_refresh(); /* now with the job's size, hosts and thread level */
    return MPI_SUCCESS;
}

bool is_thread_level(int level)
{
    return level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED || level == MPI_THREAD_SERIALIZED ||
           level == MPI_THREAD_MULTIPLE;
}

} // namespace

namespace native {

int init(int *argc, char ***argv)
{
    /* Tessera takes no options from the application's command line: mpirun passes its settings in
     * the environment, so argc and argv are left as they are. */
    (void)argc;
    (void)argv;
    return initialize("MPI_Init", MPI_THREAD_SINGLE, nullptr);
}

int init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (!is_thread_level(required)) {
        return fail("MPI_Init_thread", MPI_ERR_ARG,
                    "required = " + std::to_string(required) +
                        " is not MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED or _MULTIPLE");
    }
    return initialize("MPI_Init_thread", required, provided);
}

int initialized(int *flag)
{
    Phase p = mpi_phase.load(std::memory_order_acquire);
    *flag = p == Phase::Initialized || p == Phase::Finalized;
    return MPI_SUCCESS;
}

int finalized(int *flag)
{
    *flag = mpi_phase.load(std::memory_order_acquire) == Phase::Finalized;
    return MPI_SUCCESS;
}

int query_thread(int *provided)
{
    if (int rc = require_initialized(MPI_COMM_SELF, "MPI_Query_thread"); rc != MPI_SUCCESS) {
        return rc;
    }
    *provided = runtime().thread_provided;
    return MPI_SUCCESS;
}

int is_thread_main(int *flag)
{
    if (int rc = require_initialized(MPI_COMM_SELF, "MPI_Is_thread_main"); rc != MPI_SUCCESS) {
        return rc;
    }
    *flag = std::this_thread::get_id() == runtime().main_thread;
    return MPI_SUCCESS;
}

} // namespace native

} // namespace tessera::ompi
