#include "ompi/pml/pml_request.h"

#include <cstring>

namespace tessera::ompi::pml {

namespace {

Request *free_list = nullptr;

} // namespace

Request *request_alloc()
{
    Request *r = free_list;
    if (r == nullptr) {
        return new Request{};
    }
    free_list = r->next;
    handle_open(r);
    /* Field by field: the pack buffer keeps its capacity, and nothing is zeroed twice. */
    r->mode = SendMode::Standard;
    r->complete = true;
    r->active = r->persistent = r->freed = r->matched = r->cancelled = r->rendezvous = r->exchange = false;
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
     * MPI_THREAD_MULTIPLE the list needs a lock, which then orders the two). Lookups only load; one racing with this store
     * completes the same request from two threads, which MPI forbids, and still reads a whole old or new
     * stamp. A request whose slot has used its last generation goes back to the pool, which retires the
     * slot, instead of to the list. */
    if (!handle_retire(r)) [[unlikely]] {
        delete r;
        return;
    }
    r->next = free_list;
    free_list = r;
}

void status_set_count(MPI_Status *s, std::size_t bytes)
{
    const auto v = static_cast<uint64_t>(bytes);
    s->MPI_internal[0] = static_cast<int>(static_cast<uint32_t>(v));
    s->MPI_internal[1] = static_cast<int>(static_cast<uint32_t>(v >> 32));
}

std::size_t status_count(const MPI_Status *s)
{
    return static_cast<std::size_t>(static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[0])) |
                                    (static_cast<uint64_t>(static_cast<uint32_t>(s->MPI_internal[1])) << 32));
}

void status_set_cancelled(MPI_Status *s, bool cancelled)
{
    s->MPI_internal[2] = cancelled ? 1 : 0;
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
