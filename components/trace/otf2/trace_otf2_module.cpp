/*
 * trace otf2: the module. Every hook appends one record for this rank's event stream (location =
 * MPI_COMM_WORLD rank), stamped with the common clock, to a buffer of raw records (trace_otf2_raw.h)
 * that becomes OTF2 events when it is full and at finalize; under MPI_THREAD_MULTIPLE a mutex keeps
 * the stream's records whole and their times in order, and only the thread that initialized MPI records
 * regions: a location's regions must nest, and those of threads calling MPI at once would not (every
 * thread's messages are recorded). At finalize the rank writes its remaining events,
 * the ranks exchange their summaries (trace_otf2_summary.h), each writes the mapping of its ids to the
 * global ones and rank 0 the global definitions.
 */
#include <pthread.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <mpi.h>

#include "components/trace/otf2/trace_otf2.h"
#include "components/trace/otf2/trace_otf2_archive.h"
#include "components/trace/otf2/trace_otf2_global_defs.h"
#include "components/trace/otf2/trace_otf2_raw.h"
#include "components/trace/otf2/trace_otf2_summary.h"
#include "components/trace/otf2/trace_otf2_unify.h"
#include "mca/constants.h"
#include "mca/report.h"

namespace tessera::ompi::trace_otf2 {
namespace {

struct State {
    explicit State(size_t raw_bytes) : raw(raw_bytes) {}
    mca_trace_base_job_info_t job{};
    std::string hostname;
    std::string dir;
    Archive archive;
    RawBuffer raw; /* the hooks' records, not yet in the archive */
    bool locking = false;
    pthread_t main_thread{}; /* under MPI_THREAD_MULTIPLE, the one whose regions are recorded */
    std::mutex stream_mutex; /* the records, the clock range and the regions (when locking) */
    uint64_t first_time = 0;
    uint64_t last_time = 0;
    RawKind last_kind = RawKind::CollectiveBegin; /* of the last record (below MPI_THREAD_MULTIPLE) */
    std::vector<const char *> region_names; /* by function index; NULL: never entered */
    std::mutex comms_mutex;
    std::vector<CommSummary> comms;
    uint64_t max_comm_id = 0;
};

std::unique_ptr<State> state;
mca_trace_base_module_t module_instance;

State &self(mca_trace_base_module_t *m)
{
    return *static_cast<State *>(m->module_state);
}

/* Writes the buffered records into the archive. During the run (not at finalize) the time it took is
 * recorded as a buffer flush from `since`, the time of the record that filled the buffer: the
 * application stood still meanwhile. */
void flush_records(State &s, uint64_t since, bool during_run)
{
    if (s.first_time == 0 && s.raw.size() != 0) {
        s.first_time = s.raw.first().time;
    }
    s.archive.encode(s.raw);
    if (during_run) {
        const uint64_t until = std::max(s.archive.clock().now(), since);
        if (OTF2_EvtWriter *w = s.archive.events()) {
            (void)OTF2_EvtWriter_BufferFlush(w, nullptr, since, until);
        }
        s.last_time = until;
    }
}

/*
 * Whether a record of `kind` may take the time of the record before it, `previous`, instead of reading
 * the clock: the calls that follow one another within one MPI call without the runtime in between. An
 * event a call reports before it calls the runtime follows its Enter at once (the send of MPI_Send,
 * the isend or receive request of a nonblocking call or MPI_Start, a collective's begin); a blocking or
 * nonblocking receive is reported after the runtime returned, and only the Leave follows it. Within one
 * thread's stream only (below MPI_THREAD_MULTIPLE).
 */
bool same_moment(RawKind kind, RawKind previous)
{
    switch (kind) {
    case RawKind::Send:
    case RawKind::Isend:
    case RawKind::IrecvRequest:
    case RawKind::CollectiveBegin:
        return previous == RawKind::Enter;
    case RawKind::Leave:
        return previous == RawKind::Recv || previous == RawKind::Irecv;
    default:
        return false;
    }
}

/* One record appended: the stream held (when other threads may write), the time taken inside, never
 * backwards within the stream (even across a migration between cores). */
class Append {
public:
    Append(State &s, RawKind kind) : s_(s)
    {
        if (s_.locking) {
            s_.stream_mutex.lock();
        }
        const uint64_t time = !s_.locking && same_moment(kind, s_.last_kind)
                                  ? s_.last_time
                                  : std::max(s_.archive.clock().now(), s_.last_time);
        s_.last_kind = kind;
        s_.last_time = time;
        record = s_.raw.push();
        record->time = time;
        record->kind = kind;
    }
    ~Append()
    {
        if (s_.raw.full()) {
            flush_records(s_, record->time, true);
        }
        if (s_.locking) {
            s_.stream_mutex.unlock();
        }
    }
    Append(const Append &) = delete;
    Append &operator=(const Append &) = delete;

    RawRecord *record;

private:
    State &s_;
};

uint32_t comm_ref(uint64_t comm_id)
{
    return static_cast<OTF2_CommRef>(comm_id);
}

/* Whether the calling thread's regions go into the stream. */
bool records_regions(const State &s)
{
    return !s.locking || pthread_equal(pthread_self(), s.main_thread) != 0;
}

/*
 * The record the next event of the same call may join (trace_otf2_raw.h: the events of one call at one
 * time, one record): the last of this thread's stream when it is of `kind`, below MPI_THREAD_MULTIPLE
 * (where the stream is the calling thread's alone). NULL otherwise (the buffer was just encoded, or
 * other threads write): the event gets a record of its own, at the same time (same_moment).
 */
RawRecord *joinable(State &s, RawKind kind)
{
    return s.locking ? nullptr : s.raw.last_of(kind);
}

void on_region_enter(mca_trace_base_module_t *m, uint32_t function, const char *name)
{
    State &s = self(m);
    if (!records_regions(s)) {
        return;
    }
    Append r(s, RawKind::Enter);
    r.record->a = function;
    if (function >= s.region_names.size()) {
        s.region_names.resize(function + 1, nullptr);
    }
    if (s.region_names[function] == nullptr) {
        s.region_names[function] = name;
    }
}

void on_region_leave(mca_trace_base_module_t *m, uint32_t function, const char *)
{
    State &s = self(m);
    if (!records_regions(s)) {
        return;
    }
    if (RawRecord *recv = joinable(s, RawKind::Recv)) {
        recv->kind = RawKind::RecvLeave;
        recv->id = function;
        s.last_kind = RawKind::Leave;
        return;
    }
    Append r(s, RawKind::Leave);
    r.record->a = function;
}

void on_comm_create(mca_trace_base_module_t *m, uint64_t comm_id, const char *name, int size, int,
                    const int *world_ranks)
{
    CommSummary c;
    c.local_id = comm_id;
    c.name = name != nullptr ? name : "";
    if (world_ranks != nullptr && size > 0) {
        c.world_ranks.assign(world_ranks, world_ranks + size);
    }
    State &s = self(m);
    std::lock_guard lock(s.comms_mutex);
    s.max_comm_id = std::max(s.max_comm_id, comm_id);
    auto known = std::find_if(s.comms.begin(), s.comms.end(),
                              [comm_id](const CommSummary &k) { return k.local_id == comm_id; });
    if (known != s.comms.end()) {
        *known = std::move(c); /* named (MPI_Comm_set_name): same communicator, same place in the order */
    } else {
        s.comms.push_back(std::move(c));
    }
}

/* A point-to-point record: peer, tag, communicator, bytes and (nonblocking) the request id. */
void message(mca_trace_base_module_t *m, RawKind kind, uint64_t comm, int peer, int tag, uint64_t bytes,
             uint64_t id)
{
    Append r(self(m), kind);
    r.record->a = static_cast<uint32_t>(peer);
    r.record->b = static_cast<uint32_t>(tag);
    r.record->comm = comm_ref(comm);
    r.record->bytes = bytes;
    r.record->id = id;
}

/* A record naming only a request. */
void request(mca_trace_base_module_t *m, RawKind kind, uint64_t id)
{
    Append r(self(m), kind);
    r.record->id = id;
}

void on_send(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes)
{
    State &s = self(m);
    if (RawRecord *r = joinable(s, RawKind::Enter)) {
        r->kind = RawKind::EnterSend;
        r->id = r->a;
        r->a = static_cast<uint32_t>(peer);
        r->b = static_cast<uint32_t>(tag);
        r->comm = comm_ref(comm);
        r->bytes = bytes;
        s.last_kind = RawKind::Send;
        return;
    }
    message(m, RawKind::Send, comm, peer, tag, bytes, 0);
}

void on_isend(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes, uint64_t id)
{
    message(m, RawKind::Isend, comm, peer, tag, bytes, id);
}

void on_isend_complete(mca_trace_base_module_t *m, uint64_t id)
{
    request(m, RawKind::IsendComplete, id);
}

void on_irecv_request(mca_trace_base_module_t *m, uint64_t id)
{
    State &s = self(m);
    if (RawRecord *r = joinable(s, RawKind::Enter)) {
        r->kind = RawKind::EnterIrecvRequest;
        r->id = id;
        s.last_kind = RawKind::IrecvRequest;
        return;
    }
    request(m, RawKind::IrecvRequest, id);
}

void on_irecv(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes, uint64_t id)
{
    message(m, RawKind::Irecv, comm, peer, tag, bytes, id);
}

void on_recv(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes)
{
    message(m, RawKind::Recv, comm, peer, tag, bytes, 0);
}

void on_request_cancelled(mca_trace_base_module_t *m, uint64_t id)
{
    request(m, RawKind::RequestCancelled, id);
}

void on_collective_begin(mca_trace_base_module_t *m)
{
    State &s = self(m);
    if (RawRecord *r = joinable(s, RawKind::Enter)) {
        r->kind = RawKind::EnterCollectiveBegin;
        s.last_kind = RawKind::CollectiveBegin;
        return;
    }
    Append r(s, RawKind::CollectiveBegin);
}

void on_collective_end(mca_trace_base_module_t *m, mca_trace_base_collective_t op, uint64_t comm, int root,
                       uint64_t sent, uint64_t received)
{
    Append r(self(m), RawKind::CollectiveEnd);
    r.record->a = static_cast<uint32_t>(op);
    r.record->b = root < 0 ? OTF2_UNDEFINED_UINT32 : static_cast<uint32_t>(root);
    r.record->comm = comm_ref(comm);
    r.record->bytes = sent;
    r.record->id = received;
}

void report(const State &s, const std::string &what)
{
    tessera::mca::report(tessera::mca::Severity::Error,
                         "trace otf2: rank " + std::to_string(s.job.world_rank) + ": the archive '" + s.dir + "/" +
                             kArchiveName + ".otf2' (trace_otf2_dir) " + what);
}

RankSummary summarize(State &s, bool ok, uint64_t events)
{
    RankSummary mine;
    mine.rank = s.job.world_rank;
    mine.ok = ok;
    mine.host = s.hostname;
    mine.first_time = s.first_time;
    mine.last_time = std::max(s.last_time, s.archive.last_flush());
    mine.events = events;
    for (size_t i = 0; i < s.region_names.size(); ++i) {
        if (s.region_names[i] != nullptr) {
            mine.regions.emplace_back(static_cast<uint32_t>(i), s.region_names[i]);
        }
    }
    std::lock_guard lock(s.comms_mutex);
    mine.comms = s.comms;
    return mine;
}

/* Every rank's summary, by rank; false when the exchange failed or a summary is unreadable. */
bool exchange(const State &s, const RankSummary &mine, std::vector<RankSummary> *all)
{
    const std::vector<unsigned char> bytes = encode(mine);
    if (s.job.allgather == nullptr) {
        *all = {mine};
        return s.job.world_size == 1;
    }
    struct Gathered {
        std::vector<RankSummary> *all;
        bool ok = true;
    } g{all};
    all->assign(static_cast<size_t>(s.job.world_size), RankSummary{});
    auto deliver = [](void *ctx, int rank, const void *data, size_t size) {
        auto *gathered = static_cast<Gathered *>(ctx);
        auto summary = decode(static_cast<const unsigned char *>(data), size);
        if (!summary || rank < 0 || static_cast<size_t>(rank) >= gathered->all->size()) {
            gathered->ok = false;
            return;
        }
        (*gathered->all)[static_cast<size_t>(rank)] = std::move(*summary);
    };
    return s.job.allgather(bytes.data(), bytes.size(), deliver, &g) == TESSERA_SUCCESS && g.ok;
}

int finalize(mca_trace_base_module_t *m)
{
    State &s = self(m);
    flush_records(s, s.last_time, false);
    std::string why;
    uint64_t events = 0;
    const bool ok = s.archive.close_events(&events, &why);
    if (!ok) {
        report(s, "misses this rank's events: " + why);
    }
    std::vector<RankSummary> all;
    int rc = TESSERA_SUCCESS;
    if (!exchange(s, summarize(s, ok, events), &all)) {
        report(s, "is incomplete: the ranks could not exchange their definitions (a run that ends without "
                  "MPI_Finalize cannot)");
        rc = TESSERA_ERR_IO;
    } else {
        const Unified u = unify(all);
        const size_t me = static_cast<size_t>(s.job.world_rank);
        if (!s.archive.write_local_defs(u.comm_of[me], u.region_of_function, s.max_comm_id, &why)) {
            report(s, "misses this rank's definitions: " + why);
            rc = TESSERA_ERR_IO;
        }
        if (me == 0) {
            JobFacts facts;
            facts.jobid = s.job.jobid;
            facts.clock = &s.archive.clock();
            OTF2_GlobalDefWriter *g = s.archive.global_defs();
            const OTF2_ErrorCode written = g != nullptr ? write_global_defs(g, facts, all, u) : OTF2_ERROR_INVALID;
            if (written != OTF2_SUCCESS) {
                report(s, "has no global definitions: " + Archive::last_otf2_error());
                rc = TESSERA_ERR_IO;
            }
            for (const RankSummary &r : all) {
                if (!r.ok) {
                    report(s, "misses the events of rank " + std::to_string(r.rank) + " (see its message)");
                }
            }
        }
    }
    if (!s.archive.close(&why)) {
        report(s, "could not be closed: " + why);
        rc = TESSERA_ERR_IO;
    }
    module_destroy();
    return rc;
}

} // namespace

mca_trace_base_module_t *module_create(const mca_trace_base_job_info_t &job)
{
    if (state) {
        tessera::mca::report(tessera::mca::Severity::Error,
                             "trace otf2: already tracing for this process; a second module is not created");
        return nullptr;
    }
    auto s = std::make_unique<State>(params.record_buffer_size);
    s->job = job;
    s->hostname = job.hostname != nullptr ? job.hostname : "";
    s->job.hostname = s->hostname.c_str();
    s->dir = params.dir != nullptr ? params.dir : "";
    s->locking = job.thread_level == MPI_THREAD_MULTIPLE;
    s->main_thread = pthread_self(); /* trace_init runs in the thread that initialized MPI */
    std::string why;
    if (!s->archive.open(s->job, s->dir, params.buffer_size, params.clock == kClockMonotonic, &why)) {
        /* Every rank failed alike; rank 0 knows why and says it once for the job. */
        if (job.world_rank == 0) {
            tessera::mca::report(tessera::mca::Severity::Error,
                                 "trace otf2: cannot write the archive in '" + s->dir + "' (trace_otf2_dir): " + why +
                                     "; the run goes on without it");
        }
        return nullptr;
    }
    state = std::move(s);
    module_instance = mca_trace_base_module_t{};
    module_instance.trace_component = &mca_trace_otf2_component;
    mca_trace_base_hooks_t &h = module_instance.hooks;
    h.comm_create = on_comm_create;
    h.send = on_send;
    h.isend = on_isend;
    h.isend_complete = on_isend_complete;
    h.irecv_request = on_irecv_request;
    h.irecv = on_irecv;
    h.recv = on_recv;
    h.request_cancelled = on_request_cancelled;
    h.collective_begin = on_collective_begin;
    h.collective_end = on_collective_end;
    h.region_enter = on_region_enter;
    h.region_leave = on_region_leave;
    module_instance.trace_finalize = finalize;
    module_instance.module_state = state.get();
    return &module_instance;
}

void module_destroy()
{
    module_instance.module_state = nullptr;
    state.reset();
}

} // namespace tessera::ompi::trace_otf2
