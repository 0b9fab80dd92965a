#include "ompi/communicator/communicator.h"

#include <atomic>
#include <cstdint>

#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

namespace {

/* Before MPI_Init a process is its own world (size 1), which is also what a singleton becomes. */
Communicator world_comm{.context_id = kContextWorld, .name = "MPI_COMM_WORLD", .predefined = true};
Communicator self_comm{.context_id = kContextSelf, .name = "MPI_COMM_SELF", .predefined = true};

} // namespace

Communicator &comm_world()
{
    return world_comm;
}

Communicator &comm_self()
{
    return self_comm;
}

Communicator *comm_lookup(MPI_Comm handle)
{
    if (handle == MPI_COMM_WORLD) {
        return &world_comm;
    }
    if (handle == MPI_COMM_SELF) {
        return &self_comm;
    }
    return user_object<Communicator>(handle);
}

Communicator *comm_lookup_settable(MPI_Comm handle)
{
    if (Communicator *c = comm_lookup(handle); c != nullptr) {
        return c;
    }
    return user_slot_object<Communicator>(handle, handle_bits::kPending);
}

MPI_Comm comm_handle(const Communicator *comm)
{
    if (comm == &world_comm) {
        return MPI_COMM_WORLD;
    }
    if (comm == &self_comm) {
        return MPI_COMM_SELF;
    }
    return user_handle<MPI_Comm>(comm);
}

std::string comm_label(const Communicator &comm)
{
    if (!comm.name.empty()) {
        return comm.name;
    }
    std::string label = comm.is_inter() ? "an intercommunicator of " + std::to_string(comm.size) + "+" +
                                              std::to_string(comm.remote_size())
                                        : "a communicator of " + std::to_string(comm.size);
    return label + (comm.size == 1 && !comm.is_inter() ? " process" : " processes");
}

void comm_init_predefined(int world_rank, int world_size)
{
    world_comm.rank = world_rank;
    world_comm.size = world_size;
    world_comm.errhandler = MPI_ERRORS_ARE_FATAL;
    self_comm.rank = 0;
    self_comm.size = 1;
    self_comm.errhandler = MPI_ERRORS_ARE_FATAL;
}

} // namespace tessera::ompi
