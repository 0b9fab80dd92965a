#include "ompi/trace/trace_comms.h"

#include "frameworks/trace/base/base.h"
#include "ompi/trace/trace_queries.h"

namespace tessera::ompi::trace {

namespace {

void announce_facts(uint64_t id, const CommFacts &f)
{
    mca_trace_comm_create(id, f.name.c_str(), f.size, f.rank, f.world_ranks.empty() ? nullptr : f.world_ranks.data());
}

} // namespace

Comms &comms()
{
    static Comms instance;
    return instance;
}

void Comms::start()
{
    {
        std::unique_lock lock(mutex_);
        ids_.clear();
        next_id_ = kSelfId + 1;
    }
    {
        std::lock_guard lock(messages_mutex_);
        messages_.clear();
    }
    announce_facts(kWorldId, comm_facts(MPI_COMM_WORLD));
    announce_facts(kSelfId, comm_facts(MPI_COMM_SELF));
}

uint64_t Comms::announce(MPI_Comm comm, bool fresh)
{
    if (comm == MPI_COMM_NULL) {
        return kUnknownComm;
    }
    if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) {
        return id_of(comm);
    }
    /* Asked before the lock: the queries call into the runtime. */
    const CommFacts facts = comm_facts(comm);
    std::unique_lock lock(mutex_);
    if (!fresh) {
        if (auto it = ids_.find(comm); it != ids_.end()) {
            return it->second; /* another thread announced it meanwhile */
        }
    }
    const uint64_t id = next_id_++;
    ids_[comm] = id;
    /* Under the lock, so that no other thread can name the id in an event before modules know it. */
    announce_facts(id, facts);
    return id;
}

void Comms::ended(MPI_Comm comm)
{
    std::unique_lock lock(mutex_);
    ids_.erase(comm);
}

void Comms::renamed(MPI_Comm comm)
{
    const uint64_t id = id_of(comm);
    if (id == kUnknownComm) {
        return;
    }
    const CommFacts facts = comm_facts(comm);
    std::unique_lock lock(mutex_); /* as in announce: no event names the id while modules update it */
    announce_facts(id, facts);
}

void Comms::remember_message(MPI_Message message, uint64_t comm_id)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC) {
        return;
    }
    std::lock_guard lock(messages_mutex_);
    messages_[message] = comm_id;
}

uint64_t Comms::take_message(MPI_Message message)
{
    std::lock_guard lock(messages_mutex_);
    auto it = messages_.find(message);
    if (it == messages_.end()) {
        return kUnknownComm;
    }
    uint64_t id = it->second;
    messages_.erase(it);
    return id;
}

} // namespace tessera::ompi::trace
