/* Internal sends and receives (pml_internal.h): requests of the engine without the MPI checks. */
#include "ompi/pml/pml_internal.h"

#include <cassert>

#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::pml {

namespace {

Request *start(Kind kind, const void *sbuf, void *rbuf, std::size_t count, const Datatype *type, int peer, int tag,
               Communicator *comm)
{
    assert(tag < MPI_ANY_TAG && "internal traffic uses tags below MPI_ANY_TAG");
    Request *r = request_alloc();
    r->kind = kind;
    r->sbuf = sbuf;
    r->rbuf = rbuf;
    r->count = count;
    request_set_type(r, type);
    request_set_comm(r, comm);
    r->peer = peer;
    r->tag = tag;
    r->active = true;
    if (peer == MPI_PROC_NULL) {
        status_empty(&r->status);
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        r->complete = true;
        return r;
    }
    const int rc = kind == Kind::Send ? start_send(r) : start_recv(r);
    if (rc != MPI_SUCCESS) {
        r->status.MPI_ERROR = rc;
        r->complete = true;
    }
    return r;
}

} // namespace

Request *isend(const void *buf, std::size_t count, const Datatype *type, int peer, int tag, Communicator *comm)
{
    return start(Kind::Send, buf, nullptr, count, type, peer, tag, comm);
}

Request *irecv(void *buf, std::size_t count, const Datatype *type, int peer, int tag, Communicator *comm)
{
    return start(Kind::Recv, nullptr, buf, count, type, peer, tag, comm);
}

} // namespace tessera::ompi::pml
