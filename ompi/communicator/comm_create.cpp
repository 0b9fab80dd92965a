/*
 * MPI_Comm_create and MPI_Comm_create_group (MPI-4.1 7.4.2).
 *
 * MPI_Comm_create is collective over the parent: every process agrees on the context id, the group's
 * members get a communicator of that group (processes may give different, disjoint groups: each group
 * gets its own communicator, all sharing the id), the others MPI_COMM_NULL. On an intercommunicator
 * (7.6.2) each side gives a subgroup of its own group; every process contributes its position in its
 * side's group, so that the other side learns the remote group in that group's order. An empty side
 * gives MPI_COMM_NULL everywhere.
 *
 * MPI_Comm_create_group is collective over the group only: the exchange runs among its members on the
 * parent's context, with an internal tag made from the application's, so that concurrent calls with
 * different tags (on overlapping groups) keep apart.
 */
#include <algorithm>

#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/group/group.h"
#include "ompi/pml/pml_internal.h"

namespace tessera::ompi::native {

namespace {

using comm::Task;

/* The group of argument 'group', a subgroup of the communicator's (local) group. */
const Group *subgroup(const char *function, MPI_Comm comm, const Communicator *c, MPI_Group handle, int *rc)
{
    const Group *g = group_lookup(handle);
    if (g == nullptr) {
        *rc = raise_on_comm(comm, MPI_ERR_GROUP, function, "invalid group in argument 'group'");
        return nullptr;
    }
    const std::vector<int> ranks = comm::ranks_in(c->procs, g->procs);
    const auto outside = std::find(ranks.begin(), ranks.end(), -1);
    if (outside != ranks.end()) {
        *rc = raise_on_comm(comm, MPI_ERR_GROUP, function,
                            "rank " + std::to_string(outside - ranks.begin()) + " of the group is not in " +
                                (c->is_inter() ? "the local group of " : "") + comm_label(*c));
        return nullptr;
    }
    return g;
}

/* `position`: this process's rank in `group` (MPI_UNDEFINED outside it). */
Task create_task(Communicator *parent, std::vector<tessera_proc_t *> group, int position, Communicator *c,
                 std::string *error)
{
    comm::Agreement a;
    a.count = parent->is_inter() ? 2 : 1;
    a.keep = position != MPI_UNDEFINED;
    if (parent->is_inter()) {
        a.mine = {position == MPI_UNDEFINED ? -1 : position};
    }
    const comm::Decide decide = [&](const comm::Exchanged &records, std::optional<comm::Spec> *spec, std::string *) {
        /* The remote ranks in the order of their side's group: (position, rank) sorted. */
        std::vector<std::pair<int, std::size_t>> order;
        for (std::size_t r = 0; r < records.remote.size(); ++r) {
            if (records.remote[r] >= 0) {
                order.emplace_back(records.remote[r], r);
            }
        }
        std::sort(order.begin(), order.end());
        std::vector<tessera_proc_t *> remote;
        for (const auto &[at, r] : order) {
            remote.push_back(parent->remote_procs[r]);
        }
        if (position != MPI_UNDEFINED && (!parent->is_inter() || !remote.empty())) {
            *spec = comm::Spec{group, position, std::move(remote), parent->errhandler, {}, nullptr};
        }
        return MPI_SUCCESS;
    };
    Task creating = comm::create(comm::channel_of(parent), std::move(a), decide, c, error);
    co_return co_await creating;
}

Task create_group_task(Communicator *parent, std::vector<tessera_proc_t *> group, int position, int tag,
                       Communicator *c, std::string *error)
{
    comm::Channel ch;
    ch.comm = parent;
    ch.members = comm::ranks_in(parent->procs, group);
    ch.me = position;
    ch.tag = pml::internal_tag(pml::kTagCreateGroupFirst, tag);
    const comm::Decide decide = [&](const comm::Exchanged &, std::optional<comm::Spec> *spec, std::string *) {
        *spec = comm::Spec{group, ch.me, {}, parent->errhandler, {}, nullptr};
        return MPI_SUCCESS;
    };
    Task creating = comm::create(ch, comm::Agreement{}, decide, c, error);
    co_return co_await creating;
}

} // namespace

int comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    constexpr const char *kFunction = "MPI_Comm_create";
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(kFunction, comm, &rc);
    const Group *g = parent != nullptr ? subgroup(kFunction, comm, parent, group, &rc) : nullptr;
    if (g == nullptr) {
        return rc;
    }
    Communicator *c = comm_new();
    std::string error;
    rc = comm::run_blocking(create_task(parent, g->procs, g->my_rank, c, &error));
    return comm::finish(kFunction, comm, c, rc, error, newcomm);
}

int comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    constexpr const char *kFunction = "MPI_Comm_create_group";
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(kFunction, comm, &rc);
    if (parent == nullptr) {
        return rc;
    }
    if (parent->is_inter()) {
        return raise_on_comm(comm, MPI_ERR_COMM, kFunction, comm_label(*parent) + " is an intercommunicator");
    }
    const Group *g = subgroup(kFunction, comm, parent, group, &rc);
    if (g == nullptr) {
        return rc;
    }
    if (g->my_rank == MPI_UNDEFINED) {
        /* Not a member: nothing to take part in. */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    Communicator *c = comm_new();
    std::string error;
    rc = comm::run_blocking(create_group_task(parent, g->procs, g->my_rank, tag, c, &error));
    return comm::finish(kFunction, comm, c, rc, error, newcomm);
}

} // namespace tessera::ompi::native
