/* MPI_Comm_group (MPI-4.1 7.3.2) and MPI_Comm_compare (7.4.1): the communicator's group is its procs
 * by rank, and two communicators compare by object (context) first, then by group. */
#include "ompi/communicator/comm_checks.h"
#include "ompi/group/group.h"
#include "ompi/communicator/comm_functions.h"
#include "ompi/group/group_ops.h"

namespace tessera::ompi::native {

int comm_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_group", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *group = group_handle(group_create(c->procs));
    return MPI_SUCCESS;
}

/* Communicators with the same context are the same object here (a context names one communicator in
 * a process), hence MPI_IDENT for handles of one object only. */
int comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    int rc = MPI_SUCCESS;
    const Communicator *a = comm_argument("MPI_Comm_compare", comm1, &rc, "comm1");
    const Communicator *b = a != nullptr ? comm_argument("MPI_Comm_compare", comm2, &rc, "comm2", comm1) : nullptr;
    if (b == nullptr) {
        return rc;
    }
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    const int groups = group_ops::compare(a->procs, b->procs);
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
