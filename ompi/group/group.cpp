#include "ompi/group/group.h"

#include <memory>
#include <utility>

#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

namespace {

Group empty_group;

} // namespace

Group *group_empty()
{
    return &empty_group;
}

Group *group_create(std::vector<tessera_proc_t *> procs)
{
    if (procs.empty()) {
        return &empty_group;
    }
    auto g = std::make_unique<Group>();
    g->procs = std::move(procs);
    for (int r = 0; r < g->size(); ++r) {
        if ((g->procs[static_cast<std::size_t>(r)]->proc_flags & TESSERA_PROC_IS_SELF) != 0) {
            g->my_rank = r;
            break;
        }
    }
    return g.release();
}

Group *group_lookup(MPI_Group handle)
{
    if (handle == MPI_GROUP_EMPTY) {
        return &empty_group;
    }
    return user_object<Group>(handle);
}

MPI_Group group_handle(const Group *group)
{
    if (group == &empty_group) {
        return MPI_GROUP_EMPTY;
    }
    return user_handle<MPI_Group>(group);
}

void group_retain(Group *group)
{
    if (group != &empty_group) {
        group->refs.fetch_add(1, std::memory_order_relaxed);
    }
}

void group_release(Group *group)
{
    if (group == &empty_group) {
        return;
    }
    if (group->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        delete group;
    }
}

} // namespace tessera::ompi
