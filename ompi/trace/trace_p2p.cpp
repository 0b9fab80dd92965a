/* The feed's point-to-point events and the requests they make (trace_feed.h). Nothing is reported for
 * MPI_PROC_NULL: no message exists. */
#include "frameworks/trace/base/base.h"
#include "ompi/trace/trace_comms.h"
#include "ompi/trace/trace_feed.h"
#include "ompi/trace/trace_queries.h"
#include "ompi/trace/trace_requests.h"

using namespace tessera::ompi::trace;

namespace {

/* The hooks a nonblocking send or receive feeds: its start, and its completion when a module waits
 * for it. */
constexpr uint32_t kIsendHooks =
    MCA_TRACE_HOOK_ISEND | MCA_TRACE_HOOK_ISEND_COMPLETE | MCA_TRACE_HOOK_REQUEST_CANCELLED;
constexpr uint32_t kIrecvHooks =
    MCA_TRACE_HOOK_IRECV_REQUEST | MCA_TRACE_HOOK_IRECV | MCA_TRACE_HOOK_REQUEST_CANCELLED;

/* Whether a receive that returned rc delivered a message its status describes. */
bool delivered(int rc, const MPI_Status *status)
{
    return rc == MPI_SUCCESS && status != MPI_STATUS_IGNORE && status->MPI_SOURCE != MPI_PROC_NULL;
}

void announce_isend(tessera_trace_op_t *op, int peer, int tag, uint64_t bytes)
{
    op->send_id = next_request_id();
    mca_trace_isend(op->comm, peer, tag, bytes, op->send_id);
}

void announce_irecv(tessera_trace_op_t *op)
{
    op->recv_id = next_request_id();
    mca_trace_irecv_request(op->recv_id);
}

} // namespace

extern "C" {

void tessera_trace_send_event(MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type)
{
    if (dest == MPI_PROC_NULL) {
        return;
    }
    mca_trace_send(comms().id_of(comm), dest, tag, type_bytes(count, type));
}

void tessera_trace_send_done_event(MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type)
{
    if (dest == MPI_PROC_NULL) {
        return;
    }
    mca_trace_send_done(comms().id_of(comm), dest, tag, type_bytes(count, type));
}

void tessera_trace_recv_on(uint64_t comm_id, int rc, const MPI_Status *status)
{
    if (wants(MCA_TRACE_HOOK_RECV) && delivered(rc, status) && comm_id != kUnknownComm) {
        mca_trace_recv(comm_id, status->MPI_SOURCE, status->MPI_TAG, status_bytes(status));
    }
}

void tessera_trace_recv_event(MPI_Comm comm, int rc, const MPI_Status *status)
{
    if (delivered(rc, status)) {
        mca_trace_recv(comms().id_of(comm), status->MPI_SOURCE, status->MPI_TAG, status_bytes(status));
    }
}

void tessera_trace_message(MPI_Comm comm, MPI_Message message)
{
    if (wants(MCA_TRACE_HOOK_RECV | kIrecvHooks)) {
        comms().remember_message(message, comms().id_of(comm));
    }
}

uint64_t tessera_trace_message_comm(MPI_Message message)
{
    return message == MPI_MESSAGE_NO_PROC ? kUnknownComm : comms().take_message(message);
}

void tessera_trace_op_isend(tessera_trace_op_t *op, MPI_Comm comm, int dest, int tag, MPI_Count count,
                            MPI_Datatype type)
{
    if (!wants(kIsendHooks) || dest == MPI_PROC_NULL) {
        return;
    }
    op->parts |= TESSERA_TRACE_OP_SEND;
    op->comm = comms().id_of(comm);
    announce_isend(op, dest, tag, type_bytes(count, type));
}

void tessera_trace_op_irecv(tessera_trace_op_t *op, MPI_Comm comm, int source)
{
    if (!wants(kIrecvHooks) || source == MPI_PROC_NULL) {
        return;
    }
    op->parts |= TESSERA_TRACE_OP_RECV;
    op->comm = comms().id_of(comm);
    announce_irecv(op);
}

void tessera_trace_op_imrecv(tessera_trace_op_t *op, MPI_Message message)
{
    if (!wants(kIrecvHooks)) {
        return;
    }
    const uint64_t comm = tessera_trace_message_comm(message);
    if (comm == kUnknownComm) {
        return;
    }
    op->parts |= TESSERA_TRACE_OP_RECV;
    op->comm = comm;
    announce_irecv(op);
}

void tessera_trace_op_send_init(tessera_trace_op_t *op, MPI_Comm comm, int dest, int tag, MPI_Count count,
                                MPI_Datatype type)
{
    if (!wants(kIsendHooks) || dest == MPI_PROC_NULL) {
        return;
    }
    op->parts = TESSERA_TRACE_OP_SEND | TESSERA_TRACE_OP_PERSISTENT;
    op->comm = comms().id_of(comm);
    op->peer = dest;
    op->tag = tag;
    op->bytes = type_bytes(count, type);
}

void tessera_trace_op_recv_init(tessera_trace_op_t *op, MPI_Comm comm, int source)
{
    if (!wants(kIrecvHooks) || source == MPI_PROC_NULL) {
        return;
    }
    op->parts = TESSERA_TRACE_OP_RECV | TESSERA_TRACE_OP_PERSISTENT;
    op->comm = comms().id_of(comm);
    op->peer = source;
}

void tessera_trace_op_started(tessera_trace_op_t *op, int rc, MPI_Request request)
{
    if (op->parts == 0) {
        return;
    }
    if (rc != MPI_SUCCESS) {
        /* Announced but never begun: for an analysis, the same as a cancelled request. */
        if (op->send_id != 0) {
            mca_trace_request_cancelled(op->send_id);
        }
        if (op->recv_id != 0) {
            mca_trace_request_cancelled(op->recv_id);
        }
        return;
    }
    const bool persistent = (op->parts & TESSERA_TRACE_OP_PERSISTENT) != 0;
    if (!persistent && !wants(kCompletionHooks)) {
        return; /* nobody waits for its completion */
    }
    RequestRecord record;
    record.op = *op;
    record.active = !persistent;
    requests().put(request, record);
}

void tessera_trace_start(const MPI_Request *list, int count)
{
    if (requests().empty()) {
        return;
    }
    for (int i = 0; i < count; ++i) {
        tessera_trace_op_t started{};
        bool found = requests().update(list[i], [&started](RequestRecord &r) {
            if ((r.op.parts & TESSERA_TRACE_OP_PERSISTENT) == 0) {
                return;
            }
            if ((r.op.parts & TESSERA_TRACE_OP_SEND) != 0) {
                r.op.send_id = next_request_id();
            }
            if ((r.op.parts & TESSERA_TRACE_OP_RECV) != 0) {
                r.op.recv_id = next_request_id();
            }
            r.active = true;
            r.cancel_requested = false;
            started = r.op;
        });
        if (!found || started.parts == 0) {
            continue;
        }
        if ((started.parts & TESSERA_TRACE_OP_COLL) != 0) {
            mca_trace_collective_begin();
            mca_trace_collective_end(static_cast<mca_trace_base_collective_t>(started.coll_op), started.comm,
                                     started.coll_root, started.coll_sent, started.coll_received);
        }
        if (started.send_id != 0) {
            mca_trace_isend(started.comm, started.peer, started.tag, started.bytes, started.send_id);
        }
        if (started.recv_id != 0) {
            mca_trace_irecv_request(started.recv_id);
        }
    }
}

void tessera_trace_cancel(MPI_Request request)
{
    if (!requests().empty()) {
        (void)requests().mark_cancel(request);
    }
}

void tessera_trace_free(MPI_Request request)
{
    if (requests().empty()) {
        return;
    }
    std::optional<RequestRecord> r = requests().take(request);
    if (!r || !r->active || (r->op.parts & TESSERA_TRACE_OP_COLL) != 0) {
        return;
    }
    /* A freed send still goes out (MPI-4.1 3.7.3); a freed receive has no status to report, so
     * an analysis must not wait for it. */
    if (r->op.send_id != 0) {
        mca_trace_isend_complete(r->op.send_id);
    }
    if (r->op.recv_id != 0) {
        mca_trace_request_cancelled(r->op.recv_id);
    }
}

} // extern "C"
