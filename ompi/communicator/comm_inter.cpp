/*
 * Intercommunicators (MPI-4.1 7.6): MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_remote_group,
 * MPI_Intercomm_create and MPI_Intercomm_merge.
 *
 * MPI_Intercomm_create: the two leaders first trade their groups' sizes over the bridge (peer_comm,
 * with an internal tag made from the application's, so that no receive of the application on peer_comm
 * can take them) and each tells its group; then one exchange gathers each group's MPI_COMM_WORLD ranks
 * at its leader, crosses the bridge and comes back down, agreeing on two context ids free on both
 * groups: the intercommunicator's, and its local_comm's.
 *
 * MPI_Intercomm_merge: the group whose processes said high = false comes first; when both said the
 * same, the group holding the lower MPI_COMM_WORLD rank comes first (every process decides alike).
 */
#include <algorithm>
#include <unordered_set>

#include "ompi/communicator/comm_channel.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/group/group.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi::native {

namespace {

using comm::Task;

int world_rank(const tessera_proc_t *p)
{
    return static_cast<int>(p->proc_name.rank);
}

Task intercomm_create_task(Communicator *local, int local_leader, Communicator *bridge, int remote_leader, int tag,
                           Communicator *c, std::string *error)
{
    const int bridge_tag = pml::internal_tag(pml::kTagBridgeFirst, tag);
    int remote_size = -1;
    if (local->rank == local_leader) {
        /* A failed trade still reaches the group (as -1), so that nobody waits for it. */
        Task trading = comm::trade_int(bridge, remote_leader, bridge_tag, local->size, &remote_size);
        if (co_await trading != MPI_SUCCESS) {
            remote_size = -1;
        }
    }
    Task telling = comm::bcast_int(local, local_leader, &remote_size);
    const int rc = co_await telling;
    if (rc != MPI_SUCCESS || remote_size < 1) {
        *error = "the leaders could not trade their groups' sizes over peer_comm";
        co_return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
    }
    comm::Channel ch = comm::channel_of(local);
    ch.root = local_leader;
    ch.link = bridge;
    ch.remote_leader = remote_leader;
    ch.link_tag = bridge_tag;
    ch.remote_size = remote_size;
    comm::Agreement a;
    a.count = 2;
    a.mine = {world_rank(local->procs[static_cast<std::size_t>(local->rank)])};
    const comm::Decide decide = [local](const comm::Exchanged &records, std::optional<comm::Spec> *spec,
                                        std::string *why) {
        const Runtime &rt = runtime();
        std::unordered_set<int> mine;
        for (const tessera_proc_t *p : local->procs) {
            mine.insert(world_rank(p));
        }
        std::vector<tessera_proc_t *> remote;
        for (int r : records.remote) {
            if (r < 0 || static_cast<std::size_t>(r) >= rt.world_procs.size()) {
                *why = "the remote group names MPI_COMM_WORLD rank " + std::to_string(r) + ", which does not exist";
                return MPI_ERR_INTERN;
            }
            if (mine.contains(r)) {
                *why = "the groups overlap: MPI_COMM_WORLD rank " + std::to_string(r) + " is in both";
                return MPI_ERR_COMM;
            }
            remote.push_back(rt.world_procs[static_cast<std::size_t>(r)]);
        }
        *spec = comm::Spec{local->procs, local->rank, std::move(remote), local->errhandler, {}, nullptr};
        return MPI_SUCCESS;
    };
    Task creating = comm::create(std::move(ch), std::move(a), decide, c, error);
    co_return co_await creating;
}

Task merge_task(Communicator *inter, bool high, Communicator *c, std::string *error)
{
    comm::Agreement a;
    a.mine = {high ? 1 : 0};
    const comm::Decide decide = [inter, high](const comm::Exchanged &records, std::optional<comm::Spec> *spec,
                                              std::string *why) {
        const auto uniform = [](const std::vector<int> &highs) {
            return std::adjacent_find(highs.begin(), highs.end(), std::not_equal_to<>()) == highs.end();
        };
        if (!uniform(records.local) || !uniform(records.remote)) {
            *why = "the processes of one group gave different values of 'high'";
            return MPI_ERR_ARG;
        }
        const bool theirs = records.remote.front() != 0;
        const bool local_first = high != theirs ? !high
                                                : world_rank(inter->procs.front()) < world_rank(inter->remote_procs.front());
        std::vector<tessera_proc_t *> procs = local_first ? inter->procs : inter->remote_procs;
        const std::vector<tessera_proc_t *> &second = local_first ? inter->remote_procs : inter->procs;
        procs.insert(procs.end(), second.begin(), second.end());
        const int rank = local_first ? inter->rank : inter->remote_size() + inter->rank;
        *spec = comm::Spec{std::move(procs), rank, {}, inter->errhandler, {}, nullptr};
        return MPI_SUCCESS;
    };
    Task creating = comm::create(comm::channel_of(inter), std::move(a), decide, c, error);
    co_return co_await creating;
}

/* The intercommunicator of argument 'comm': MPI_ERR_COMM for an intracommunicator. */
Communicator *intercomm_argument(const char *function, MPI_Comm comm, int *rc)
{
    Communicator *c = comm_argument(function, comm, rc);
    if (c != nullptr && !c->is_inter()) {
        *rc = raise_on_comm(comm, MPI_ERR_COMM, function, comm_label(*c) + " is not an intercommunicator");
        return nullptr;
    }
    return c;
}

} // namespace

int comm_test_inter(MPI_Comm comm, int *flag)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = comm_argument("MPI_Comm_test_inter", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *flag = c->is_inter() ? 1 : 0;
    return MPI_SUCCESS;
}

int comm_remote_size(MPI_Comm comm, int *size)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = intercomm_argument("MPI_Comm_remote_size", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *size = c->remote_size();
    return MPI_SUCCESS;
}

int comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = MPI_SUCCESS;
    const Communicator *c = intercomm_argument("MPI_Comm_remote_group", comm, &rc);
    if (c == nullptr) {
        return rc;
    }
    *group = group_handle(group_create(c->remote_procs));
    return MPI_SUCCESS;
}

int intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                     MPI_Comm *newintercomm)
{
    constexpr const char *kFunction = "MPI_Intercomm_create";
    int rc = MPI_SUCCESS;
    Communicator *local = comm_argument(kFunction, local_comm, &rc, "local_comm");
    if (local == nullptr) {
        return rc;
    }
    if (local->is_inter()) {
        return raise_on_comm(local_comm, MPI_ERR_COMM, kFunction, "local_comm is an intercommunicator");
    }
    if (local_leader < 0 || local_leader >= local->size) {
        return raise_on_comm(local_comm, MPI_ERR_RANK, kFunction,
                             "local_leader " + std::to_string(local_leader) + " is not a rank of local_comm (size " +
                                 std::to_string(local->size) + ")");
    }
    /* peer_comm and remote_leader matter at the leader only. */
    Communicator *bridge = nullptr;
    if (local->rank == local_leader) {
        bridge = comm_argument(kFunction, peer_comm, &rc, "peer_comm", local_comm);
        if (bridge == nullptr) {
            return rc;
        }
        if (remote_leader < 0 || remote_leader >= static_cast<int>(bridge->peers().size())) {
            return raise_on_comm(local_comm, MPI_ERR_RANK, kFunction,
                                 "remote_leader " + std::to_string(remote_leader) + " is not a rank of peer_comm (size " +
                                     std::to_string(bridge->peers().size()) + ")");
        }
    }
    Communicator *c = comm_new();
    std::string error;
    rc = comm::run_blocking(intercomm_create_task(local, local_leader, bridge, remote_leader, tag, c, &error));
    return comm::finish(kFunction, local_comm, c, rc, error, newintercomm);
}

int intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    constexpr const char *kFunction = "MPI_Intercomm_merge";
    int rc = MPI_SUCCESS;
    Communicator *inter = intercomm_argument(kFunction, intercomm, &rc);
    if (inter == nullptr) {
        return rc;
    }
    Communicator *c = comm_new();
    std::string error;
    rc = comm::run_blocking(merge_task(inter, high != 0, c, &error));
    return comm::finish(kFunction, intercomm, c, rc, error, newintracomm);
}

} // namespace tessera::ompi::native
