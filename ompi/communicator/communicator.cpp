#include "ompi/communicator/communicator.h"

namespace tessera::ompi {

namespace {

/* Before MPI_Init a process is its own world (size 1), which is also what a singleton becomes. */
Communicator world_comm{.context_id = kContextWorld, .name = "MPI_COMM_WORLD"};
Communicator self_comm{.context_id = kContextSelf, .name = "MPI_COMM_SELF"};

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
    return nullptr;
}

MPI_Comm comm_handle(const Communicator *comm)
{
    if (comm == &self_comm) {
        return MPI_COMM_SELF;
    }
    /* Until user communicators exist (their handle will be their address), everything else is WORLD. */
    return MPI_COMM_WORLD;
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
