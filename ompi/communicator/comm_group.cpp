/* MPI_Comm_group (MPI-4.1 7.3.2) and MPI_Comm_compare (7.4.1): the communicator's (local) group is its
 * procs by rank, and two communicators compare by object first, then by group. */
#include <algorithm>

#include "ompi/communicator/comm_checks.h"
#include "ompi/group/group.h"
#include "ompi/runtime/native_api.h"
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

/* Two handles of one object are MPI_IDENT; otherwise the groups decide (MPI-4.1 7.4.1): for
 * intercommunicators both the local and the remote groups, and an intra- and an intercommunicator are
 * MPI_UNEQUAL. */
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
    if (a->is_inter() != b->is_inter()) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int groups = group_ops::compare(a->procs, b->procs);
    if (a->is_inter() && groups != MPI_UNEQUAL) {
        const int remote = group_ops::compare(a->remote_procs, b->remote_procs);
        /* The weaker of the two: MPI_IDENT < MPI_SIMILAR in the ABI. */
        groups = remote == MPI_UNEQUAL ? MPI_UNEQUAL : std::max(groups, remote);
    }
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
