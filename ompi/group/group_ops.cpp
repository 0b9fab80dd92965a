#include "ompi/group/group_ops.h"

#include <unordered_map>
#include <unordered_set>

#include <mpi.h>

namespace tessera::ompi::group_ops {

namespace {

std::unordered_set<const tessera_proc_t *> member_set(const Members &g)
{
    return {g.begin(), g.end()};
}

/* Checks that each of `ranks` is a rank of a group of `size` and that none repeats. `what(i)` names
 * the argument that gave ranks[i] in messages ("ranks[3]"). */
template <class Name>
int check_distinct(int size, std::span<const int> ranks, Name what, std::string *error)
{
    std::vector<int> first_at(static_cast<std::size_t>(size), -1);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const int r = ranks[i];
        if (r < 0 || r >= size) {
            *error = what(i) + " = " + std::to_string(r) + " is not a rank of the group (size " +
                     std::to_string(size) + ")";
            return MPI_ERR_RANK;
        }
        int &seen = first_at[static_cast<std::size_t>(r)];
        if (seen >= 0) {
            *error = "rank " + std::to_string(r) + " is named twice (" + what(static_cast<std::size_t>(seen)) +
                     " and " + what(i) + ")";
            return MPI_ERR_RANK;
        }
        seen = static_cast<int>(i);
    }
    return MPI_SUCCESS;
}

std::string element(const char *array, std::size_t i)
{
    return std::string(array) + "[" + std::to_string(i) + "]";
}

std::string triplet(std::size_t i, const Range &r)
{
    return "ranges[" + std::to_string(i) + "] = (" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ", " +
           std::to_string(r[2]) + ")";
}

} // namespace

Members set_union(const Members &a, const Members &b)
{
    Members out = a;
    const auto in_a = member_set(a);
    for (tessera_proc_t *p : b) {
        if (!in_a.contains(p)) {
            out.push_back(p);
        }
    }
    return out;
}

Members intersection(const Members &a, const Members &b)
{
    Members out;
    const auto in_b = member_set(b);
    for (tessera_proc_t *p : a) {
        if (in_b.contains(p)) {
            out.push_back(p);
        }
    }
    return out;
}

Members difference(const Members &a, const Members &b)
{
    Members out;
    const auto in_b = member_set(b);
    for (tessera_proc_t *p : a) {
        if (!in_b.contains(p)) {
            out.push_back(p);
        }
    }
    return out;
}

int compare(const Members &a, const Members &b)
{
    if (a == b) {
        return MPI_IDENT;
    }
    if (a.size() != b.size()) {
        return MPI_UNEQUAL;
    }
    const auto in_b = member_set(b);
    for (tessera_proc_t *p : a) {
        if (!in_b.contains(p)) {
            return MPI_UNEQUAL;
        }
    }
    return MPI_SIMILAR;
}

int incl(const Members &g, std::span<const int> ranks, Members *out, std::string *error)
{
    const auto name = [](std::size_t i) { return element("ranks", i); };
    if (int rc = check_distinct(static_cast<int>(g.size()), ranks, name, error); rc != MPI_SUCCESS) {
        return rc;
    }
    out->clear();
    out->reserve(ranks.size());
    for (int r : ranks) {
        out->push_back(g[static_cast<std::size_t>(r)]);
    }
    return MPI_SUCCESS;
}

int excl(const Members &g, std::span<const int> ranks, Members *out, std::string *error)
{
    const auto name = [](std::size_t i) { return element("ranks", i); };
    if (int rc = check_distinct(static_cast<int>(g.size()), ranks, name, error); rc != MPI_SUCCESS) {
        return rc;
    }
    std::vector<bool> drop(g.size(), false);
    for (int r : ranks) {
        drop[static_cast<std::size_t>(r)] = true;
    }
    out->clear();
    for (std::size_t r = 0; r < g.size(); ++r) {
        if (!drop[r]) {
            out->push_back(g[r]);
        }
    }
    return MPI_SUCCESS;
}

/* MPI-4.1 7.3.2: a triplet names first, first + stride, ... up to last; first may exceed last when the
 * stride is negative. */
int expand_ranges(int group_size, std::span<const Range> ranges, std::vector<int> *ranks, std::string *error)
{
    ranks->clear();
    std::vector<std::size_t> from; /* the triplet of each rank, for messages */
    std::vector<int> owner(static_cast<std::size_t>(group_size), -1);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= group_size || last < 0 || last >= group_size) {
            *error = triplet(i, ranges[i]) + ": " + std::to_string(first < 0 || first >= group_size ? first : last) +
                     " is not a rank of the group (size " + std::to_string(group_size) + ")";
            return MPI_ERR_RANK;
        }
        if (stride == 0) {
            *error = triplet(i, ranges[i]) + ": the stride is 0";
            return MPI_ERR_ARG;
        }
        if ((last > first && stride < 0) || (last < first && stride > 0)) {
            *error = triplet(i, ranges[i]) + ": a stride of " + std::to_string(stride) + " never reaches " +
                     std::to_string(last) + " from " + std::to_string(first);
            return MPI_ERR_ARG;
        }
        /* In 64 bits: first + stride may leave int near INT_MAX. */
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            int &seen = owner[static_cast<std::size_t>(r)];
            if (seen >= 0) {
                *error = "rank " + std::to_string(r) + " is named twice (by " +
                         triplet(static_cast<std::size_t>(seen), ranges[static_cast<std::size_t>(seen)]) + " and " +
                         triplet(i, ranges[i]) + ")";
                return MPI_ERR_RANK;
            }
            seen = static_cast<int>(i);
            ranks->push_back(static_cast<int>(r));
        }
    }
    return MPI_SUCCESS;
}

int translate(const Members &a, std::span<const int> ranks_a, const Members &b, int *ranks_b, std::string *error)
{
    std::unordered_map<const tessera_proc_t *, int> rank_in_b;
    rank_in_b.reserve(b.size());
    for (std::size_t r = 0; r < b.size(); ++r) {
        rank_in_b.emplace(b[r], static_cast<int>(r));
    }
    for (std::size_t i = 0; i < ranks_a.size(); ++i) {
        const int r = ranks_a[i];
        if (r == MPI_PROC_NULL) {
            ranks_b[i] = MPI_PROC_NULL;
            continue;
        }
        if (r < 0 || static_cast<std::size_t>(r) >= a.size()) {
            *error = element("ranks1", i) + " = " + std::to_string(r) + " is not a rank of group1 (size " +
                     std::to_string(a.size()) + ") nor MPI_PROC_NULL";
            return MPI_ERR_RANK;
        }
        const auto found = rank_in_b.find(a[static_cast<std::size_t>(r)]);
        ranks_b[i] = found != rank_in_b.end() ? found->second : MPI_UNDEFINED;
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::group_ops
