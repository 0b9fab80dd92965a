/* The group constructors (MPI-4.1 7.3.2): set operations and rank selections. A result without
 * members is MPI_GROUP_EMPTY. */
#include <span>
#include <vector>

#include "ompi/group/group_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/group/group_ops.h"

namespace tessera::ompi::native {

namespace {

using group_ops::Members;

int two_groups(const char *fn, MPI_Group group1, MPI_Group group2, Members (*op)(const Members &, const Members &),
               MPI_Group *newgroup)
{
    Group *a = nullptr, *b = nullptr;
    if (int rc = group_argument(fn, group1, "group1", &a); rc != MPI_SUCCESS) {
        return rc;
    }
    if (int rc = group_argument(fn, group2, "group2", &b); rc != MPI_SUCCESS) {
        return rc;
    }
    *newgroup = group_handle(group_create(op(a->procs, b->procs)));
    return MPI_SUCCESS;
}

int null_list(const char *fn, const char *list, int n)
{
    return group_error(fn, MPI_ERR_ARG, std::string(list) + " is NULL with n = " + std::to_string(n));
}

/* g's members at `ranks` (include) or all the others (exclude). */
int select_members(const char *fn, const Group *g, std::span<const int> ranks, bool include, MPI_Group *newgroup)
{
    std::string error;
    Members members;
    const int rc = include ? group_ops::incl(g->procs, ranks, &members, &error)
                           : group_ops::excl(g->procs, ranks, &members, &error);
    if (rc != MPI_SUCCESS) {
        return group_error(fn, rc, error);
    }
    *newgroup = group_handle(group_create(std::move(members)));
    return MPI_SUCCESS;
}

int by_ranks(const char *fn, MPI_Group group, int n, const int ranks[], bool include, MPI_Group *newgroup)
{
    Group *g = nullptr;
    if (int rc = group_argument(fn, group, "group", &g); rc != MPI_SUCCESS) {
        return rc;
    }
    if (n > 0 && ranks == nullptr) {
        return null_list(fn, "ranks", n);
    }
    return select_members(fn, g, std::span(ranks, static_cast<std::size_t>(n)), include, newgroup);
}

int by_ranges(const char *fn, MPI_Group group, int n, int ranges[][3], bool include, MPI_Group *newgroup)
{
    Group *g = nullptr;
    if (int rc = group_argument(fn, group, "group", &g); rc != MPI_SUCCESS) {
        return rc;
    }
    if (n > 0 && ranges == nullptr) {
        return null_list(fn, "ranges", n);
    }
    std::string error;
    std::vector<int> ranks;
    const std::span<const group_ops::Range> triplets(ranges, static_cast<std::size_t>(n));
    if (int rc = group_ops::expand_ranges(g->size(), triplets, &ranks, &error); rc != MPI_SUCCESS) {
        return group_error(fn, rc, error);
    }
    return select_members(fn, g, ranks, include, newgroup);
}

} // namespace

int group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_union", group1, group2, group_ops::set_union, newgroup);
}

int group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_intersection", group1, group2, group_ops::intersection, newgroup);
}

int group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_difference", group1, group2, group_ops::difference, newgroup);
}

int group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return by_ranks("MPI_Group_incl", group, n, ranks, true, newgroup);
}

int group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return by_ranks("MPI_Group_excl", group, n, ranks, false, newgroup);
}

int group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return by_ranges("MPI_Group_range_incl", group, n, ranges, true, newgroup);
}

int group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return by_ranges("MPI_Group_range_excl", group, n, ranges, false, newgroup);
}

} // namespace tessera::ompi::native
