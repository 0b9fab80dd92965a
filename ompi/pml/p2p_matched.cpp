/* Matched probes and receives (MPI-4.1 3.8.2-3.8.3): a probe that takes the message out of matching,
 * so that only the MPI_Message it returns can receive it — thread-safe probing. */
#include "ompi/pml/p2p_functions.h"

#include "ompi/errhandler/errhandler.h"
#include "ompi/pml/p2p_checks.h"
#include "ompi/pml/pml_engine.h"

namespace tessera::ompi::native {

namespace {

void no_proc_status(MPI_Status *status)
{
    pml::status_deliver_empty(status, MPI_PROC_NULL);
}

/* A receive request for a matched message (or MPI_MESSAGE_NO_PROC), started. */
int start_matched(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  pml::Request **out)
{
    if (*message == MPI_MESSAGE_NULL || *message == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, function, "the message is MPI_MESSAGE_NULL");
    }
    pml::Message *m = nullptr;
    if (*message != MPI_MESSAGE_NO_PROC && (m = pml::message_lookup(*message)) == nullptr) {
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_REQUEST, function,
                             "invalid message: received already, or no message of MPI_Mprobe/MPI_Improbe");
    }
    pml::Request *r = pml::request_alloc();
    r->kind = pml::Kind::Recv;
    if (m == nullptr) {
        pml::status_empty(&r->status);
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        r->complete = true;
        r->active = true;
        *message = MPI_MESSAGE_NULL;
        *out = r;
        return MPI_SUCCESS;
    }
    const Datatype *type = datatype_lookup(datatype);
    if (type == nullptr) {
        pml::request_release(r);
        return raise_on_comm(MPI_COMM_WORLD, MPI_ERR_TYPE, function, "invalid datatype");
    }
    r->rbuf = buf;
    r->count = static_cast<std::size_t>(count);
    pml::request_set_type(r, type);
    pml::request_set_comm(r, &comm_world());
    pml::start_mrecv(r, m);
    *message = MPI_MESSAGE_NULL;
    *out = r;
    return MPI_SUCCESS;
}

} // namespace

int improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    pml::Checked c;
    if (int rc = pml::check_args("MPI_Improbe", comm, source, tag, pml::Role::Probe, MPI_DATATYPE_NULL, nullptr, 0, &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        no_proc_status(status);
        return MPI_SUCCESS;
    }
    pml::Message *m = pml::mprobe(c.comm, source, tag, status);
    if (m == nullptr) {
        pml::progress();
        m = pml::mprobe(c.comm, source, tag, status);
    }
    *flag = m != nullptr;
    *message = m != nullptr ? pml::message_handle(m) : MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    pml::Checked c;
    if (int rc = pml::check_args("MPI_Mprobe", comm, source, tag, pml::Role::Probe, MPI_DATATYPE_NULL, nullptr, 0, &c);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        no_proc_status(status);
        return MPI_SUCCESS;
    }
    pml::Message *m = nullptr;
    pml::wait_until([&] { return (m = pml::mprobe(c.comm, source, tag, status)) != nullptr; });
    *message = pml::message_handle(m);
    return MPI_SUCCESS;
}

namespace {

int mrecv_impl(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    pml::Request *r = nullptr;
    if (int rc = start_matched(function, buf, count, datatype, message, &r); rc != MPI_SUCCESS) {
        return rc;
    }
    pml::wait_for(r);
    const int error = r->status.MPI_ERROR;
    pml::status_deliver(status, r->status);
    pml::request_release(r);
    return error == MPI_SUCCESS ? MPI_SUCCESS
                                : raise_on_comm(MPI_COMM_WORLD, error, function,
                                                "the message is longer than the receive buffer");
}

int imrecv_impl(const char *function, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    pml::Request *r = nullptr;
    const int rc = start_matched(function, buf, count, datatype, message, &r);
    *request = rc == MPI_SUCCESS ? pml::to_handle(r) : MPI_REQUEST_NULL;
    return rc;
}

} // namespace

int mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    return mrecv_impl("MPI_Mrecv_c", buf, count, datatype, message, status);
}

int imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    return imrecv_impl("MPI_Imrecv_c", buf, count, datatype, message, request);
}

} // namespace tessera::ompi::native
