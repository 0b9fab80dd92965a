#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "ompi/topo/topology.h"

using tessera::ompi::Topology;

namespace {

/* Every non-increasing factorization of m into k factors, the one MPI_Dims_create must give: the
 * smallest spread (largest minus smallest), and among those the one whose dimensions, compared from the
 * smallest up, are largest. */
std::vector<int> reference_dims(int m, int k)
{
    std::vector<int> best, current;
    int best_spread = -1;
    std::function<void(int, int)> walk = [&](int left, int cap) {
        if (static_cast<int>(current.size()) == k) {
            if (left == 1) {
                const int spread = current.front() - current.back();
                if (best_spread < 0 || spread < best_spread || (spread == best_spread && std::lexicographical_compare(best.rbegin(), best.rend(), current.rbegin(), current.rend()))) {
                    best_spread = spread;
                    best = current;
                }
            }
            return;
        }
        for (int d = std::min(left, cap); d >= 1; --d) {
            if (left % d == 0) {
                current.push_back(d);
                walk(left / d, d);
                current.pop_back();
            }
        }
    };
    walk(m, m);
    return best;
}

Topology grid(std::vector<int> dims, std::vector<bool> periods)
{
    Topology t;
    t.kind = MPI_CART;
    t.dims = std::move(dims);
    t.periods = std::move(periods);
    return t;
}

} // namespace

TEST(DimsCreate, MatchesTheExhaustiveReference)
{
    for (int n = 1; n <= 240; ++n) {
        for (int k = 1; k <= 4; ++k) {
            std::vector<int> dims(static_cast<std::size_t>(k), 0);
            ASSERT_EQ(tessera::ompi::dims_create(n, dims), "") << n << " into " << k;
            EXPECT_EQ(dims, reference_dims(n, k)) << n << " into " << k;
        }
    }
}

/* Cases where the spread alone leaves a choice (from MPICH's topo/baddims table). */
TEST(DimsCreate, PrefersTheBalancedMiddle)
{
    std::vector<int> dims(4, 0);
    ASSERT_EQ(tessera::ompi::dims_create(5616, dims), "");
    EXPECT_EQ(dims, (std::vector<int>{13, 9, 8, 6}));
    dims.assign(3, 0);
    ASSERT_EQ(tessera::ompi::dims_create(5040, dims), "");
    EXPECT_EQ(dims, (std::vector<int>{21, 16, 15}));
}

TEST(DimsCreate, KeepsFixedDimensions)
{
    std::vector<int> dims = {0, 3, 0};
    ASSERT_EQ(tessera::ompi::dims_create(12, dims), "");
    EXPECT_EQ(dims, (std::vector<int>{2, 3, 2}));
    dims = {2, 0, 0, 5};
    ASSERT_EQ(tessera::ompi::dims_create(120, dims), "");
    EXPECT_EQ(dims, (std::vector<int>{2, 4, 3, 5}));
    dims = {2, 4};
    EXPECT_EQ(tessera::ompi::dims_create(8, dims), "");
}

TEST(DimsCreate, RefusesWhatCannotBe)
{
    std::vector<int> dims = {5, 0};
    EXPECT_NE(tessera::ompi::dims_create(12, dims).find("does not divide"), std::string::npos);
    dims = {-1, 0};
    EXPECT_NE(tessera::ompi::dims_create(4, dims).find("dims[0] is -1"), std::string::npos);
    dims = {2, 3};
    EXPECT_NE(tessera::ompi::dims_create(12, dims).find("not nnodes"), std::string::npos);
    dims = {0};
    EXPECT_NE(tessera::ompi::dims_create(0, dims), "");
}

TEST(DimsCreate, ManyDimensionsStayFast)
{
    std::vector<int> dims(200, 0);
    ASSERT_EQ(tessera::ompi::dims_create(1 << 30, dims), "");
    EXPECT_EQ(std::count(dims.begin(), dims.end(), 2), 30);
    EXPECT_EQ(std::count(dims.begin(), dims.end(), 1), 170);
}

TEST(Cartesian, CoordinatesAreRowMajorAndRoundTrip)
{
    const Topology t = grid({3, 4, 2}, {false, true, false});
    EXPECT_EQ(t.nodes(), 24);
    EXPECT_EQ(tessera::ompi::cart_coords_of(t, 0), (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(tessera::ompi::cart_coords_of(t, 1), (std::vector<int>{0, 0, 1}));
    EXPECT_EQ(tessera::ompi::cart_coords_of(t, 2), (std::vector<int>{0, 1, 0}));
    EXPECT_EQ(tessera::ompi::cart_coords_of(t, 23), (std::vector<int>{2, 3, 1}));
    for (int r = 0; r < t.nodes(); ++r) {
        EXPECT_EQ(tessera::ompi::cart_rank_of(t, tessera::ompi::cart_coords_of(t, r)), r);
    }
    EXPECT_EQ(tessera::ompi::cart_rank_of(t, {0, -1, 0}), tessera::ompi::cart_rank_of(t, {0, 3, 0}));
    EXPECT_EQ(tessera::ompi::cart_rank_of(t, {0, 9, 0}), tessera::ompi::cart_rank_of(t, {0, 1, 0}));
    EXPECT_EQ(tessera::ompi::cart_rank_of(t, {3, 0, 0}), -1);
    EXPECT_EQ(tessera::ompi::cart_rank_of(t, {0, 0, -1}), -1);
}

TEST(Cartesian, ShiftsWrapOrFallOffTheEdge)
{
    const Topology t = grid({3, 4}, {false, true});
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 0, 0, 1), 4);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 0, 0, -1), MPI_PROC_NULL);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 8, 0, 1), MPI_PROC_NULL);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 0, 1, -1), 3);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 3, 1, 1), 0);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 0, 1, 4 * 1000 + 1), 1);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 0, 0, 1 << 30), MPI_PROC_NULL);
    EXPECT_EQ(tessera::ompi::cart_shifted(t, 4, 0, -(1 << 30)), MPI_PROC_NULL);
}

/* For every pair of processes, the sends of one to the other (in send order) matched in order with the
 * receives posted by the other (in block order) pair each receive block with the block the standard
 * says: my -1 neighbour's +1 block in my -1 block, and back — also when both neighbours are one
 * process. */
TEST(Cartesian, NeighbourhoodsPairTheStandardsBlocks)
{
    for (int a = 1; a <= 3; ++a) {
        for (int b = 1; b <= 3; ++b) {
            for (int pa = 0; pa < 2; ++pa) {
                for (int pb = 0; pb < 2; ++pb) {
                    const Topology t = grid({a, b}, {pa != 0, pb != 0});
                    const int n = t.nodes();
                    std::vector<tessera::ompi::Neighborhood> hoods;
                    for (int r = 0; r < n; ++r) {
                        hoods.push_back(tessera::ompi::neighborhood(t, r));
                        ASSERT_EQ(hoods.back().sources.size(), 4u);
                        ASSERT_EQ(tessera::ompi::indegree(t, r), 4);
                        ASSERT_EQ(tessera::ompi::outdegree(t, r), 4);
                    }
                    for (int p = 0; p < n; ++p) {
                        for (int q = 0; q < n; ++q) {
                            std::vector<int> sent, received;
                            for (int j : hoods[static_cast<std::size_t>(p)].send_order) {
                                if (hoods[static_cast<std::size_t>(p)].destinations[static_cast<std::size_t>(j)] == q) {
                                    sent.push_back(j);
                                }
                            }
                            const auto &qs = hoods[static_cast<std::size_t>(q)].sources;
                            for (std::size_t i = 0; i < qs.size(); ++i) {
                                if (qs[i] == p) {
                                    received.push_back(static_cast<int>(i));
                                }
                            }
                            ASSERT_EQ(sent.size(), received.size()) << a << "x" << b << " " << p << "->" << q;
                            for (std::size_t k = 0; k < sent.size(); ++k) {
                                const int i = received[k];
                                EXPECT_EQ(sent[k], i % 2 == 0 ? i + 1 : i - 1)
                                    << a << "x" << b << " periods " << pa << pb << ": " << p << "->" << q;
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST(Graph, NeighboursComeFromTheIndex)
{
    Topology t;
    t.kind = MPI_GRAPH;
    t.index = {2, 3, 4, 6};
    t.edges = {1, 3, 0, 3, 0, 2};
    EXPECT_EQ(t.nodes(), 4);
    EXPECT_EQ(tessera::ompi::graph_neighbors(t, 0), (std::vector<int>{1, 3}));
    EXPECT_EQ(tessera::ompi::graph_neighbors(t, 1), (std::vector<int>{0}));
    EXPECT_EQ(tessera::ompi::graph_neighbors(t, 3), (std::vector<int>{0, 2}));
    const auto n = tessera::ompi::neighborhood(t, 3);
    EXPECT_EQ(n.sources, (std::vector<int>{0, 2}));
    EXPECT_EQ(n.destinations, n.sources);
    EXPECT_EQ(n.send_order, (std::vector<int>{0, 1}));
    EXPECT_EQ(tessera::ompi::indegree(t, 1), 1);
}

TEST(DistGraph, ListsAreTheProcesssOwn)
{
    Topology t;
    t.kind = MPI_DIST_GRAPH;
    t.sources = {4};
    t.destinations = {1, 2, 1};
    const auto n = tessera::ompi::neighborhood(t, 0);
    EXPECT_EQ(n.sources, t.sources);
    EXPECT_EQ(n.destinations, t.destinations);
    EXPECT_EQ(n.send_order, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(tessera::ompi::indegree(t, 0), 1);
    EXPECT_EQ(tessera::ompi::outdegree(t, 0), 3);
}
