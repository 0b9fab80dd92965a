/*
 * When tracing runs (trace_feed.h): from the return of MPI_Init/MPI_Init_thread — the `trace`
 * parameter names the components — to the start of MPI_Finalize, when the modules write their output
 * while the library can still communicate. Under a runtime translator the native MPI_Init, which
 * opens the MPI layer's frameworks, never runs: the trace framework is opened here (a counted open, so
 * the native engine's own close is unaffected). Also the communicator entry points.
 */
#include <string>

#include "frameworks/trace/base/base.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "ompi/runtime/runtime.h"
#include "ompi/trace/trace_comms.h"
#include "ompi/trace/trace_exchange.h"
#include "ompi/trace/trace_feed.h"
#include "ompi/trace/trace_queries.h"
#include "ompi/trace/trace_requests.h"

using namespace tessera::ompi::trace;

namespace {

bool framework_opened = false;
std::string hostname; /* what job.hostname points to while tracing runs */

} // namespace

extern "C" {

void tessera_trace_after_init(int rc)
{
    if (rc != MPI_SUCCESS || framework_opened) {
        return;
    }
    if (tessera::mca::framework_register(&mca_trace_base_framework) != TESSERA_SUCCESS ||
        tessera::mca::framework_open(&mca_trace_base_framework) != TESSERA_SUCCESS) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "trace: the trace framework cannot be opened (see above); nothing is traced");
        return;
    }
    framework_opened = true;
    tessera::ompi::Runtime &rt = tessera::ompi::runtime();
    const bool native = tessera::ompi::mpi_initialized();
    use_native_statuses(native);
    hostname = native && !rt.launch.host.empty() ? rt.launch.host : tessera::ompi::host_name();
    mca_trace_base_job_info_t job{};
    job.jobid = native ? rt.launch.jobid : 0;
    job.world_rank = world_rank();
    job.world_size = world_size();
    job.hostname = hostname.c_str();
    job.allgather = allgather;
    job.thread_level = thread_level();
    requests().clear();
    int selected = TESSERA_SUCCESS;
    {
        CollectiveWindow window;
        selected = mca_trace_base_select(&job);
    }
    if (selected != TESSERA_SUCCESS || mca_trace_base_module_count == 0) {
        /* Nothing to trace: the bindings never take the traced path, and MPI_Finalize never comes here. */
        (void)mca_trace_base_finalize();
        (void)tessera::mca::framework_close(&mca_trace_base_framework);
        framework_opened = false;
        return;
    }
    comms().start();
}

void tessera_trace_before_finalize(void)
{
    if (!framework_opened) {
        return;
    }
    {
        CollectiveWindow window;
        (void)mca_trace_base_finalize(); /* modules report their own failures */
    }
    requests().clear();
    (void)tessera::mca::framework_close(&mca_trace_base_framework);
    framework_opened = false;
}

void tessera_trace_comm_created(int rc, MPI_Comm comm)
{
    /* Whatever the hooks: a handle the runtime used before gets a fresh id. */
    if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL) {
        comms().created(comm);
    }
}

void tessera_trace_comm_ended(int rc, MPI_Comm comm)
{
    if (rc == MPI_SUCCESS) {
        comms().ended(comm);
    }
}

void tessera_trace_comm_renamed(int rc, MPI_Comm comm)
{
    if (rc == MPI_SUCCESS && wants(MCA_TRACE_HOOK_COMM_CREATE)) {
        comms().renamed(comm);
    }
}

} // extern "C"
