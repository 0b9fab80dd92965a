/* Probes: MPI_Probe/Iprobe look at the unexpected queue; MPI_Mprobe/Improbe take a message out of
 * matching, for MPI_Mrecv/Imrecv to receive later. */
#include "ompi/pml/pml_engine_private.h"

namespace tessera::ompi::pml {

bool probe(Communicator *comm, int source, int tag, MPI_Status *status)
{
    auto *state = static_cast<CommState *>(comm->pml);
    std::lock_guard lock(state->lock);
    for (const KeptMessage &u : state->unexpected) {
        if ((source == MPI_ANY_SOURCE || source == u.header.source) && tag_matches(tag, u.header.tag)) {
            if (status != MPI_STATUS_IGNORE) {
                status->MPI_SOURCE = u.header.source;
                status->MPI_TAG = u.header.tag;
                status_set_count(status, static_cast<std::size_t>(u.header.length));
                status_set_cancelled(status, false);
            }
            return true;
        }
    }
    return false;
}

struct Message {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x4d455347; /* "MESG" */
    static void *operator new(std::size_t size) { return handle_slot_new<Message>(size); }
    static void operator delete(void *object) { handle_slot_delete<Message>(object); }

    Communicator *comm;
    MessageList node; /* the message, out of the unexpected queue */
};

Message *mprobe(Communicator *comm, int source, int tag, MPI_Status *status)
{
    auto *state = static_cast<CommState *>(comm->pml);
    std::lock_guard lock(state->lock);
    for (auto it = state->unexpected.begin(); it != state->unexpected.end(); ++it) {
        if ((source == MPI_ANY_SOURCE || source == it->header.source) && tag_matches(tag, it->header.tag)) {
            if (status != MPI_STATUS_IGNORE) {
                status->MPI_SOURCE = it->header.source;
                status->MPI_TAG = it->header.tag;
                status_set_count(status, static_cast<std::size_t>(it->header.length));
                status_set_cancelled(status, false);
            }
            auto *m = new Message{comm, {}};
            comm_retain(comm);
            m->node.splice(m->node.begin(), state->unexpected, it);
            return m;
        }
    }
    return nullptr;
}

MPI_Message message_handle(const Message *message)
{
    return user_handle<MPI_Message>(message);
}

Message *message_lookup(MPI_Message handle)
{
    return user_object<Message>(handle);
}

void start_mrecv(Request *r, Message *m)
{
    r->bytes = r->count * r->type->size;
    restart(r);
    request_set_comm(r, m->comm);
    /* Found first, and the message's hold on the communicator kept until the node is back in its pool:
     * once delivered, r may be complete and released by a waiting thread. */
    auto *state = static_cast<CommState *>(m->comm->pml);
    const KeptMessage &kept = m->node.front();
    deliver(r, kept.header, kept.proc, kept.data.data());
    {
        std::lock_guard lock(state->lock);
        drop_message(state->pool, m->node, m->node.begin());
    }
    comm_release(m->comm);
    delete m;
}

} // namespace tessera::ompi::pml
