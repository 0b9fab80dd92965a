/*
 * Point-to-point requests: what MPI_Request handles point to (a user request handle is the address of
 * its object with the generation of its slot, runtime/user_handle.h; MPI_REQUEST_NULL is the ABI's
 * small constant). Objects come from a free list, so a message costs no allocation once the list is
 * warm; going back to the list moves the generation on, so that a copy of a completed request's handle
 * is refused (request_lookup) rather than taken for the request that reuses the object. The status
 * keeps the received byte count in MPI_internal[0..1] and the cancelled flag in MPI_internal[2].
 */
#ifndef TESSERA_OMPI_PML_PML_REQUEST_H
#define TESSERA_OMPI_PML_PML_REQUEST_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <mpi.h>

#include "frameworks/btl/base/base.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/runtime/user_handle.h"
#include "opal/threads.h"

namespace tessera::ompi::pml {

/* Coll: a non-blocking collective, completed by the work it owns (ompi/coll/coll_schedule.h), not by
 * the matching engine. Generalized: completed by the application (p2p_generalized.h); its work holds
 * the callbacks. */
enum class Kind : uint8_t { Send, Recv, Coll, Generalized };
enum class SendMode : uint8_t { Standard, Sync, Ready, Buffered /* persistent MPI_Bsend_init */ };

/*
 * Whether a request is complete, and whether the application let go of it (MPI_Request_free) before it
 * was: one atomic byte, so that the two events, which may happen in two threads at once, are ordered and
 * exactly one of them releases the request (docs/threads.md). Reads acquire and writes release, which
 * are plain loads and stores on x86 and cost nothing below MPI_THREAD_MULTIPLE; the read-modify-writes
 * that settle the race are taken only when opal::using_threads(). It reads and assigns like the bool it
 * replaced, so that code outside the engine that starts or polls requests is unchanged.
 */
class Completion {
public:
    static constexpr std::uint8_t kDone = 1, kFreed = 2;

    Completion(bool done = true) : bits_(done ? kDone : 0) {}
    Completion(const Completion &) = delete;
    Completion &operator=(const Completion &) = delete;

    operator bool() const { return (bits_.load(std::memory_order_acquire) & kDone) != 0; }
    /* Starting (false) or finishing a request that nobody else can see yet (true). */
    Completion &operator=(bool done)
    {
        bits_.store(done ? kDone : 0, std::memory_order_release);
        return *this;
    }
    bool freed() const { return (bits_.load(std::memory_order_acquire) & kFreed) != 0; }
    /* Marks the request done (finish) or let go of (abandon); returns the bits it had before. After
     * finish() returned without kFreed, a waiter may already have released the request. */
    std::uint8_t finish() { return set(kDone); }
    std::uint8_t abandon() { return set(kFreed); }

private:
    std::uint8_t set(std::uint8_t bit)
    {
        if (opal::using_threads()) {
            return bits_.fetch_or(bit, std::memory_order_acq_rel);
        }
        const std::uint8_t old = bits_.load(std::memory_order_relaxed);
        bits_.store(static_cast<std::uint8_t>(old | bit), std::memory_order_release);
        return old;
    }

    std::atomic<std::uint8_t> bits_;
};

/* A counter that another thread may change at once under MPI_THREAD_MULTIPLE (fragments a transport
 * still holds, children of a compound request): a locked add only then. add() returns the new value. */
class Counter {
public:
    Counter(int v = 0) : v_(v) {}
    Counter(const Counter &) = delete;
    Counter &operator=(const Counter &) = delete;

    operator int() const { return v_.load(std::memory_order_acquire); }
    Counter &operator=(int v)
    {
        v_.store(v, std::memory_order_relaxed);
        return *this;
    }
    int add(int d)
    {
        if (opal::using_threads()) {
            return v_.fetch_add(d, std::memory_order_acq_rel) + d;
        }
        const int v = v_.load(std::memory_order_relaxed) + d;
        v_.store(v, std::memory_order_relaxed);
        return v;
    }
    Counter &operator++()
    {
        add(1);
        return *this;
    }
    Counter &operator--()
    {
        add(-1);
        return *this;
    }

private:
    std::atomic<int> v_;
};

/* What a request of kind Coll runs: owned by the request, destroyed when it is released. */
struct RequestWork {
    virtual ~RequestWork() = default;
};

struct Request {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x52515354; /* "RQST" */
    static void *operator new(std::size_t size) { return handle_slot_new<Request>(size); }
    static void operator delete(void *object) { handle_slot_delete<Request>(object); }

    Kind kind = Kind::Send;
    SendMode mode = SendMode::Standard;
    Completion complete{true}; /* and whether MPI_Request_free let go of it while active */
    bool active = false;     /* started and not yet waited for (persistent requests go inactive) */
    bool persistent = false;
    bool matched = false;    /* receive: matched to a message; send: the receiver answered (CTS) */
    bool cancelled = false;
    bool rendezvous = false; /* send: RTS/CTS, data fragments striped */
    bool exchange = false;   /* send: its process receives in the same step (pml_single_copy) */

    /* The operation. */
    const void *sbuf = nullptr;
    void *rbuf = nullptr;
    std::size_t count = 0;
    const Datatype *type = nullptr;
    std::size_t bytes = 0;   /* packed size: count * type->size (send), capacity (receive) */
    Communicator *comm = nullptr;
    int peer = 0;            /* destination, or source (may be MPI_ANY_SOURCE) */
    int tag = 0;             /* may be MPI_ANY_TAG for a receive */
    MPI_Status status{};

    /* Protocol state. */
    tessera_proc_t *proc = nullptr;
    uint64_t remote = 0;     /* the peer's request id (send: the receiver's, from the CTS) */
    uint64_t address = 0;    /* send: the data's address, offered in the RTS for a single-copy get */
    std::size_t msg_bytes = 0; /* receive: the matched message's length */
    std::size_t scheduled = 0; /* send: bytes handed to the btl */
    std::size_t packed_upto = 0; /* send of a non-contiguous type by fragments: bytes of `packed` filled */
    std::size_t delivered = 0; /* receive: bytes unpacked */
    Counter in_flight{0};      /* send: fragments the btl still reads (its done callbacks may run in another
                                  thread's progress) */
    mca_btl_base_stripe_t stripe{};
    std::vector<char> packed;  /* send of a non-contiguous type: the packed message (rendezvous: filled
                                  fragment by fragment unless its address was offered for a single copy) */

    std::unique_ptr<RequestWork> work; /* Kind::Coll, Kind::Generalized */

    Request *parent = nullptr; /* a compound request (MPI_Isendrecv) this one completes into */
    Counter children{0};       /* compound: children still running (they may complete in two threads) */
    std::atomic<int> child_error{MPI_SUCCESS}; /* compound: a failed send child's error, merged by the last */
    Request *next = nullptr;   /* free list, posted queue */
    Request *prev = nullptr;   /* posted queue */
};

/* From the free list: under MPI_THREAD_MULTIPLE each thread keeps a cache of its own (pml_request_cache)
 * in front of the shared list, which a lock guards; below it the shared list alone, with no lock. */
Request *request_alloc();
/* Back to the free list (never for MPI_REQUEST_NULL); drops its use of the datatype and its work. */
void request_release(Request *r);

/* The request's datatype, held for as long as the request lives: a derived type freed by the
 * application meanwhile stays usable until then (MPI-4.1 5.1.10). */
void request_set_type(Request *r, const Datatype *type);
/* The request's communicator, held likewise: MPI_Comm_free leaves it (its context, its matching
 * state) until the operations pending on it are done (MPI-4.1 7.4.3). */
void request_set_comm(Request *r, Communicator *comm);

inline MPI_Request to_handle(Request *r)
{
    return user_handle<MPI_Request>(r);
}
/* The object of a user request handle that request_lookup accepted (nullptr for MPI_REQUEST_NULL). */
inline Request *from_handle(MPI_Request h)
{
    return h == MPI_REQUEST_NULL ? nullptr : user_address<Request>(h);
}
/* The live request of a handle, or nullptr: MPI_REQUEST_NULL, a completed and released request's
 * handle (or a copy of it), a made-up value. */
inline Request *request_lookup(MPI_Request h)
{
    return user_object<Request>(h);
}

/* What a request's error means, for the message of the handler it is raised on. */
const char *request_error_text(int error);

/* Status fields of the engine. */
inline void status_set_count(MPI_Status *s, std::size_t bytes) /* inline: every receive sets it */
{
    const auto v = static_cast<uint64_t>(bytes);
    s->MPI_internal[0] = static_cast<int>(static_cast<uint32_t>(v));
    s->MPI_internal[1] = static_cast<int>(static_cast<uint32_t>(v >> 32));
}
std::size_t status_count(const MPI_Status *s);
inline void status_set_cancelled(MPI_Status *s, bool cancelled)
{
    s->MPI_internal[2] = cancelled ? 1 : 0;
}
bool status_cancelled(const MPI_Status *s);
/* The status of a request that finished nothing (MPI_PROC_NULL, inactive persistent request). */
void status_empty(MPI_Status *s);

/* A status handed to the application by a call that completes one operation (MPI_Recv, MPI_Wait,
 * MPI_Probe, ...): every field but MPI_ERROR, which MPI sets only in the statuses of the calls that
 * complete several and fail with MPI_ERR_IN_STATUS (MPI-4.1 3.2.5); the application may keep a value
 * there. MPI_STATUS_IGNORE takes nothing. Inline: it is on the latency path. */
inline void status_deliver(MPI_Status *to, const MPI_Status &from)
{
    if (to != MPI_STATUS_IGNORE) {
        const int kept = to->MPI_ERROR;
        *to = from;
        to->MPI_ERROR = kept;
    }
}

/* status_empty() delivered the same way, with `source` (MPI_ANY_SOURCE, or MPI_PROC_NULL for a
 * communication with it). */
void status_deliver_empty(MPI_Status *to, int source);

} // namespace tessera::ompi::pml

#endif
