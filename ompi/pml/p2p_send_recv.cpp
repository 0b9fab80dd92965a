/* Sends, receives and probes (MPI-4.1 3.2-3.9): blocking ones are their non-blocking form and a wait.
 * The sends and receives are written in their MPI_Count forms; the int-count forms are generated
 * (ompi/api/gen_native.py). */
#include "ompi/pml/p2p_functions.h"

#include <cstring>
#include <string>
#include <vector>

#include "ompi/datatype/convertor.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/p2p_checks.h"
#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::native {

using pml::Request;

namespace {

/* The packed bytes of `count` elements at `buf`: what a *_replace call sends while its receive
 * overwrites the buffer. */
std::vector<char> packed_copy(const void *buf, MPI_Count count, const Datatype &type)
{
    std::vector<char> out(static_cast<std::size_t>(count > 0 ? count : 0) * type.size);
    if (buf != nullptr && !out.empty()) {
        convertor_pack(buf, static_cast<std::size_t>(count), type, 0, out.data(), out.size());
    }
    return out;
}

/* A request that is complete at once (MPI_PROC_NULL): status empty but for the source. */
Request *proc_null_request(pml::Kind kind, bool persistent, Communicator *comm)
{
    Request *r = pml::request_alloc();
    r->kind = kind;
    r->persistent = persistent;
    pml::request_set_comm(r, comm);
    r->peer = MPI_PROC_NULL;
    pml::status_empty(&r->status);
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->complete = true;
    r->active = !persistent;
    return r;
}

int make_send(const char *function, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, pml::SendMode mode, bool persistent, Request **out)
{
    pml::Checked c;
    if (int rc = pml::check_args(function, comm, dest, tag, pml::Role::Send, datatype, buf,
                                 static_cast<std::size_t>(count), &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (dest == MPI_PROC_NULL) {
        *out = proc_null_request(pml::Kind::Send, persistent, c.comm);
        return MPI_SUCCESS;
    }
    Request *r = pml::request_alloc();
    r->kind = pml::Kind::Send;
    r->mode = mode;
    r->persistent = persistent;
    r->sbuf = buf;
    r->count = static_cast<std::size_t>(count);
    pml::request_set_type(r, c.type);
    pml::request_set_comm(r, c.comm);
    r->peer = dest;
    r->tag = tag;
    if (!persistent) {
        if (int rc = pml::start_send(r); rc != MPI_SUCCESS) {
            pml::request_release(r);
            return raise_on_comm(comm, rc, function, "rank " + std::to_string(dest) + " cannot be reached");
        }
    }
    *out = r;
    return MPI_SUCCESS;
}

int make_recv(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, bool persistent, Request **out)
{
    pml::Checked c;
    if (int rc = pml::check_args(function, comm, source, tag, pml::Role::Recv, datatype, buf,
                                 static_cast<std::size_t>(count), &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (source == MPI_PROC_NULL) {
        *out = proc_null_request(pml::Kind::Recv, persistent, c.comm);
        return MPI_SUCCESS;
    }
    Request *r = pml::request_alloc();
    r->kind = pml::Kind::Recv;
    r->persistent = persistent;
    r->rbuf = buf;
    r->count = static_cast<std::size_t>(count);
    pml::request_set_type(r, c.type);
    pml::request_set_comm(r, c.comm);
    r->peer = source;
    r->tag = tag;
    if (!persistent) {
        pml::start_recv(r);
    }
    *out = r;
    return MPI_SUCCESS;
}

/* Waits for a request made here and releases it; the status and the error go to the caller. */
int finish(const char *function, MPI_Comm comm, Request *r, MPI_Status *status)
{
    pml::wait_for(r);
    const int error = r->status.MPI_ERROR;
    pml::status_deliver(status, r->status);
    pml::request_release(r);
    if (error != MPI_SUCCESS) {
        return raise_on_comm(comm, error, function, pml::request_error_text(error));
    }
    return MPI_SUCCESS;
}

/* The handle of a request made by a non-blocking or persistent call (MPI_REQUEST_NULL if it failed). */
int hand_out(int rc, Request *const *r, MPI_Request *request)
{
    *request = rc == MPI_SUCCESS ? pml::to_handle(*r) : MPI_REQUEST_NULL;
    return rc;
}

int blocking_send(const char *function, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, pml::SendMode mode)
{
    Request *r = nullptr;
    if (int rc = make_send(function, buf, count, datatype, dest, tag, comm, mode, false, &r); rc != MPI_SUCCESS) {
        return rc;
    }
    return finish(function, comm, r, MPI_STATUS_IGNORE);
}

} // namespace

namespace {

int sendrecv_impl(const char *function, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    Request *rr = nullptr, *sr = nullptr;
    if (int rc = make_recv(function, recvbuf, recvcount, recvtype, source, recvtag, comm, false, &rr);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (int rc = make_send(function, sendbuf, sendcount, sendtype, dest, sendtag, comm,
                           pml::SendMode::Standard, false, &sr);
        rc != MPI_SUCCESS) {
        pml::wait_for(rr);
        pml::request_release(rr);
        return rc;
    }
    pml::wait_for(sr);
    const int send_error = sr->status.MPI_ERROR;
    pml::request_release(sr);
    const int rc = finish(function, comm, rr, status);
    if (rc == MPI_SUCCESS && send_error != MPI_SUCCESS) {
        return raise_on_comm(comm, send_error, function, "the send failed");
    }
    return rc;
}

int sendrecv_replace_impl(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    pml::Checked c;
    if (int rc = pml::check_args(function, comm, dest, sendtag, pml::Role::Send, datatype, buf,
                                 static_cast<std::size_t>(count), &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    /* The outgoing message leaves packed from a copy, so that the receive may land in the buffer at once. */
    std::vector<char> copy = packed_copy(buf, count, *c.type);
    return sendrecv_impl(function, copy.data(), static_cast<MPI_Count>(copy.size()), MPI_BYTE, dest, sendtag, buf,
                         count, datatype, source, recvtag, comm, status);
}

} // namespace

namespace {

/* MPI_Isendrecv: a compound request over a receive and a send, made before either starts so that
 * neither can complete the compound early. */
int start_sendrecv(const char *function, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, std::vector<char> *copy, MPI_Request *request)
{
    Request *rr = nullptr, *sr = nullptr;
    *request = MPI_REQUEST_NULL;
    if (int rc = make_recv(function, recvbuf, recvcount, recvtype, source, recvtag, comm, true, &rr); rc != MPI_SUCCESS) {
        return rc;
    }
    if (int rc = make_send(function, sendbuf, sendcount, sendtype, dest, sendtag, comm, pml::SendMode::Standard, true, &sr);
        rc != MPI_SUCCESS) {
        pml::request_release(rr);
        return rc;
    }
    Request *parent = pml::request_alloc();
    parent->kind = pml::Kind::Recv;
    pml::request_set_comm(parent, rr->comm);
    parent->status = rr->status; /* MPI_PROC_NULL's, should the receive be one */
    parent->active = true;
    if (copy != nullptr) {
        parent->packed.swap(*copy); /* the outgoing copy of MPI_Isendrecv_replace lives with the request */
        sr->sbuf = parent->packed.data();
    }
    /* Read before anything starts: a started child may complete in another thread and go back to the
     * free list at once. */
    const bool receives = rr->peer != MPI_PROC_NULL, sends = sr->peer != MPI_PROC_NULL;
    for (Request *child : {rr, sr}) {
        child->persistent = false;
        if (child->peer == MPI_PROC_NULL) {
            pml::request_release(child);
        } else {
            pml::adopt(parent, child);
        }
    }
    if (receives) {
        pml::start_recv(rr);
    }
    if (sends && pml::start_send(sr) != MPI_SUCCESS) {
        pml::fail_request(sr, MPI_ERR_OTHER);
    }
    *request = pml::to_handle(parent);
    return MPI_SUCCESS;
}

} // namespace

namespace {

int isendrecv_replace_impl(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    const Datatype *type = datatype_lookup(datatype);
    std::vector<char> copy = type != nullptr && datatype_committed(type) ? packed_copy(buf, count, *type)
                                                                         : std::vector<char>{};
    /* an invalid type is reported by the receive's checks, with the same arguments */
    const MPI_Datatype send_type = type != nullptr && datatype_committed(type) ? MPI_BYTE : datatype;
    const MPI_Count send_count = send_type == MPI_BYTE ? static_cast<MPI_Count>(copy.size()) : count;
    return start_sendrecv(function, copy.data(), send_count, send_type, dest, sendtag, buf, count, datatype, source,
                          recvtag, comm, &copy, request);
}

} // namespace

int probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    pml::Checked c;
    if (int rc = pml::check_args("MPI_Probe", comm, source, tag, pml::Role::Probe, MPI_DATATYPE_NULL, nullptr, 0, &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (source == MPI_PROC_NULL) {
        pml::status_deliver_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    pml::wait_until([&] { return pml::probe(c.comm, source, tag, status); });
    return MPI_SUCCESS;
}

int iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    pml::Checked c;
    if (int rc = pml::check_args("MPI_Iprobe", comm, source, tag, pml::Role::Probe, MPI_DATATYPE_NULL, nullptr, 0, &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        pml::status_deliver_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    *flag = pml::probe(c.comm, source, tag, status);
    if (!*flag) {
        pml::progress();
        *flag = pml::probe(c.comm, source, tag, status);
    }
    return MPI_SUCCESS;
}

/* The MPI_Count forms (MPI-4.1 19.2: "large counts"): the same calls with 64-bit counts. */

int send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send("MPI_Send_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Standard);
}

int ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send("MPI_Ssend_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Sync);
}

int rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Ready);
}

int recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    Request *r = nullptr;
    if (int rc = make_recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, false, &r); rc != MPI_SUCCESS) {
        return rc;
    }
    return finish("MPI_Recv_c", comm, r, status);
}

int isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
            MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Isend_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Standard, false, &r),
                    &r, request);
}

int issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Issend_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Sync, false, &r),
                    &r, request);
}

int irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Ready, false, &r),
                    &r, request);
}

int irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
            MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_recv("MPI_Irecv_c", buf, count, datatype, source, tag, comm, false, &r), &r, request);
}

int send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Send_init_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Standard, true,
                              &r),
                    &r, request);
}

int ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Ssend_init_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Sync, true, &r),
                    &r, request);
}

int rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_send("MPI_Rsend_init_c", buf, count, datatype, dest, tag, comm, pml::SendMode::Ready, true,
                              &r),
                    &r, request);
}

int recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    Request *r = nullptr;
    return hand_out(make_recv("MPI_Recv_init_c", buf, count, datatype, source, tag, comm, true, &r), &r, request);
}

int sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
               MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_impl("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, status);
}

int sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                       int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_replace_impl("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                 status);
}

int isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                MPI_Request *request)
{
    return start_sendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                          source, recvtag, comm, nullptr, request);
}

int isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                        int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_replace_impl("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag,
                                  comm, request);
}

} // namespace tessera::ompi::native
