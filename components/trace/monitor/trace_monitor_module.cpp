/* trace monitor: the module. Only sends are counted: a blocking one when it returned successfully
 * (send_done: the counting follows the message instead of delaying it), a nonblocking or persistent
 * one when it begins (isend — a send that is later cancelled is still counted); the other events are
 * not needed for a matrix of traffic. */
#include <memory>
#include <mutex>

#include <mpi.h>

#include "components/trace/monitor/trace_monitor.h"
#include "components/trace/monitor/trace_monitor_counts.h"
#include "components/trace/monitor/trace_monitor_dump.h"

namespace tessera::ompi::trace_monitor {
namespace {

struct State {
    explicit State(bool per_thread) : counter(per_thread) {}
    mca_trace_base_job_info_t job{};
    std::string hostname;
    Counter counter;
    std::mutex comms_mutex;
    std::map<uint64_t, CommInfo> comms;
};

std::unique_ptr<State> state;
mca_trace_base_module_t module_instance;

State &self(mca_trace_base_module_t *m) { return *static_cast<State *>(m->module_state); }

void on_comm_create(mca_trace_base_module_t *m, uint64_t comm_id, const char *name, int size, int,
                    const int *world_ranks)
{
    CommInfo info;
    info.name = name != nullptr ? name : "";
    info.size = size;
    if (world_ranks != nullptr && size > 0) {
        info.world_ranks.assign(world_ranks, world_ranks + size);
    }
    State &s = self(m);
    std::lock_guard lock(s.comms_mutex);
    s.comms[comm_id] = std::move(info);
}

void on_send(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int, uint64_t bytes)
{
    self(m).counter.count(comm_id, peer, bytes);
}

void on_isend(mca_trace_base_module_t *m, uint64_t comm_id, int peer, int, uint64_t bytes, uint64_t)
{
    self(m).counter.count(comm_id, peer, bytes);
}

int finalize(mca_trace_base_module_t *m)
{
    State &s = self(m);
    Report report;
    report.jobid = s.job.jobid;
    report.world_rank = s.job.world_rank;
    report.world_size = s.job.world_size;
    report.hostname = s.hostname;
    {
        std::lock_guard lock(s.comms_mutex);
        report.comms = s.comms;
    }
    report.sent = s.counter.totals();
    int rc = write_report(output_path(filename != nullptr ? filename : "", s.job.world_rank, s.job.world_size),
                          format_report(report));
    module_destroy();
    return rc;
}

} // namespace

mca_trace_base_module_t *module_create(const mca_trace_base_job_info_t &job)
{
    if (state) {
        return nullptr;
    }
    state = std::make_unique<State>(job.thread_level == MPI_THREAD_MULTIPLE);
    state->job = job;
    state->hostname = job.hostname != nullptr ? job.hostname : "";
    state->job.hostname = nullptr; /* the copy above is what we keep */
    module_instance = mca_trace_base_module_t{};
    module_instance.trace_component = &mca_trace_monitor_component;
    module_instance.hooks.comm_create = on_comm_create;
    module_instance.hooks.send_done = on_send;
    module_instance.hooks.isend = on_isend;
    module_instance.trace_finalize = finalize;
    module_instance.module_state = state.get();
    return &module_instance;
}

void module_destroy()
{
    module_instance.module_state = nullptr;
    state.reset();
}

} // namespace tessera::ompi::trace_monitor
