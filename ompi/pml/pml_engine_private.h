/*
 * What the engine's files share and nothing outside them sees: the matching state of each
 * communicator, the queues of requests in progress, and the small helpers every message passes
 * through. The helpers are inline here because they were static in one file before the engine was
 * split by role, and the hot path must not pay a call for the split.
 *
 * Hidden: the state was in one file's anonymous namespace; with default visibility every access from a
 * shared library would go through the GOT, and every call through the PLT.
 */
#ifndef TESSERA_OMPI_PML_PML_ENGINE_PRIVATE_H
#define TESSERA_OMPI_PML_PML_ENGINE_PRIVATE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "ompi/datatype/convertor.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/pml/pml_queues.h"
#include "ompi/pml/pml_wire.h"
#include "opal/threads.h"

#pragma GCC visibility push(hidden)

namespace tessera::ompi::pml {

inline constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_PML;

/* The next sequence number to send to a peer: taken by any sending thread without a lock (the receiver
 * matches in sequence order whatever order the fragments arrive in, pml_recv_frag.cpp). Copyable for the
 * vector that holds it, which is sized once, before any thread sends. */
struct SendSeq {
    std::atomic<uint32_t> value{0};

    SendSeq() = default;
    SendSeq(const SendSeq &other) : value(other.value.load(std::memory_order_relaxed)) {}
    uint32_t take()
    {
        if (opal::using_threads()) {
            return value.fetch_add(1, std::memory_order_relaxed);
        }
        const uint32_t v = value.load(std::memory_order_relaxed);
        value.store(v + 1, std::memory_order_relaxed);
        return v;
    }
};

struct PeerState {
    SendSeq send_seq;
    uint32_t recv_seq = 0; /* CommState::lock */
    MessageList held;      /* CommState::lock: fragments ahead of recv_seq, by sequence number */
};

/* A communicator's matching state. Its lock guards the posted and unexpected queues, what is held per
 * peer and the pool of kept messages: threads on different communicators never meet on a lock
 * (docs/threads.md). Nothing that may take a btl's lock or the progress lock is called under it from an
 * application thread. */
struct CommState {
    Communicator *comm = nullptr;
    opal::SpinMutex lock; /* short sections: matching one fragment, posting one receive */
    RequestList posted;     /* receives in posting order */
    MessageList unexpected; /* in arrival order */
    std::vector<PeerState> peers;
    MessageList pool;       /* nodes of kept messages, reused (pml_queues.h) */
    /* The queues' highest lengths (MPI_T): one comparison where a message or receive is queued. */
    std::size_t unexpected_hwm = 0;
    std::size_t posted_hwm = 0;
};

/* Sequence numbers wrap: a is before b when the distance from b back to a is short. */
inline bool seq_before(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

/* A control fragment the btl could not take yet; sent in order by progress(). */
struct Pending {
    tessera_proc_t *proc;
    std::vector<char> header;
    const char *payload;
    std::size_t payload_len;
    Request *completes; /* an eager send completes once its fragment is taken */
};

/* The engine's state (pml_engine.cpp), and the lock that guards each part (docs/threads.md has the
 * order in which they are taken). */

/* The progress gate: the communicators by context id, and matching fragments for a context no
 * communicator of this process has yet: a peer may start using a new communicator as soon as its own
 * creation call returns, before this process has finished its own (comm_attach replays them). Matching
 * runs in a progress pass, so the look-up of each fragment takes no lock. */
extern std::vector<CommState *> states_by_context;
extern MessageList early;
extern MessageList early_pool;

/* queues_lock: the rendezvous protocol's queues and the control fragments waiting for a transport. Off
 * the eager path: a send looks at pending_any (one load) and takes the lock only when something waits. */
extern opal::Mutex queues_lock;
extern std::deque<Pending> pending;
extern std::atomic<bool> pending_any;   /* !pending.empty(), readable without the lock */
extern RequestList awaiting_cts;         /* rendezvous sends whose RTS is out */
extern RequestList receiving;            /* matched rendezvous receives waiting for their data */
extern std::vector<const tessera_proc_t *> finalizing_peers; /* whose FIN came: they receive nothing more */

/* The progress gate (one thread in progress() at a time): rendezvous sends moving their data, and the
 * progress hooks. */
extern RequestList active_sends;
extern std::vector<ProgressHook> progress_hooks;
extern bool running;

/* Holds the progress gate for a scope: waits for the thread in progress() to finish its pass, or does
 * nothing when this thread is that thread (a callback or a hook of its pass). For what must not run
 * while a pass does: attaching communicators, changing the hooks, failing a peer. Never taken while
 * holding a communicator's lock or queues_lock. */
class ProgressScope {
public:
    ProgressScope();
    ~ProgressScope();
    ProgressScope(const ProgressScope &) = delete;
    ProgressScope &operator=(const ProgressScope &) = delete;

private:
    bool entered_;
};

/* Whether this thread is making a progress pass (or no thread but this one runs MPI). */
bool progress_owned_here();

/* Releases a request that completed after the application let go of it. Under MPI_THREAD_MULTIPLE it
 * waits for the end of the current progress pass: releasing drops the request's communicator, whose
 * matching state the caller may be holding locked. */
void release_freed(Request *r);

/* A child of a compound request (MPI_Isendrecv) completes into its parent (pml_engine.cpp). */
void complete_child(Request *r);

/* Small enough to inline on the eager path; the compound case is out of line. */
inline void complete(Request *r)
{
    if (r->parent != nullptr) [[unlikely]] {
        complete_child(r);
        return;
    }
    /* From here a waiter in another thread may take and release r: nothing touches it after, unless the
     * application let go of it first (then nobody else can). */
    if ((r->complete.finish() & Completion::kFreed) != 0) [[unlikely]] {
        r->active = false;
        release_freed(r);
    }
}

/* complete() for a request only the calling thread can reach (Ownership::Owned): it cannot have been
 * freed, and a store publishes it. */
inline void complete_owned(Request *r)
{
    if (r->parent != nullptr) [[unlikely]] {
        complete_child(r);
        return;
    }
    r->complete = true;
}

inline void fail(Request *r, int code)
{
    r->status.MPI_ERROR = code;
    complete(r);
}

/* A send of a non-contiguous type: packs its message up to byte `end` (what is packed already stays). */
inline void pack_until(Request *s, std::size_t end)
{
    if (!s->type->contiguous && s->packed_upto < end) {
        convertor_pack(s->sbuf, s->count, *s->type, s->packed_upto, s->packed.data() + s->packed_upto,
                       end - s->packed_upto);
        s->packed_upto = end;
    }
}

/* MPI_ANY_TAG takes user tags only: the library's own traffic (negative tags, pml_internal.h) stays out
 * of reach of every wildcard receive and probe. */
inline bool tag_matches(int wanted, int tag)
{
    return wanted == tag || (wanted == MPI_ANY_TAG && tag >= 0);
}

inline bool matches(const Request *r, int source, int tag)
{
    return (r->peer == MPI_ANY_SOURCE || r->peer == source) && tag_matches(r->tag, tag);
}

/* The protocol state of a request that starts (again: persistent requests start many times). */
inline void restart(Request *r)
{
    r->complete = false;
    r->active = true;
    r->matched = false;
    r->cancelled = false;
    r->rendezvous = false;
    r->remote = 0;
    r->address = 0;
    r->msg_bytes = 0;
    r->scheduled = 0;
    r->packed_upto = 0;
    r->delivered = 0;
    r->in_flight = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    status_set_count(&r->status, 0);
    status_set_cancelled(&r->status, false);
}

/* Who may touch a request while a fragment is sent for it or delivered to it. Owned: only the calling
 * thread, as while a request starts (the application has no handle yet, or may not use it from another
 * thread during MPI_Start; no fragment of it is out), so counting and completing it need no locked
 * instruction. Shared: anything else (a queued fragment, a rendezvous, a posted receive matched in a
 * progress pass: a request another thread may wait on or free). */
enum class Ownership : bool { Shared, Owned };

/* pml_send.cpp: sends one control fragment on the peer's first module, behind any already waiting. */
int send_control(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
                 std::size_t payload_len, Request *completes, Ownership ownership = Ownership::Shared);
/* pml_send.cpp: what progress() drives; each returns how much it did. */
int progress_pending();
int progress_sends();
/* pml_send.cpp: the receiver matched a rendezvous send (or read its data itself). */
void on_cts(const CtsHeader &h);

/* pml_recv.cpp */
void deliver(Request *r, const MatchHeader &h, tessera_proc_t *proc, const char *data,
             Ownership ownership = Ownership::Shared);

/* pml_recv_frag.cpp: a matching fragment (EAGER or RTS), and the btl's receive callback. */
void on_match(const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len);
void on_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *);

/* pml_peer_failure.cpp: the btl's error callback, and the failures it left for the end of the current
 * progress pass (reported from a thread that was not making it). */
void on_peer_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int, const char *why, void *);
extern std::atomic<bool> failures_reported;
void handle_reported_failures();

} // namespace tessera::ompi::pml

#pragma GCC visibility pop

#endif
