#include "ompi/pml/pml_request.h"

#include <cstring>
#include <mutex>

#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::pml {

namespace {

/* The shared list: the only one below MPI_THREAD_MULTIPLE (no lock then); under it, what the threads'
 * caches overflow into and refill from, behind free_lock. A lock, not a lock-free stack: a pop that
 * reads a node's next pointer while another thread pops and pushes the node back (ABA) would need tagged
 * pointers, and the lock is taken once per pml_request_cache / 2 requests, not per message. */
Request *free_list = nullptr;
opal::Mutex free_lock;

/* A thread's own requests: most threads release what they allocated (MPI_Wait), so this is where the
 * requests of the 8-byte path come from and go to, with no lock and no shared cache line. Trivially
 * destructible and initial-exec, so that reaching it is one thread-pointer-relative access, not a
 * __tls_get_addr call and a guard check per request (libmpi is loaded with the program, or early
 * enough by an interpreter, for the static TLS it takes). */
struct Cache {
    Request *head = nullptr;
    int count = 0;
    bool armed = false; /* cache_return is registered for this thread's exit */
};
[[gnu::tls_model("initial-exec")]] constinit thread_local Cache cache;

/* When a thread that kept requests ends, they go back to the shared list for the others. */
struct CacheReturn {
    ~CacheReturn()
    {
        Cache &c = cache;
        while (c.head != nullptr) {
            Request *r = c.head;
            c.head = r->next;
            std::lock_guard lock(free_lock);
            r->next = free_list;
            free_list = r;
        }
        c.count = 0;
    }
};
thread_local CacheReturn cache_return;

/* The first time a thread keeps a request: registers the return at its exit (touching cache_return
 * constructs it, which is what registers its destructor). */
[[gnu::noinline, gnu::cold]] void arm(Cache &c)
{
    c.armed = true;
    static_cast<void>(&cache_return);
}

/* Half the cache's size at a time between the cache and the shared list, so that a thread that
 * allocates (or releases) steadily takes the lock once per that many requests. */
int batch()
{
    return params.request_cache > 1 ? params.request_cache / 2 : 1;
}

[[gnu::noinline]] Request *take_threaded()
{
    Cache &c = cache;
    if (c.head == nullptr) {
        if (!c.armed) {
            arm(c);
        }
        std::lock_guard lock(free_lock);
        for (int n = batch(); n > 0 && free_list != nullptr; --n) {
            Request *r = free_list;
            free_list = r->next;
            r->next = c.head;
            c.head = r;
            ++c.count;
        }
    }
    Request *r = c.head;
    if (r != nullptr) {
        c.head = r->next;
        --c.count;
    }
    return r;
}

[[gnu::noinline]] void give_threaded(Request *r)
{
    Cache &c = cache;
    if (!c.armed) {
        arm(c);
    }
    r->next = c.head;
    c.head = r;
    if (++c.count <= params.request_cache) {
        return;
    }
    std::lock_guard lock(free_lock);
    for (int n = batch(); n > 0 && c.head != nullptr; --n) {
        Request *q = c.head;
        c.head = q->next;
        --c.count;
        q->next = free_list;
        free_list = q;
    }
}

} // namespace

Request *request_alloc()
{
    Request *r = nullptr;
    if (opal::using_threads()) {
        r = take_threaded();
    } else if (free_list != nullptr) {
        r = free_list;
        free_list = r->next;
    }
    if (r == nullptr) {
        return new Request{};
    }
    handle_open(r);
    /* Field by field: the pack buffer keeps its capacity, and nothing is zeroed twice. */
    r->mode = SendMode::Standard;
    r->complete = true;
    r->active = r->persistent = r->matched = r->cancelled = r->rendezvous = r->exchange = false;
    r->sbuf = nullptr;
    r->rbuf = nullptr;
    r->count = r->bytes = r->msg_bytes = r->scheduled = r->delivered = 0;
    r->type = nullptr;
    r->comm = nullptr;
    r->peer = r->tag = 0;
    r->status = MPI_Status{};
    r->proc = nullptr;
    r->remote = 0;
    r->address = 0;
    r->in_flight = 0;
    r->packed.clear();
    r->kind = Kind::Send;
    r->parent = nullptr;
    r->children = 0;
    r->child_error.store(MPI_SUCCESS, std::memory_order_relaxed);
    r->next = r->prev = nullptr;
    return r;
}

void request_set_type(Request *r, const Datatype *type)
{
    datatype_retain(type);
    datatype_release(r->type);
    r->type = type;
}

void request_set_comm(Request *r, Communicator *comm)
{
    if (comm != nullptr) {
        comm_retain(comm);
    }
    if (r->comm != nullptr) {
        comm_release(r->comm);
    }
    r->comm = comm;
}

const char *request_error_text(int error)
{
    switch (error) {
    case MPI_ERR_TRUNCATE:
        return "the message is longer than the receive buffer";
    case MPI_ERR_TYPE:
        return "the message ends inside a basic element of the receive datatype: the type signatures of the "
               "send and the receive do not match";
    case MPI_ERR_IN_STATUS:
        return "a request failed: its status's MPI_ERROR says why";
    default:
        return "the operation failed";
    }
}

void request_release(Request *r)
{
    datatype_release(r->type);
    r->type = nullptr;
    if (r->comm != nullptr) {
        comm_release(r->comm);
        r->comm = nullptr;
    }
    r->work.reset();
    /* The application's handle of it, and its copies, are stale from now on. A plain load and
     * store-release, no atomic read-modify-write: a request's stamp has one writer at a time, the thread
     * that owns the request (releasing it here, or taking it from the free list; under
     * MPI_THREAD_MULTIPLE a thread's cache is its own, and the shared list's lock orders a hand-over).
     * Lookups only load; one racing with this store completes the same request from two threads, which
     * MPI forbids, and still reads a whole old or new stamp. A request whose slot has used its last
     * generation goes back to the pool, which retires the slot, instead of to a list. */
    if (!handle_retire(r)) [[unlikely]] {
        delete r;
        return;
    }
    if (opal::using_threads()) {
        give_threaded(r);
        return;
    }
    r->next = free_list;
    free_list = r;
}

std::size_t status_count(const MPI_Status *s)
{
    return static_cast<std::size_t>(static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[0])) |
                                    (static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[1])) << 32));
}

bool status_cancelled(const MPI_Status *s)
{
    return s->MPI_internal[2] != 0;
}

void status_empty(MPI_Status *s)
{
    std::memset(s, 0, sizeof *s);
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
}

void status_deliver_empty(MPI_Status *to, int source)
{
    MPI_Status empty;
    status_empty(&empty);
    empty.MPI_SOURCE = source;
    status_deliver(to, empty);
}

} // namespace tessera::ompi::pml
