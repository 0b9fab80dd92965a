/*
 * The numbers behind the performance variables: the counters the engine feeds while counting() (one
 * relaxed atomic add each, only then), the queue levels the matching engine keeps, the state slots
 * components set, and the JIT's compilations. Counters only grow; a pvar handle shows the difference
 * since it was started (mpit_pvar.cpp), so sessions do not disturb each other.
 */
#include <array>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>

#include "mca/framework.h"
#include "frameworks/btl/base/base.h"
#include "ompi/communicator/communicator.h"
#include "ompi/pml/pml.h"
#include "ompi/runtime/runtime.h"
#include "ompi/tool/mpit_feed.h"
#include "ompi/tool/mpit_pvar_defs.h"

namespace tessera::ompi::tool {

std::atomic<int> counters_started{0};
std::atomic<int> event_handles{0};

namespace {

/* More transports than any build has (self, shm, tcp): the per-transport pvars' elements. */
constexpr int kMaxTransports = 8;
constexpr int kMaxStates = 32;

struct Counters {
    /* Per peer: allocated once, sized by MPI_COMM_WORLD, before the first handle of such a pvar. */
    std::atomic<std::atomic<uint64_t> *> peer[kPeerCounters]{};
    std::atomic<int> peers{0};
    std::array<std::atomic<uint64_t>, kMaxTransports> btl[kBtlCounters]{};
    /* Names of the btl components, element order; written once before anything counts. */
    std::array<std::string, kMaxTransports> transport_names;
    std::atomic<int> transports{0};
    std::atomic<uint64_t> match_ns{0};
    std::array<std::atomic<int>, kMaxStates> states{};
    std::atomic<uint64_t> jit_count{0};
    std::atomic<uint64_t> jit_ns{0};
};

Counters &counters()
{
    static Counters c;
    return c;
}

/* State pvars components registered and the catalog has not taken in yet. */
struct PendingState {
    std::string name;
    std::string desc;
    std::string enum_cvar;
    int slot;
};
struct PendingStates {
    std::mutex mutex;
    std::map<std::string, int, std::less<>> slots; /* by name, for a component registered again */
    std::vector<PendingState> pending;
};

PendingStates &pending_states()
{
    static PendingStates p;
    return p;
}

void add(std::atomic<uint64_t> &c, uint64_t n)
{
    c.fetch_add(n, std::memory_order_relaxed);
}

int transport_of(const mca_btl_base_module_t *btl)
{
    Counters &c = counters();
    const char *name = btl->btl_component->base.mca_component_name;
    const int n = c.transports.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i) {
        if (c.transport_names[static_cast<size_t>(i)] == name) {
            return i;
        }
    }
    return -1;
}

void count_peer(const tessera_proc_t *proc, std::size_t bytes, PeerCounter messages, PeerCounter data)
{
    Counters &c = counters();
    const int rank = static_cast<int>(proc->proc_name.rank);
    if (rank < 0 || rank >= c.peers.load(std::memory_order_acquire)) {
        return;
    }
    add(c.peer[messages].load(std::memory_order_acquire)[rank], 1);
    add(c.peer[data].load(std::memory_order_acquire)[rank], bytes);
}

/* Allocates the per-peer counters on first need (after MPI_Init: the size of MPI_COMM_WORLD). */
int ensure_peers()
{
    Counters &c = counters();
    if (c.peers.load(std::memory_order_acquire) > 0) {
        return c.peers.load(std::memory_order_acquire);
    }
    const int n = static_cast<int>(runtime().world_procs.size());
    if (!mpi_initialized() || n <= 0) {
        return 0;
    }
    for (auto &slot : c.peer) {
        /* Lives as long as the process: a hook may be reading it when MPI_T ends. */
        auto *array = new std::atomic<uint64_t>[static_cast<size_t>(n)];
        for (int i = 0; i < n; ++i) {
            array[i].store(0, std::memory_order_relaxed);
        }
        slot.store(array, std::memory_order_release);
    }
    c.peers.store(n, std::memory_order_release);
    return n;
}

void add_def(std::string name, std::string desc, std::string category, int var_class, MPI_Datatype datatype,
             int level, int bind, bool readonly, bool continuous, Source source, int which)
{
    pvar_defs().push_back(PvarDef{std::move(name), std::move(desc), std::move(category), var_class, datatype,
                                  verbosity_of_level(level), bind, readonly, continuous, source, which, nullptr});
}

} // namespace

uint64_t clock_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

void count_message_sent(const tessera_proc_t *proc, std::size_t bytes)
{
    count_peer(proc, bytes, kMessagesSent, kBytesSent);
}

void count_message_received(const tessera_proc_t *proc, std::size_t bytes)
{
    count_peer(proc, bytes, kMessagesReceived, kBytesReceived);
}

void count_fragment(const mca_btl_base_module_t *btl, std::size_t bytes, bool stripe)
{
    const int t = transport_of(btl);
    if (t < 0) {
        return;
    }
    Counters &c = counters();
    add(c.btl[kBtlFragments][static_cast<size_t>(t)], 1);
    add(c.btl[kBtlBytes][static_cast<size_t>(t)], bytes);
    if (stripe) {
        add(c.btl[kStripeFragments][static_cast<size_t>(t)], 1);
    }
}

void count_match_time(uint64_t ns)
{
    add(counters().match_ns, ns);
}

std::vector<PvarDef> &pvar_defs()
{
    static std::vector<PvarDef> defs;
    static bool filled = false;
    if (!filled) {
        filled = true;
        const MPI_Datatype u64 = MPI_UNSIGNED_LONG_LONG;
        const char *per_peer = " (one element per rank of MPI_COMM_WORLD; counted while started)";
        const char *per_btl = " (one element per btl component, in the order of the categories under btl; "
                              "counted while started)";
        add_def("pml_messages_sent", std::string("Point-to-point messages sent to each rank") + per_peer, "pml",
                MPI_T_PVAR_CLASS_COUNTER, u64, 4, MPI_T_BIND_NO_OBJECT, false, false, Source::PeerCounter,
                kMessagesSent);
        add_def("pml_bytes_sent", std::string("Bytes of point-to-point messages sent to each rank") + per_peer,
                "pml", MPI_T_PVAR_CLASS_COUNTER, u64, 4, MPI_T_BIND_NO_OBJECT, false, false, Source::PeerCounter,
                kBytesSent);
        add_def("pml_messages_received",
                std::string("Point-to-point messages from each rank that reached matching") + per_peer, "pml",
                MPI_T_PVAR_CLASS_COUNTER, u64, 4, MPI_T_BIND_NO_OBJECT, false, false, Source::PeerCounter,
                kMessagesReceived);
        add_def("pml_bytes_received", std::string("Bytes of point-to-point messages from each rank") + per_peer,
                "pml", MPI_T_PVAR_CLASS_COUNTER, u64, 4, MPI_T_BIND_NO_OBJECT, false, false, Source::PeerCounter,
                kBytesReceived);
        add_def("btl_fragments_sent", std::string("Fragments (control and data) handed to each transport") + per_btl,
                "btl", MPI_T_PVAR_CLASS_COUNTER, u64, 5, MPI_T_BIND_NO_OBJECT, false, false, Source::BtlCounter,
                kBtlFragments);
        add_def("btl_bytes_sent", std::string("Bytes (headers included) handed to each transport") + per_btl,
                "btl", MPI_T_PVAR_CLASS_COUNTER, u64, 5, MPI_T_BIND_NO_OBJECT, false, false, Source::BtlCounter,
                kBtlBytes);
        add_def("pml_stripe_fragments",
                std::string("Data fragments of rendezvous messages striped onto each transport") + per_btl, "pml",
                MPI_T_PVAR_CLASS_COUNTER, u64, 5, MPI_T_BIND_NO_OBJECT, false, false, Source::BtlCounter,
                kStripeFragments);
        add_def("pml_match_time", "Seconds spent matching arriving messages against posted receives (counted "
                                  "while started)",
                "pml", MPI_T_PVAR_CLASS_TIMER, MPI_DOUBLE, 6, MPI_T_BIND_NO_OBJECT, false, false,
                Source::MatchTimer, 0);
        add_def("pml_unexpected_queue_length", "Messages waiting in the communicator's unexpected queue", "pml",
                MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG, 4, MPI_T_BIND_MPI_COMM, true, true,
                Source::QueueLevel, kUnexpectedLength);
        add_def("pml_unexpected_queue_highwatermark",
                "Most messages the communicator's unexpected queue has held at once", "pml",
                MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_UNSIGNED_LONG, 4, MPI_T_BIND_MPI_COMM, true, true,
                Source::QueueLevel, kUnexpectedHwm);
        add_def("pml_posted_queue_length", "Receives posted on the communicator and not matched yet", "pml",
                MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG, 4, MPI_T_BIND_MPI_COMM, true, true,
                Source::QueueLevel, kPostedLength);
        add_def("pml_posted_queue_highwatermark", "Most receives the communicator's posted queue has held at once",
                "pml", MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_UNSIGNED_LONG, 4, MPI_T_BIND_MPI_COMM, true, true,
                Source::QueueLevel, kPostedHwm);
        add_def("dte_jit_compilations", "Datatypes whose pack and unpack the JIT compiled", "dte_jit",
                MPI_T_PVAR_CLASS_COUNTER, u64, 5, MPI_T_BIND_NO_OBJECT, true, true, Source::JitCount, 0);
        add_def("dte_jit_compile_time", "Seconds the JIT spent compiling", "dte_jit", MPI_T_PVAR_CLASS_TIMER,
                MPI_DOUBLE, 5, MPI_T_BIND_NO_OBJECT, true, true, Source::JitTimer, 0);
    }
    return defs;
}

int transport_count()
{
    Counters &c = counters();
    if (c.transports.load(std::memory_order_acquire) == 0) {
        int n = 0;
        for (const mca::ComponentEntry &e : mca::framework_components(&mca_btl_base_framework)) {
            if (n < kMaxTransports) {
                c.transport_names[static_cast<size_t>(n++)] = e.component->mca_component_name;
            }
        }
        c.transports.store(n, std::memory_order_release);
    }
    return c.transports.load(std::memory_order_acquire);
}

int pvar_count(const PvarDef &def)
{
    switch (def.source) {
    case Source::PeerCounter: return ensure_peers();
    case Source::BtlCounter: return transport_count();
    default: return 1;
    }
}

int pvar_raw(const PvarDef &def, MPI_Comm comm, std::vector<uint64_t> &out)
{
    Counters &c = counters();
    out.clear();
    switch (def.source) {
    case Source::PeerCounter: {
        const int n = c.peers.load(std::memory_order_acquire);
        const std::atomic<uint64_t> *array = c.peer[def.which].load(std::memory_order_acquire);
        for (int i = 0; i < n; ++i) {
            out.push_back(array[i].load(std::memory_order_relaxed));
        }
        return MPI_SUCCESS;
    }
    case Source::BtlCounter:
        for (int i = 0; i < c.transports.load(std::memory_order_acquire); ++i) {
            out.push_back(c.btl[def.which][static_cast<size_t>(i)].load(std::memory_order_relaxed));
        }
        return MPI_SUCCESS;
    case Source::MatchTimer: out.push_back(c.match_ns.load(std::memory_order_relaxed)); return MPI_SUCCESS;
    case Source::JitCount: out.push_back(c.jit_count.load(std::memory_order_relaxed)); return MPI_SUCCESS;
    case Source::JitTimer: out.push_back(c.jit_ns.load(std::memory_order_relaxed)); return MPI_SUCCESS;
    case Source::StateSlot:
        out.push_back(static_cast<uint64_t>(c.states[static_cast<size_t>(def.which)].load(std::memory_order_relaxed)));
        return MPI_SUCCESS;
    case Source::QueueLevel: {
        Communicator *comm_obj = mpi_initialized() ? comm_lookup(comm) : nullptr;
        if (comm_obj == nullptr) {
            return MPI_T_ERR_INVALID_HANDLE; /* freed since the handle was made, or MPI has ended */
        }
        const pml::QueueLevels q = pml::queue_levels(*comm_obj);
        const std::size_t values[] = {q.unexpected, q.unexpected_hwm, q.posted, q.posted_hwm};
        out.push_back(values[def.which]);
        return MPI_SUCCESS;
    }
    }
    return MPI_T_ERR_INVALID;
}

void add_pending_states(Catalog &c)
{
    std::vector<PendingState> taken;
    {
        PendingStates &p = pending_states();
        std::lock_guard lock(p.mutex);
        taken.swap(p.pending);
    }
    for (PendingState &ps : taken) {
        PvarDef d{ps.name, ps.desc, "", MPI_T_PVAR_CLASS_STATE, MPI_INT, verbosity_of_level(5), MPI_T_BIND_NO_OBJECT,
                  true, true, Source::StateSlot, ps.slot, nullptr};
        if (std::optional<mca::VarInfo> v = mca::find_var(ps.enum_cvar); v && !v->enumerators.empty()) {
            d.enumtype = make_enum(c, v->full_name, v->enumerators);
            d.category = v->framework + (v->component.empty() ? "" : "_" + v->component);
        }
        pvar_defs().push_back(std::move(d));
    }
}

} // namespace tessera::ompi::tool

using namespace tessera::ompi::tool;

extern "C" int tessera_mpit_state_register(const char *name, const char *desc, const char *enum_cvar)
{
    /* Called while the framework core registers the component, holding its lock: only the pending
     * list's own mutex here, the catalog takes the state in (add_pending_states) under the MPI_T mutex. */
    PendingStates &p = pending_states();
    std::lock_guard lock(p.mutex);
    if (auto it = p.slots.find(name); it != p.slots.end()) {
        return it->second; /* the component registered again (a DSO reloaded) */
    }
    const int slot = static_cast<int>(p.slots.size());
    if (slot >= kMaxStates) {
        return -1;
    }
    p.slots.emplace(name, slot);
    p.pending.push_back({name, desc, enum_cvar, slot});
    return slot;
}

extern "C" void tessera_mpit_jit_compiled(double seconds, size_t bytes)
{
    Counters &c = counters();
    c.jit_count.fetch_add(1, std::memory_order_relaxed);
    c.jit_ns.fetch_add(static_cast<uint64_t>(seconds * 1e9), std::memory_order_relaxed);
    if (raising()) {
        raise_jit_compiled(seconds, bytes);
    }
}

extern "C" void tessera_mpit_state_set(int slot, int value)
{
    if (slot >= 0 && slot < kMaxStates) {
        counters().states[static_cast<size_t>(slot)].store(value, std::memory_order_relaxed);
    }
}
