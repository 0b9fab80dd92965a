/* Buffered sends (MPI-4.1 3.6): the message is copied into the buffer the application attached and sent
 * from there; the call returns at once. Space is taken first-fit in the buffer and given back when the
 * send from it completes; a message that does not fit is MPI_ERR_BUFFER — but only after the engine has
 * handled what arrived: a send whose message the receiver has taken completes in this process's progress
 * (the receiver's answer, the transport's release of the last fragment), and an application that sends
 * again before calling anything that progresses would otherwise find the space of a delivered message
 * still taken (as Open MPI and MPICH do, the engine is progressed before the call fails).
 *
 * A message takes exactly its packed size + MPI_BSEND_OVERHEAD of the buffer, the standard's own
 * accounting (MPI-4.1 3.6.1): applications size the buffer as the sum of that over the messages pending
 * at once, whatever its alignment. Everything the implementation adds must therefore come out of the
 * overhead: the bookkeeping lives outside the buffer, and the copy starts at the first aligned address
 * of its piece. */
#include "ompi/pml/p2p_functions.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <string>

#include "ompi/datatype/convertor.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/p2p_checks.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/runtime/runtime.h"
#include "opal/threads.h"

namespace tessera::ompi::native {

namespace {

struct Piece {
    std::size_t offset;
    std::size_t size;     /* bytes of the buffer taken: the message + MPI_BSEND_OVERHEAD */
    pml::Request *send;
};

struct Attached {
    void *original = nullptr; /* what MPI_Buffer_detach gives back */
    int original_size = 0;
    char *base = nullptr;
    std::size_t size = 0;
    std::list<Piece> pieces; /* by offset */
};

/* Guards `attached`: MPI_Bsend from several threads shares the one buffer. Taken by application threads
 * only (never in a progress pass), before a send's locks. */
opal::Mutex attached_lock;
Attached attached;

/* Gives back the space of buffered sends that completed. */
void reap()
{
    for (auto it = attached.pieces.begin(); it != attached.pieces.end();) {
        if (it->send->complete) {
            pml::request_release(it->send);
            it = attached.pieces.erase(it);
        } else {
            ++it;
        }
    }
}

/* First fit; the list position to insert at in *where. */
bool find_space(std::size_t need, std::size_t *offset, std::list<Piece>::iterator *where)
{
    std::size_t at = 0;
    for (auto it = attached.pieces.begin(); it != attached.pieces.end(); ++it) {
        if (it->offset - at >= need) {
            *offset = at;
            *where = it;
            return true;
        }
        at = it->offset + it->size;
    }
    if (attached.size - at >= need) {
        *offset = at;
        *where = attached.pieces.end();
        return true;
    }
    return false;
}

/* No room: whole progress passes (attached_lock let go: a pass completes the pieces' sends), each followed
 * by giving back what completed, until the message fits, or a pass finds nothing to do and frees nothing
 * (what is left waits for a receiver), or pml_bsend_passes passes. */
bool make_room(std::unique_lock<opal::Mutex> &lock, std::size_t need, std::size_t *offset,
               std::list<Piece>::iterator *where)
{
    for (int pass = 0; pass < pml::params.bsend_passes && !attached.pieces.empty(); ++pass) {
        lock.unlock();
        const int events = pml::progress_whole_pass();
        lock.lock();
        const std::size_t before = attached.pieces.size();
        reap();
        if (find_space(need, offset, where)) {
            return true;
        }
        if (events == 0 && attached.pieces.size() == before) {
            return false;
        }
    }
    return false;
}

constexpr std::size_t kAlign = 16;

/* The copy starts at most kAlign - 1 bytes into its piece: the overhead pays for the alignment. */
static_assert(kAlign - 1 <= MPI_BSEND_OVERHEAD);

/* Copies the message into the attached buffer and starts sending it from there. */
int enqueue(const char *function, MPI_Comm comm, Communicator *communicator, const void *buf, std::size_t count,
            const Datatype *type, int dest, int tag)
{
    std::unique_lock lock(attached_lock);
    reap();
    const std::size_t bytes = count * type->size;
    const std::size_t need = bytes + MPI_BSEND_OVERHEAD;
    std::size_t offset = 0;
    std::list<Piece>::iterator where;
    if (attached.base == nullptr || (!find_space(need, &offset, &where) && !make_room(lock, need, &offset, &where))) {
        const std::string why = attached.base == nullptr
                                    ? "no buffer is attached (MPI_Buffer_attach)"
                                    : "the attached buffer of " + std::to_string(attached.original_size) +
                                          " bytes has no room for a message of " + std::to_string(bytes) +
                                          " bytes (each pending message needs its size + MPI_BSEND_OVERHEAD)";
        lock.unlock(); /* the handler may be the application's */
        return raise_on_comm(comm, MPI_ERR_BUFFER, function, why);
    }
    const auto at = reinterpret_cast<std::uintptr_t>(attached.base + offset);
    char *copy = attached.base + offset + (kAlign - at % kAlign) % kAlign;
    convertor_pack(buf, count, *type, 0, copy, bytes);
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Send;
    r->sbuf = copy;
    r->count = bytes;
    pml::request_set_type(r, datatype_lookup(MPI_BYTE));
    pml::request_set_comm(r, communicator);
    r->peer = dest;
    r->tag = tag;
    if (int rc = pml::start_send(r); rc != MPI_SUCCESS) {
        pml::request_release(r);
        lock.unlock();
        return raise_on_comm(comm, rc, function, "rank " + std::to_string(dest) + " cannot be reached");
    }
    attached.pieces.insert(where, Piece{offset, need, r});
    return MPI_SUCCESS;
}

int start_buffered(const char *function, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm)
{
    pml::Checked c;
    if (int rc = pml::check_args(function, comm, dest, tag, pml::Role::Send, datatype, buf,
                                 static_cast<std::size_t>(count), &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (dest == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    return enqueue(function, comm, c.comm, buf, static_cast<std::size_t>(count), c.type, dest, tag);
}

/* The application's request of MPI_Ibsend: complete at once, the message being in the buffer. */
int done_request(int rc, MPI_Request *request)
{
    if (rc != MPI_SUCCESS) {
        *request = MPI_REQUEST_NULL;
        return rc;
    }
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Send;
    r->complete = true;
    r->active = true;
    *request = pml::to_handle(r);
    return MPI_SUCCESS;
}

int bsend_init_impl(const char *function, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    *request = MPI_REQUEST_NULL;
    pml::Checked c;
    if (int rc = pml::check_args(function, comm, dest, tag, pml::Role::Send, datatype, buf,
                                 static_cast<std::size_t>(count), &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Send;
    r->mode = pml::SendMode::Buffered;
    r->persistent = true;
    r->sbuf = buf;
    r->count = static_cast<std::size_t>(count);
    pml::request_set_type(r, c.type);
    pml::request_set_comm(r, c.comm);
    r->peer = dest;
    r->tag = tag;
    pml::status_empty(&r->status);
    if (dest == MPI_PROC_NULL) {
        r->status.MPI_SOURCE = MPI_PROC_NULL;
    }
    *request = pml::to_handle(r);
    return MPI_SUCCESS;
}

/* Until every buffered message has been delivered to the transports. */
void drain()
{
    pml::wait_until([] {
        opal::LockGuard lock(attached_lock);
        reap();
        return attached.pieces.empty();
    });
}

} // namespace

int start_bsend(pml::Request *r)
{
    const MPI_Comm comm = r->comm == &comm_self() ? MPI_COMM_SELF : MPI_COMM_WORLD;
    const int rc = enqueue("MPI_Start", comm, r->comm, r->sbuf, r->count, r->type, r->peer, r->tag);
    r->active = rc == MPI_SUCCESS;
    r->complete = true;
    return rc;
}

int buffer_attach(void *buffer, int size)
{
    std::unique_lock lock(attached_lock);
    if (attached.base != nullptr) {
        lock.unlock();
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_BUFFER, "MPI_Buffer_attach", "a buffer is attached already");
    }
    if (buffer == MPI_BUFFER_AUTOMATIC || (buffer == nullptr && size > 0)) {
        lock.unlock();
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                             "MPI_BUFFER_AUTOMATIC and NULL buffers are not supported");
    }
    attached.base = static_cast<char *>(buffer);
    attached.size = size > 0 ? static_cast<std::size_t>(size) : 0;
    attached.pieces.clear();
    attached.original = buffer;
    attached.original_size = size;
    return MPI_SUCCESS;
}

int buffer_detach(void *buffer_addr, int *size)
{
    {
        opal::LockGuard lock(attached_lock);
        if (attached.base == nullptr) {
            *static_cast<void **>(buffer_addr) = nullptr;
            *size = 0;
            return MPI_SUCCESS;
        }
    }
    /* Every buffered message is delivered to the transports before the buffer goes back. */
    drain();
    opal::LockGuard lock(attached_lock);
    *static_cast<void **>(buffer_addr) = attached.original;
    *size = attached.original_size;
    attached = Attached{};
    return MPI_SUCCESS;
}

/* MPI-4.1 3.6.1: the buffered messages are on their way; the buffer stays attached. */
int buffer_flush()
{
    if (const int rc = require_initialized(MPI_COMM_SELF, "MPI_Buffer_flush"); rc != MPI_SUCCESS) {
        return rc;
    }
    drain();
    return MPI_SUCCESS;
}

int bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return start_buffered("MPI_Bsend_c", buf, count, datatype, dest, tag, comm);
}

int ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request)
{
    return done_request(start_buffered("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm), request);
}

int bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    return bsend_init_impl("MPI_Bsend_init_c", buf, count, datatype, dest, tag, comm, request);
}

} // namespace tessera::ompi::native
