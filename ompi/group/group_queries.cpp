/* MPI_Group_size, _rank, _translate_ranks, _compare, _free (MPI-4.1 7.3.1, 7.3.3). */
#include <span>

#include "ompi/group/group_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/group/group_ops.h"

namespace tessera::ompi::native {

int group_size(MPI_Group group, int *size)
{
    Group *g = nullptr;
    if (int rc = group_argument("MPI_Group_size", group, "group", &g); rc != MPI_SUCCESS) {
        return rc;
    }
    *size = g->size();
    return MPI_SUCCESS;
}

int group_rank(MPI_Group group, int *rank)
{
    Group *g = nullptr;
    if (int rc = group_argument("MPI_Group_rank", group, "group", &g); rc != MPI_SUCCESS) {
        return rc;
    }
    *rank = g->my_rank;
    return MPI_SUCCESS;
}

int group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    constexpr const char *fn = "MPI_Group_translate_ranks";
    Group *a = nullptr, *b = nullptr;
    if (int rc = group_argument(fn, group1, "group1", &a); rc != MPI_SUCCESS) {
        return rc;
    }
    if (int rc = group_argument(fn, group2, "group2", &b); rc != MPI_SUCCESS) {
        return rc;
    }
    if (n > 0 && (ranks1 == nullptr || ranks2 == nullptr)) {
        return group_error(fn, MPI_ERR_ARG, std::string(ranks1 == nullptr ? "ranks1" : "ranks2") +
                                                " is NULL with n = " + std::to_string(n));
    }
    std::string error;
    const int rc = group_ops::translate(a->procs, std::span(ranks1, static_cast<std::size_t>(n)), b->procs, ranks2,
                                        &error);
    return rc == MPI_SUCCESS ? rc : group_error(fn, rc, error);
}

int group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    Group *a = nullptr, *b = nullptr;
    if (int rc = group_argument("MPI_Group_compare", group1, "group1", &a); rc != MPI_SUCCESS) {
        return rc;
    }
    if (int rc = group_argument("MPI_Group_compare", group2, "group2", &b); rc != MPI_SUCCESS) {
        return rc;
    }
    *result = group_ops::compare(a->procs, b->procs);
    return MPI_SUCCESS;
}

/* MPI_GROUP_EMPTY may be freed like any group a constructor returned (they may return it); the
 * predefined object itself stays. */
int group_free(MPI_Group *group)
{
    Group *g = nullptr;
    if (int rc = group_argument("MPI_Group_free", *group, "group", &g); rc != MPI_SUCCESS) {
        return rc;
    }
    group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
