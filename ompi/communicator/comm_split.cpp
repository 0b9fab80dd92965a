/*
 * MPI_Comm_split (MPI-4.1 7.4.2): one exchange over the parent carries every process's (color, key)
 * and its context-id offer, so that each color's communicator is known everywhere together with an id
 * free on all of the parent's processes — the colors' communicators are disjoint and share it. On an
 * intercommunicator (7.6.2) the two groups' records cross between the leaders, and each color pairs
 * the local processes of that color with the remote ones; a color missing on either side gives
 * MPI_COMM_NULL.
 */
#include <algorithm>

#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::comm {

namespace {

constexpr int kFields = 3; /* color, subcolor, key */

/* The ranks whose records say `my` color, ordered by (key, rank). */
std::vector<int> members_of(const std::vector<int> &records, const SplitColor &my)
{
    std::vector<int> members;
    for (std::size_t i = 0; i * kFields < records.size(); ++i) {
        if (records[i * kFields] == my.color && records[i * kFields + 1] == my.subcolor) {
            members.push_back(static_cast<int>(i));
        }
    }
    std::stable_sort(members.begin(), members.end(), [&records](int a, int b) {
        return records[static_cast<std::size_t>(a) * kFields + 2] < records[static_cast<std::size_t>(b) * kFields + 2];
    });
    return members;
}

std::vector<tessera_proc_t *> procs_of(const std::vector<tessera_proc_t *> &procs, const std::vector<int> &ranks)
{
    std::vector<tessera_proc_t *> out;
    for (int r : ranks) {
        out.push_back(procs[static_cast<std::size_t>(r)]);
    }
    return out;
}

Task split_task(Communicator *parent, SplitColor my, InfoEntries info, std::shared_ptr<const Topology> topo,
                Communicator *c, std::string *error)
{
    Agreement a;
    a.count = parent->is_inter() ? 2 : 1;
    /* An intercommunicator's color may find no partner on the other side: that is known only after
     * the exchange, so every process of it offers what it has. */
    a.keep = my.color != MPI_UNDEFINED;
    a.mine = {my.color, my.subcolor, my.key};
    const Decide decide = [&](const Exchanged &records, std::optional<Spec> *spec, std::string *) {
        if (my.color == MPI_UNDEFINED) {
            return MPI_SUCCESS;
        }
        const std::vector<int> local = members_of(records.local, my);
        const std::vector<int> remote = parent->is_inter() ? members_of(records.remote, my) : std::vector<int>{};
        if (parent->is_inter() && remote.empty()) {
            return MPI_SUCCESS;
        }
        const int rank = static_cast<int>(std::find(local.begin(), local.end(), parent->rank) - local.begin());
        *spec = Spec{procs_of(parent->procs, local), rank, procs_of(parent->remote_procs, remote), parent->errhandler,
                     info, topo};
        return MPI_SUCCESS;
    };
    Task creating = create(channel_of(parent), std::move(a), decide, c, error);
    co_return co_await creating;
}

} // namespace

int split(Communicator *parent, SplitColor my, InfoEntries info, std::shared_ptr<const Topology> topo,
          Communicator **out, std::string *error)
{
    Communicator *c = comm_new();
    const int rc = run_blocking(split_task(parent, my, std::move(info), std::move(topo), c, error));
    if (rc != MPI_SUCCESS || handle_state(c) != handle_bits::kOpen) {
        comm_release(c);
        comm_reap();
        *out = nullptr;
        return rc;
    }
    *out = c;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::comm

namespace tessera::ompi::native {

int comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument("MPI_Comm_split", comm, &rc);
    if (parent == nullptr) {
        return rc;
    }
    if (color < 0 && color != MPI_UNDEFINED) {
        return raise_on_comm(comm, MPI_ERR_ARG, "MPI_Comm_split",
                             "color " + std::to_string(color) + " is negative and not MPI_UNDEFINED");
    }
    Communicator *c = nullptr;
    std::string error;
    rc = comm::split(parent, {color, 0, key}, {}, nullptr, &c, &error);
    *newcomm = c != nullptr ? comm_handle(c) : MPI_COMM_NULL;
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm, rc, "MPI_Comm_split", error);
}

} // namespace tessera::ompi::native
