/* The engine's life cycle and state: parameters, init/finalize, each communicator's matching state,
 * and the progress loop that drives the transports and the other files' queues (docs/p2p.md). */
#include "ompi/pml/pml_engine_private.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <cstdio>
#include <iterator>
#include <string>

#include "mca/report.h"
#include "ompi/pml/pml_contention.h"
#include "mca/var.h"
#include "mca/var_tool.h"
#include "ompi/pml/pml.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::pml {

Params params;
int idle_spins = Params{}.poll_spins;
bool oversubscribed = false;

std::vector<CommState *> states_by_context;
MessageList early;
MessageList early_pool;
opal::Mutex queues_lock;
std::deque<Pending> pending;
std::atomic<bool> pending_any{false};
RequestList awaiting_cts;
RequestList receiving;
std::vector<const tessera_proc_t *> finalizing_peers;
RequestList active_sends;
std::vector<ProgressHook> progress_hooks;
bool running = false;

namespace {

/* The progress gate: a spin lock (opal::Mutex's flag is checked by the callers already; letting go is a
 * store, where a mutex takes a read-modify-write) and the thread that holds it, so that a pass's
 * callbacks and hooks, which may progress or attach a communicator themselves, go through instead of
 * waiting for their own thread. */
opal::SpinLock progress_mutex;
std::atomic<pthread_t> progress_owner{};
/* Threads blocked in ProgressScope: a waiter holding the gate across its passes (WaitGate) lets go when
 * this is not zero, and no waiter takes it meanwhile. */
std::atomic<int> gate_wanted{0};

/* Requests the application let go of that completed during a pass (release_freed), released at its end;
 * queues_lock. */
Request *freed_done = nullptr;
std::atomic<bool> freed_any{false};

/* A waiter that found the gate taken: it pauses, and every idle_spins times it gives up the CPU,
 * whatever mpi_yield_when_idle says. The gate's holder is a thread of this process, which may be waiting
 * for this very core (threads outnumbering cores: a waiter that spins its whole time slice would delay
 * every completion by one); when it runs on a core of its own, sched_yield returns at once. */
void gate_busy()
{
    [[gnu::tls_model("initial-exec")]] constinit thread_local int busy = 0;
    opal::cpu_relax();
    if (++busy >= idle_spins) {
        busy = 0;
        sched_yield();
    }
}

bool owner_is_me()
{
    return pthread_equal(progress_owner.load(std::memory_order_relaxed), pthread_self()) != 0;
}

void enter_gate()
{
    progress_owner.store(pthread_self(), std::memory_order_relaxed);
}

void leave_gate()
{
    progress_owner.store(pthread_t{}, std::memory_order_relaxed);
    progress_mutex.unlock();
}

void release_freed_done()
{
    Request *list = nullptr;
    {
        opal::LockGuard lock(queues_lock);
        list = freed_done;
        freed_done = nullptr;
        freed_any.store(false, std::memory_order_relaxed);
    }
    while (list != nullptr) {
        Request *r = list;
        list = r->next;
        request_release(r);
    }
}

} // namespace

bool progress_owned_here()
{
    return !opal::using_threads() || owner_is_me();
}

ProgressScope::ProgressScope() : entered_(false)
{
    if (opal::using_threads() && !owner_is_me()) {
        gate_wanted.fetch_add(1, std::memory_order_relaxed);
        progress_mutex.lock();
        gate_wanted.fetch_sub(1, std::memory_order_relaxed);
        enter_gate();
        entered_ = true;
    }
}

ProgressScope::~ProgressScope()
{
    if (entered_) {
        leave_gate();
    }
}

void release_freed(Request *r)
{
    if (!opal::using_threads()) {
        request_release(r);
        return;
    }
    opal::LockGuard lock(queues_lock);
    r->next = freed_done;
    freed_done = r;
    freed_any.store(true, std::memory_order_relaxed);
}

namespace {

const mca_var_enum_value_t single_copy_values[] = {
    {kSingleCopyNever, "never"},
    {kSingleCopyExchange, "exchange"},
    {kSingleCopyAlways, "always"},
    {kSingleCopyAuto, "auto"},
    {0, nullptr},
};

const mca_var_enum_value_t yield_values[] = {
    {kYieldOff, "off"},
    {kYieldOn, "on"},
    {kYieldAuto, "auto"},
    {0, nullptr},
};

} // namespace

void comm_attach(Communicator &comm)
{
    auto *state = new CommState{};
    state->comm = &comm;
    state->peers.resize(comm.peers().size());
    comm.pml = state;
    /* Under the progress gate, as on_match always runs (in a pass): it reads the table and the early
     * fragments, and answering an RTS sends a CTS under this communicator's lock while a btl may hold its
     * own lock and wait for that one (btl tcp). */
    ProgressScope gate;
    if (states_by_context.size() <= comm.context_id) {
        states_by_context.resize(comm.context_id + 1, nullptr);
    }
    states_by_context[comm.context_id] = state;
    MessageList arrived;
    for (auto it = early.begin(); it != early.end();) {
        const auto next = std::next(it);
        if (it->header.context == comm.context_id && it->header.generation <= comm.generation) {
            arrived.splice(arrived.end(), early, it); /* an older generation's is dropped by on_match */
        }
        it = next;
    }
    while (!arrived.empty()) {
        const KeptMessage &m = arrived.front();
        on_match(m.header, m.proc, m.data.data(), m.data.size());
        drop_message(early_pool, arrived, arrived.begin());
    }
}

void comm_detach(Communicator &comm)
{
    auto *state = static_cast<CommState *>(comm.pml);
    if (state == nullptr) {
        return;
    }
    {
        /* No pass finds it from here on: passes read the table under the gate. */
        ProgressScope gate;
        if (comm.context_id < states_by_context.size() && states_by_context[comm.context_id] == state) {
            states_by_context[comm.context_id] = nullptr;
        }
    }
    delete state;
    comm.pml = nullptr;
}

int register_params()
{
    params = Params{};
    const mca_var_decl_t pml_vars[] = {
        {"eager_limit",
         "Largest message (bytes, header included) sent eagerly; larger ones use the rendezvous protocol. 0: each "
         "peer's first btl module decides (btl_*_eager_limit)",
         MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_4, &params.eager_limit},
        {"pipeline_depth", "Fragments of one large message the transports may hold at once (striping)",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.pipeline_depth},
        {"single_copy",
         "Which rendezvous sends a receiver reads in one copy (a btl with btl_get, e.g. shm's cross-memory attach) "
         "instead of receiving the data in fragments: auto (the default: contiguous messages of at least "
         "pml_single_copy_min bytes when the sender or the receiver waits for its CPU, pml_contention_threshold; "
         "streaming through a transport's buffers needs both processes running at once), always, never, or "
         "exchange (the sends of a collective step in which the sender also receives: each process then copies once "
         "instead of twice; machines with a fast cross-memory read gain from it)",
         MCA_VAR_TYPE_ENUM, single_copy_values, MCA_INFO_LVL_5, &params.single_copy},
        {"single_copy_min",
         "pml_single_copy=auto: smallest message (bytes) read in one copy when a process is contended; smaller "
         "ones stream (a read costs a system call and the sender's answer)",
         MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.single_copy_min},
        {"contention_threshold",
         "pml_single_copy=auto: a process counts as contended when, over the last pml_contention_window, it waited "
         "for a CPU (the kernel's run delay) at least this share of the time, or when this host's ranks outnumber "
         "its cores. 0: always contended; above 1: only when oversubscribed",
         MCA_VAR_TYPE_DOUBLE, nullptr, MCA_INFO_LVL_5, &params.contention_threshold},
        {"bsend_passes",
         "Progress passes a buffered send (MPI_Bsend, Ibsend, a started MPI_Bsend_init) that finds no room in the "
         "attached buffer makes before it fails with MPI_ERR_BUFFER, each giving back the space of the sends that "
         "completed; it stops sooner at a pass that finds nothing to do. 0: fail at once",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.bsend_passes},
        {"request_cache",
         "Requests each thread keeps for itself under MPI_THREAD_MULTIPLE, before it gives half of them back to "
         "the process's shared free list (whose lock is then taken once per that many)",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, &params.request_cache},
        {"contention_window",
         "pml_single_copy=auto: seconds over which the run delay is measured (a scheduler time slice is a few ms)",
         MCA_VAR_TYPE_DOUBLE, nullptr, MCA_INFO_LVL_6, &params.contention_window},
    };
    const mca_var_decl_t mpi_vars[] = {
        {"poll_spins",
         "Empty progress passes before a waiting process yields the CPU (sched_yield, see mpi_yield_when_idle)",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.poll_spins},
        {"poll_spins_oversubscribed",
         "Empty progress passes before a waiting process yields the CPU when this host's ranks outnumber its "
         "online cores (instead of mpi_poll_spins): a peer then waits for the core the spinning rank holds",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.poll_spins_oversubscribed},
        {"yield_when_idle",
         "Whether a waiting process yields the CPU after mpi_poll_spins empty passes: on, off (spin only), or "
         "auto (on when this host's ranks outnumber its online cores, or while this process waits for its CPU: "
         "mpi_yield_run_delay)",
         MCA_VAR_TYPE_ENUM, yield_values, MCA_INFO_LVL_5, &params.yield_when_idle},
        {"yield_run_delay",
         "mpi_yield_when_idle=auto: also yield while, over the last pml_contention_window, this process waited for a "
         "CPU (the kernel's run delay) at least this share of the time: another process wants its core. Above 1: "
         "never for this reason",
         MCA_VAR_TYPE_DOUBLE, nullptr, MCA_INFO_LVL_5, &params.yield_run_delay},
    };
    int rc = mca_var_register_table("pml", "", pml_vars, std::size(pml_vars), MCA_VAR_SCOPE_LOCAL);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }
    /* Read from params at each send, not copied when the engine starts: MPI_T may change them while MPI
     * runs (docs/mpi_t.md), and check_params refuses a value the engine cannot use. */
    for (const char *name : {"pml_eager_limit", "pml_single_copy", "pml_single_copy_min", "pml_bsend_passes"}) {
        const int index = mca_var_find(name);
        mca_var_add_flags(index, MCA_VAR_FLAG_RUNTIME);
        tessera::mca::set_runtime_check(index, [] { return check_params(params); });
    }
    return mca_var_register_table("mpi", "", mpi_vars, std::size(mpi_vars), MCA_VAR_SCOPE_LOCAL);
}

namespace {

std::string shortest(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

} // namespace

std::string check_params(const Params &p)
{
    using tessera::mca::bad_value;
    if (p.pipeline_depth < 1) {
        return bad_value("pml_pipeline_depth", std::to_string(p.pipeline_depth),
                         "must be at least 1 (fragments of one message in flight)");
    }
    if (p.request_cache < 1) {
        return bad_value("pml_request_cache", std::to_string(p.request_cache), "must be at least 1");
    }
    if (p.bsend_passes < 0) {
        return bad_value("pml_bsend_passes", std::to_string(p.bsend_passes), "must be 0 or more");
    }
    if (p.poll_spins < 0) {
        return bad_value("mpi_poll_spins", std::to_string(p.poll_spins), "must be 0 or more");
    }
    if (p.poll_spins_oversubscribed < 0) {
        return bad_value("mpi_poll_spins_oversubscribed", std::to_string(p.poll_spins_oversubscribed),
                         "must be 0 or more");
    }
    if (!(p.contention_threshold >= 0.0)) {
        return bad_value("pml_contention_threshold", shortest(p.contention_threshold),
                         "must be 0 or more (a share of the time)");
    }
    if (!(p.yield_run_delay >= 0.0)) {
        return bad_value("mpi_yield_run_delay", shortest(p.yield_run_delay), "must be 0 or more");
    }
    if (!(p.contention_window > 0.0 && p.contention_window <= 60.0)) {
        return bad_value("pml_contention_window", shortest(p.contention_window),
                         "must be more than 0 and at most 60 seconds");
    }
    if (p.eager_limit != 0 && p.eager_limit <= sizeof(MatchHeader)) {
        return bad_value("pml_eager_limit", std::to_string(p.eager_limit),
                         "must be 0 (the btl decides) or more than " + std::to_string(sizeof(MatchHeader)) +
                             " bytes (the header of an eager message)");
    }
    return "";
}

namespace {

/* One pass: the caller holds the progress gate (or runs MPI in one thread). */
int progress_pass()
{
    int events = mca_btl_base_progress();
    if (pending_any.load(std::memory_order_acquire)) {
        events += progress_pending();
    }
    if (!active_sends.empty()) {
        events += progress_sends();
    }
    /* By index: a hook may add or remove hooks (this thread holds the gate, so it may). */
    for (std::size_t i = 0; i < progress_hooks.size(); ++i) {
        events += progress_hooks[i]();
    }
    if (failures_reported.load(std::memory_order_acquire)) {
        handle_reported_failures();
    }
    if (freed_any.load(std::memory_order_relaxed)) {
        release_freed_done();
    }
    return events;
}

/* Under MPI_THREAD_MULTIPLE: a thread that finds the gate taken goes back to its own requests at once
 * rather than queueing for a pass that is being made for everybody; one pass of a wait of its own. */
[[gnu::noinline]] int progress_threaded()
{
    WaitGate gate;
    return gate.pass();
}

} // namespace

int WaitGate::pass()
{
    if (!opal::using_threads()) {
        return progress_pass();
    }
    if (held_) {
        if (gate_wanted.load(std::memory_order_relaxed) == 0) [[likely]] {
            return progress_pass();
        }
        let_go();
        gate_busy();
        return 0;
    }
    const pthread_t owner = progress_owner.load(std::memory_order_relaxed);
    if (pthread_equal(owner, pthread_self()) != 0) {
        return progress_pass(); /* a wait inside a callback or a hook of this thread's pass, which holds it */
    }
    if (owner != pthread_t{} || gate_wanted.load(std::memory_order_relaxed) != 0 || !progress_mutex.try_lock()) {
        gate_busy();
        return 0;
    }
    enter_gate();
    held_ = true;
    return progress_pass();
}

void WaitGate::let_go()
{
    held_ = false;
    leave_gate();
}

int progress()
{
    if (opal::using_threads()) {
        return progress_threaded();
    }
    return progress_pass();
}

int progress_whole_pass()
{
    const ProgressScope gate;
    return progress_pass();
}

/* Hooks change under the gate, so that a pass never sees a half-changed list and a hook removed here
 * runs no more once this returns (its module may go away then). From inside a pass (a hook removing
 * itself) the pass's own thread changes the list directly. */
void progress_hook_add(ProgressHook hook)
{
    ProgressScope gate;
    progress_hooks.push_back(hook);
}

void progress_hook_remove(ProgressHook hook)
{
    ProgressScope gate;
    std::erase(progress_hooks, hook);
}

void complete_child(Request *r)
{
    /* The receive's status is the parent's; a failed send shows as the parent's error when the receive
     * succeeded. The children may complete in two threads: each writes only its own part, and the last
     * one (acq_rel) merges them. */
    Request *parent = r->parent;
    if (r->kind == Kind::Recv) {
        parent->status = r->status;
    } else if (r->status.MPI_ERROR != MPI_SUCCESS) {
        parent->child_error.store(r->status.MPI_ERROR, std::memory_order_relaxed);
    }
    request_release(r);
    if (parent->children.add(-1) == 0) {
        const int error = parent->child_error.load(std::memory_order_relaxed);
        if (parent->status.MPI_ERROR == MPI_SUCCESS && error != MPI_SUCCESS) {
            parent->status.MPI_ERROR = error;
        }
        complete(parent);
    }
}

void complete_request(Request *r)
{
    complete(r);
}

std::atomic<int> waiting_threads{0};
int process_cpus = 1;

bool yield_wanted()
{
    if (opal::using_threads() && waiting_threads.load(std::memory_order_relaxed) > process_cpus) {
        return true;
    }
    return params.yield_when_idle == kYieldOn ||
           (params.yield_when_idle == kYieldAuto && (oversubscribed || run_delay_share() >= params.yield_run_delay));
}

void yield_cpu()
{
    if (yield_wanted()) {
        sched_yield();
    }
}

void wait_for(Request *r)
{
    wait_until([r] { return static_cast<bool>(r->complete); });
}

void fail_request(Request *r, int code)
{
    fail(r, code);
}

void adopt(Request *parent, Request *child)
{
    child->parent = parent;
    ++parent->children;
    parent->complete = false;
    parent->active = true;
}

int init()
{
    if (const std::string problem = check_params(params); !problem.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, problem);
        return MPI_ERR_ARG;
    }
    Runtime &rt = runtime();
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    oversubscribed = cores < 1 || rt.launch.local_size > cores;
    cpu_set_t allowed;
    process_cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : static_cast<int>(cores);
    process_cpus = process_cpus < 1 ? 1 : process_cpus;
    idle_spins = oversubscribed ? params.poll_spins_oversubscribed : params.poll_spins;
    contention_init();
    Communicator &world = comm_world();
    Communicator &self = comm_self();
    world.procs = rt.world_procs;
    self.procs = {rt.world_procs[static_cast<std::size_t>(rt.launch.rank)]};
    comm_attach(world);
    comm_attach(self);
    if (mca_btl_base_register_recv(kTag, on_fragment, nullptr) != TESSERA_SUCCESS) {
        return MPI_ERR_INTERN;
    }
    mca_btl_base_register_error(on_peer_error, nullptr);
    running = true;
    return MPI_SUCCESS;
}

void finalize()
{
    if (!running) {
        return;
    }
    mca_btl_base_register_recv(kTag, nullptr, nullptr);
    mca_btl_base_register_error(nullptr, nullptr);
    comm_detach(comm_world());
    comm_detach(comm_self());
    release_freed_done();
    states_by_context.clear();
    finalizing_peers.clear();
    early.clear();
    early_pool.clear();
    contention_finalize();
    running = false;
}

} // namespace tessera::ompi::pml
