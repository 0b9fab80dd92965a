/*
 * Random groups over a pretend world of 16 processes (process 5 is "this process"), built through the
 * native MPI group functions and checked against a reference that applies the standard's definitions
 * to lists of process numbers (MPI-4.1 7.3): union, intersection, difference, incl, excl, range_incl,
 * range_excl, translate_ranks, compare, rank and size. Then the argument checks: bad ranks, repeated
 * ranks, zero and wrong-way strides, each refused with a message naming the argument.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/runtime/native_api.h"
#include "ompi/group/group_ops.h"

namespace {

namespace native = tessera::ompi::native;
using tessera::ompi::Group;
using Ids = std::vector<int>; /* a group as process numbers, by rank */

constexpr int kWorld = 16;
constexpr int kSelf = 5;

class Groups : public ::testing::Test {
protected:
    void SetUp() override
    {
        /* The group functions raise on MPI_COMM_SELF: return the codes instead of ending the test. */
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_RETURN;
        for (int i = 0; i < kWorld; ++i) {
            procs_.push_back(tessera_proc_create({1, static_cast<uint32_t>(i)}, "host",
                                                 i == kSelf ? TESSERA_PROC_IS_SELF : 0));
        }
    }
    void TearDown() override
    {
        for (tessera_proc_t *p : procs_) {
            tessera_proc_destroy(p);
        }
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_ARE_FATAL;
    }

    MPI_Group make(const Ids &ids)
    {
        std::vector<tessera_proc_t *> members;
        for (int i : ids) {
            members.push_back(procs_[static_cast<std::size_t>(i)]);
        }
        return tessera::ompi::group_handle(tessera::ompi::group_create(members));
    }

    Ids ids_of(MPI_Group g)
    {
        const Group *group = tessera::ompi::group_lookup(g);
        EXPECT_NE(group, nullptr);
        Ids out;
        for (tessera_proc_t *p : group->procs) {
            out.push_back(static_cast<int>(p->proc_name.rank));
        }
        return out;
    }

    /* A random group: up to kWorld distinct processes in random order. */
    Ids random_ids()
    {
        Ids all(kWorld);
        for (int i = 0; i < kWorld; ++i) {
            all[static_cast<std::size_t>(i)] = i;
        }
        std::shuffle(all.begin(), all.end(), rng_);
        all.resize(static_cast<std::size_t>(pick(kWorld + 1)));
        return all;
    }

    /* n distinct ranks of a group of `size`, in random order. */
    Ids random_ranks(int size)
    {
        Ids r(static_cast<std::size_t>(size));
        for (int i = 0; i < size; ++i) {
            r[static_cast<std::size_t>(i)] = i;
        }
        std::shuffle(r.begin(), r.end(), rng_);
        r.resize(static_cast<std::size_t>(pick(size + 1)));
        return r;
    }

    int pick(int n) { return static_cast<int>(std::uniform_int_distribution<int>(0, n - 1)(rng_)); }

    std::mt19937 rng_{20240607};
    std::vector<tessera_proc_t *> procs_;
};

/* The reference: the standard's definitions, written the obvious way. */
bool contains(const Ids &g, int p) { return std::find(g.begin(), g.end(), p) != g.end(); }

Ids ref_union(const Ids &a, const Ids &b)
{
    Ids out = a;
    for (int p : b) {
        if (!contains(a, p)) {
            out.push_back(p);
        }
    }
    return out;
}

Ids ref_intersection(const Ids &a, const Ids &b)
{
    Ids out;
    for (int p : a) {
        if (contains(b, p)) {
            out.push_back(p);
        }
    }
    return out;
}

Ids ref_difference(const Ids &a, const Ids &b)
{
    Ids out;
    for (int p : a) {
        if (!contains(b, p)) {
            out.push_back(p);
        }
    }
    return out;
}

int ref_compare(const Ids &a, const Ids &b)
{
    if (a == b) {
        return MPI_IDENT;
    }
    Ids sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
}

/* The ranks of a triplet list, by the standard's formula (MPI-4.1 7.3.2). */
Ids ref_range(const std::vector<std::array<int, 3>> &ranges)
{
    Ids out;
    for (const auto &[first, last, stride] : ranges) {
        const int n = (last - first) / stride;
        for (int i = 0; i <= n; ++i) {
            out.push_back(first + i * stride);
        }
    }
    return out;
}

TEST_F(Groups, OperationsMatchTheReference)
{
    for (int round = 0; round < 3000; ++round) {
        const Ids a = random_ids(), b = random_ids();
        SCOPED_TRACE("round " + std::to_string(round));
        MPI_Group ga = make(a), gb = make(b), out = MPI_GROUP_NULL;

        int size = -1, rank = -2, result = -1;
        ASSERT_EQ(native::group_size(ga, &size), MPI_SUCCESS);
        EXPECT_EQ(size, static_cast<int>(a.size()));
        ASSERT_EQ(native::group_rank(ga, &rank), MPI_SUCCESS);
        const auto self = std::find(a.begin(), a.end(), kSelf);
        EXPECT_EQ(rank, self == a.end() ? MPI_UNDEFINED : static_cast<int>(self - a.begin()));

        ASSERT_EQ(native::group_union(ga, gb, &out), MPI_SUCCESS);
        EXPECT_EQ(ids_of(out), ref_union(a, b));
        native::group_free(&out);
        ASSERT_EQ(native::group_intersection(ga, gb, &out), MPI_SUCCESS);
        EXPECT_EQ(ids_of(out), ref_intersection(a, b));
        native::group_free(&out);
        ASSERT_EQ(native::group_difference(ga, gb, &out), MPI_SUCCESS);
        EXPECT_EQ(ids_of(out), ref_difference(a, b));
        native::group_free(&out);
        ASSERT_EQ(native::group_compare(ga, gb, &result), MPI_SUCCESS);
        EXPECT_EQ(result, ref_compare(a, b));

        /* Translation of every rank of a, and MPI_PROC_NULL. */
        Ids ranks1, ranks2(a.size() + 1, -7);
        for (int r = 0; r < static_cast<int>(a.size()); ++r) {
            ranks1.push_back(r);
        }
        ranks1.push_back(MPI_PROC_NULL);
        ASSERT_EQ(native::group_translate_ranks(ga, static_cast<int>(ranks1.size()), ranks1.data(), gb, ranks2.data()),
                  MPI_SUCCESS);
        for (std::size_t r = 0; r < a.size(); ++r) {
            const auto in_b = std::find(b.begin(), b.end(), a[r]);
            EXPECT_EQ(ranks2[r], in_b == b.end() ? MPI_UNDEFINED : static_cast<int>(in_b - b.begin()));
        }
        EXPECT_EQ(ranks2.back(), MPI_PROC_NULL);

        /* incl and excl of random distinct ranks. */
        const Ids sel = random_ranks(static_cast<int>(a.size()));
        Ids incl, excl;
        for (int r : sel) {
            incl.push_back(a[static_cast<std::size_t>(r)]);
        }
        for (std::size_t r = 0; r < a.size(); ++r) {
            if (!contains(sel, static_cast<int>(r))) {
                excl.push_back(a[r]);
            }
        }
        ASSERT_EQ(native::group_incl(ga, static_cast<int>(sel.size()), sel.data(), &out), MPI_SUCCESS);
        EXPECT_EQ(ids_of(out), incl);
        native::group_free(&out);
        ASSERT_EQ(native::group_excl(ga, static_cast<int>(sel.size()), sel.data(), &out), MPI_SUCCESS);
        EXPECT_EQ(ids_of(out), excl);
        native::group_free(&out);

        /* Ranges: consecutive slices of a random permutation of the ranks, each as an ascending or
         * descending triplet when the slice is one (strided) run; otherwise single-rank triplets. */
        if (!a.empty()) {
            std::vector<std::array<int, 3>> ranges;
            const int n = static_cast<int>(a.size());
            const int stride = 1 + pick(3);
            for (int start = pick(stride); start < n;) {
                const int count = 1 + pick(4);
                const int last = std::min(n - 1, start + (count - 1) * stride);
                const int last_hit = start + ((last - start) / stride) * stride;
                if (pick(2) == 0) {
                    ranges.push_back({start, last, stride});
                } else {
                    ranges.push_back({last_hit, start, -stride});
                }
                start = last_hit + stride;
            }
            std::shuffle(ranges.begin(), ranges.end(), rng_);
            const Ids range_ranks = ref_range(ranges);
            Ids rincl, rexcl;
            for (int r : range_ranks) {
                rincl.push_back(a[static_cast<std::size_t>(r)]);
            }
            for (int r = 0; r < n; ++r) {
                if (!contains(range_ranks, r)) {
                    rexcl.push_back(a[static_cast<std::size_t>(r)]);
                }
            }
            auto *triplets = reinterpret_cast<int(*)[3]>(ranges.data());
            ASSERT_EQ(native::group_range_incl(ga, static_cast<int>(ranges.size()), triplets, &out), MPI_SUCCESS);
            EXPECT_EQ(ids_of(out), rincl);
            native::group_free(&out);
            ASSERT_EQ(native::group_range_excl(ga, static_cast<int>(ranges.size()), triplets, &out), MPI_SUCCESS);
            EXPECT_EQ(ids_of(out), rexcl);
            native::group_free(&out);
        }
        native::group_free(&ga);
        native::group_free(&gb);
        EXPECT_EQ(ga, MPI_GROUP_NULL);
    }
}

TEST_F(Groups, EmptyResultsAreTheEmptyGroup)
{
    MPI_Group a = make({1, 2}), b = make({3}), out = MPI_GROUP_NULL;
    ASSERT_EQ(native::group_intersection(a, b, &out), MPI_SUCCESS);
    EXPECT_EQ(out, MPI_GROUP_EMPTY);
    int size = -1, rank = 0, result = 0;
    EXPECT_EQ(native::group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 0);
    EXPECT_EQ(native::group_rank(MPI_GROUP_EMPTY, &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, MPI_UNDEFINED);
    EXPECT_EQ(native::group_compare(out, MPI_GROUP_EMPTY, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_IDENT);
    EXPECT_EQ(native::group_free(&out), MPI_SUCCESS); /* freeing it leaves the predefined group */
    EXPECT_EQ(native::group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    native::group_free(&a);
    native::group_free(&b);
}

TEST_F(Groups, InvalidArgumentsAreRefused)
{
    MPI_Group g = make({0, 1, 2, 3, 4, 5}), out = MPI_GROUP_NULL;
    int size = 0;
    EXPECT_EQ(native::group_size(MPI_GROUP_NULL, &size), MPI_ERR_GROUP);
    int dup[] = {1, 2, 1};
    EXPECT_EQ(native::group_incl(g, 3, dup, &out), MPI_ERR_RANK);
    int outside[] = {6};
    EXPECT_EQ(native::group_excl(g, 1, outside, &out), MPI_ERR_RANK);
    int zero_stride[][3] = {{0, 3, 0}};
    EXPECT_EQ(native::group_range_incl(g, 1, zero_stride, &out), MPI_ERR_ARG);
    int translated = 0, bad = 6;
    EXPECT_EQ(native::group_translate_ranks(g, 1, &bad, g, &translated), MPI_ERR_RANK);
    EXPECT_EQ(out, MPI_GROUP_NULL);
    native::group_free(&g);
    /* A freed group's handle no longer names a group. */
    EXPECT_EQ(native::group_size(g, &size), MPI_ERR_GROUP);
}

TEST(GroupOps, RangeErrorsNameTheTriplet)
{
    namespace ops = tessera::ompi::group_ops;
    std::vector<int> ranks;
    std::string error;
    const int zero[][3] = {{0, 1, 1}, {2, 5, 0}};
    EXPECT_EQ(ops::expand_ranges(8, zero, &ranks, &error), MPI_ERR_ARG);
    EXPECT_EQ(error, "ranges[1] = (2, 5, 0): the stride is 0");
    const int away[][3] = {{5, 1, 2}};
    EXPECT_EQ(ops::expand_ranges(8, away, &ranks, &error), MPI_ERR_ARG);
    EXPECT_EQ(error, "ranges[0] = (5, 1, 2): a stride of 2 never reaches 1 from 5");
    const int outside[][3] = {{0, 8, 1}};
    EXPECT_EQ(ops::expand_ranges(8, outside, &ranks, &error), MPI_ERR_RANK);
    EXPECT_EQ(error, "ranges[0] = (0, 8, 1): 8 is not a rank of the group (size 8)");
    const int twice[][3] = {{0, 3, 1}, {6, 2, -2}};
    EXPECT_EQ(ops::expand_ranges(8, twice, &ranks, &error), MPI_ERR_RANK);
    EXPECT_EQ(error, "rank 2 is named twice (by ranges[0] = (0, 3, 1) and ranges[1] = (6, 2, -2))");
    const int fine[][3] = {{7, 1, -3}, {0, 0, 5}};
    EXPECT_EQ(ops::expand_ranges(8, fine, &ranks, &error), MPI_SUCCESS);
    EXPECT_EQ(ranks, (std::vector<int>{7, 4, 1, 0}));

    std::vector<tessera_proc_t *> none(4, nullptr);
    ops::Members out;
    const int dup[] = {3, 0, 3};
    EXPECT_EQ(ops::incl(none, dup, &out, &error), MPI_ERR_RANK);
    EXPECT_EQ(error, "rank 3 is named twice (ranks[0] and ranks[2])");
}

} // namespace
