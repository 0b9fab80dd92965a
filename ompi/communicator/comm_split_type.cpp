/*
 * MPI_Comm_split_type (MPI-4.1 7.4.2): a split whose color comes from where the processes run.
 *
 *   MPI_COMM_TYPE_SHARED       the processes of one host (they can share memory): the color is the
 *                              lowest MPI_COMM_WORLD rank on this process's host.
 *   MPI_COMM_TYPE_HW_GUIDED    the processes within one instance of the resource type named by the
 *                              info key "mpi_hw_resource_type" (opal/hw_resources.h): a process whose
 *                              binding spans several instances, or a type not known, gets MPI_COMM_NULL.
 *   MPI_COMM_TYPE_HW_UNGUIDED  the first level of the hierarchy, from the host down, that divides the
 *                              communicator into strict subsets (every process's instances of every
 *                              level are gathered first); none: MPI_COMM_NULL everywhere.
 *   MPI_COMM_TYPE_RESOURCE_GUIDED  process sets come with sessions, which do not exist: MPI_COMM_NULL.
 *
 * The new communicators of the HW types carry "mpi_hw_resource_type" in their hints, as the standard
 * asks. This is an intracommunicator call.
 */
#include <string>
#include <vector>

#include "frameworks/coll/base/base.h"
#include "ompi/coll/coll_objects.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/runtime.h"
#include "opal/hw_resources.h"

namespace tessera::ompi::native {

namespace {

constexpr const char *kFunction = "MPI_Comm_split_type";
constexpr const char *kResourceKey = "mpi_hw_resource_type";

/* The lowest MPI_COMM_WORLD rank on this process's host. */
int host_color()
{
    const Runtime &rt = runtime();
    const tessera_proc_t *me = rt.world_procs[static_cast<std::size_t>(rt.launch.rank)];
    for (const tessera_proc_t *p : rt.world_procs) {
        if (p == me || (p->proc_flags & TESSERA_PROC_ON_NODE) != 0) {
            return static_cast<int>(p->proc_name.rank);
        }
    }
    return rt.launch.rank;
}

/* Every process's (host, instance) for every level, by rank: gathered through the communicator's
 * own allgather. */
int gather_levels(Communicator *c, std::vector<int> *table)
{
    const auto &levels = opal::hw_resource_types();
    std::vector<int> mine;
    for (const std::string &level : levels) {
        const auto instance = opal::hw_resource_instance(level);
        mine.push_back(host_color());
        mine.push_back(instance ? *instance : -1);
    }
    table->assign(mine.size() * static_cast<std::size_t>(c->size), 0);
    const Datatype *ints = datatype_lookup(MPI_INT);
    mca_coll_base_comm_coll_t *t = c->coll;
    if (t->coll_allgather == nullptr) {
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    return t->coll_allgather(mine.data(), mine.size(), coll::to_c(ints), table->data(), mine.size(),
                             coll::to_c(ints), coll::to_c(c), t->coll_allgather_module);
}

/* HW_UNGUIDED's level: the first whose instances divide the communicator into strict subsets. */
int unguided_level(const std::vector<int> &table, int size)
{
    const auto levels = static_cast<int>(opal::hw_resource_types().size());
    const auto at = [&](int rank, int level, int field) {
        return table[static_cast<std::size_t>((rank * levels + level) * 2 + field)];
    };
    for (int level = 0; level < levels; ++level) {
        bool some = false;
        bool all_one = true;
        for (int r = 0; r < size; ++r) {
            some = some || at(r, level, 1) >= 0;
            all_one = all_one && at(r, level, 0) == at(0, level, 0) && at(r, level, 1) == at(0, level, 1) &&
                      at(r, level, 1) >= 0;
        }
        if (some && !all_one) {
            return level;
        }
    }
    return -1;
}

} // namespace

int comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(kFunction, comm, &rc);
    if (parent == nullptr) {
        return rc;
    }
    if (parent->is_inter()) {
        return raise_on_comm(comm, MPI_ERR_COMM, kFunction, comm_label(*parent) + " is an intercommunicator");
    }
    InfoEntries given;
    if ((rc = hints_argument(kFunction, comm, info, &given)) != MPI_SUCCESS) {
        return rc;
    }
    comm::SplitColor my{MPI_UNDEFINED, 0, key};
    InfoEntries entries;
    switch (split_type) {
    case MPI_UNDEFINED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        break;
    case MPI_COMM_TYPE_SHARED:
        my.color = host_color();
        break;
    case MPI_COMM_TYPE_HW_GUIDED: {
        const std::string *type = given.find(kResourceKey);
        const auto instance = type != nullptr ? opal::hw_resource_instance(*type) : std::nullopt;
        if (instance) {
            my = {host_color(), *instance, key};
            entries.set(kResourceKey, *type);
        }
        break;
    }
    case MPI_COMM_TYPE_HW_UNGUIDED: {
        std::vector<int> table;
        if ((rc = gather_levels(parent, &table)) != MPI_SUCCESS) {
            return raise_on_comm(comm, rc, kFunction, "gathering the processes' hardware resources failed");
        }
        const int level = unguided_level(table, parent->size);
        const auto levels = opal::hw_resource_types().size();
        const std::size_t mine = (static_cast<std::size_t>(parent->rank) * levels + static_cast<std::size_t>(level)) * 2;
        if (level >= 0 && table[mine + 1] >= 0) {
            my = {table[mine], table[mine + 1], key};
            entries.set(kResourceKey, opal::hw_resource_types()[static_cast<std::size_t>(level)]);
        }
        break;
    }
    default:
        return raise_on_comm(comm, MPI_ERR_ARG, kFunction,
                             "split_type " + std::to_string(split_type) +
                                 " is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED, _RESOURCE_GUIDED or "
                                 "MPI_UNDEFINED");
    }
    Communicator *c = nullptr;
    std::string error;
    rc = comm::split(parent, my, std::move(entries), nullptr, &c, &error);
    *newcomm = c != nullptr ? comm_handle(c) : MPI_COMM_NULL;
    return rc == MPI_SUCCESS ? rc : raise_on_comm(comm, rc, kFunction, error);
}

} // namespace tessera::ompi::native
