/*
 * Thousands of random datatype trees (nesting up to 4, every constructor, negative and overlapping
 * displacements, resized bounds) built through the MPI functions of the native engine, checked against
 * the reference of type_reference.h: size, bounds and true bounds; MPI_Pack of whole messages and the
 * convertor over every split of the byte range into 1-7 pieces give the reference bytes; unpacking
 * (of types that name no byte twice) restores exactly the bytes the type names; round trips restore
 * the buffer. Runs once per datatype engine (interp, and jit where it is built).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "frameworks/dte/base/base.h"
#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/datatype/convertor.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/native_generated.h"
#include "type_reference.h"

namespace tessera::test::datatype {
namespace {

namespace native = tessera::ompi::native;
/* The int-count forms are generated from the MPI_Count ones (native_glue.cpp). */
namespace native_generated = tessera::ompi::native_generated;

const MPI_Datatype kBasic[] = {MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE, MPI_FLOAT, MPI_INT64_T};

class Generator {
public:
    explicit Generator(unsigned seed) : rng_(seed) {}

    /* A random type of at most `depth` levels and at most ~`budget` bytes of data per element. */
    MPI_Datatype make(int depth, long budget)
    {
        if (depth == 0 || budget < 16 || (depth < 4 && pick(5) == 0)) {
            return kBasic[pick(std::size(kBasic))];
        }
        MPI_Datatype child = make(depth - 1, budget / 4);
        int child_size = 0;
        native_generated::type_size(child, &child_size);
        const long room = std::max<long>(1, budget / std::max(child_size, 1));
        MPI_Datatype t = MPI_DATATYPE_NULL;
        const auto small = [&](long hi) { return static_cast<int>(1 + pick(static_cast<std::size_t>(std::max<long>(1, std::min<long>(hi, room))))); };
        MPI_Count lb = 0, ext = 0;
        native::type_get_extent_c(child, &lb, &ext);
        switch (pick(11)) {
        case 0:
            native_generated::type_contiguous(small(6), child, &t);
            break;
        case 1:
            native_generated::type_vector(small(4), small(3), static_cast<int>(pick(7)) - 2, child, &t); /* negative strides too */
            break;
        case 2:
            native_generated::type_create_hvector(small(4), small(2), static_cast<MPI_Aint>(pick(5)) * ext - ext, child, &t);
            break;
        case 3: {
            const int n = small(4);
            std::vector<int> bl(static_cast<std::size_t>(n)), d(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                bl[static_cast<std::size_t>(i)] = static_cast<int>(pick(3)); /* zero-length blocks too */
                d[static_cast<std::size_t>(i)] = static_cast<int>(pick(12)) - 3;
            }
            native_generated::type_indexed(n, bl.data(), d.data(), child, &t);
            break;
        }
        case 4: {
            const int n = small(4);
            std::vector<int> bl(static_cast<std::size_t>(n));
            std::vector<MPI_Aint> d(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                bl[static_cast<std::size_t>(i)] = small(3);
                d[static_cast<std::size_t>(i)] = static_cast<MPI_Aint>(pick(40)) - 8; /* overlapping, unaligned */
            }
            native_generated::type_create_hindexed(n, bl.data(), d.data(), child, &t);
            break;
        }
        case 5: {
            const int n = small(4);
            std::vector<int> d(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                d[static_cast<std::size_t>(i)] = static_cast<int>(pick(10)) * 2;
            }
            native_generated::type_create_indexed_block(n, small(2), d.data(), child, &t);
            break;
        }
        case 6: {
            const int n = small(3);
            std::vector<MPI_Aint> d(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                d[static_cast<std::size_t>(i)] = static_cast<MPI_Aint>(pick(6)) * ext - 2 * ext;
            }
            native_generated::type_create_hindexed_block(n, small(2), d.data(), child, &t);
            break;
        }
        case 7: {
            const int n = 1 + static_cast<int>(pick(3));
            std::vector<int> bl(static_cast<std::size_t>(n));
            std::vector<MPI_Aint> d(static_cast<std::size_t>(n));
            std::vector<MPI_Datatype> ts(static_cast<std::size_t>(n));
            MPI_Aint at = 0;
            for (int i = 0; i < n; ++i) {
                ts[static_cast<std::size_t>(i)] = i == 0 ? child : kBasic[pick(std::size(kBasic))];
                MPI_Count l = 0, e = 0;
                native::type_get_extent_c(ts[static_cast<std::size_t>(i)], &l, &e);
                bl[static_cast<std::size_t>(i)] = small(2);
                d[static_cast<std::size_t>(i)] = at;
                at += bl[static_cast<std::size_t>(i)] * e + static_cast<MPI_Aint>(pick(3)); /* padding */
            }
            native_generated::type_create_struct(n, bl.data(), d.data(), ts.data(), &t);
            break;
        }
        case 8: {
            const int nd = 1 + static_cast<int>(pick(3));
            std::vector<int> sizes(static_cast<std::size_t>(nd)), sub(static_cast<std::size_t>(nd)), start(static_cast<std::size_t>(nd));
            for (int i = 0; i < nd; ++i) {
                sizes[static_cast<std::size_t>(i)] = 1 + static_cast<int>(pick(5));
                sub[static_cast<std::size_t>(i)] = 1 + static_cast<int>(pick(static_cast<std::size_t>(sizes[static_cast<std::size_t>(i)])));
                start[static_cast<std::size_t>(i)] = static_cast<int>(pick(static_cast<std::size_t>(sizes[static_cast<std::size_t>(i)] - sub[static_cast<std::size_t>(i)] + 1)));
            }
            native_generated::type_create_subarray(nd, sizes.data(), sub.data(), start.data(), pick(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN,
                                         child, &t);
            break;
        }
        case 9:
            native_generated::type_create_resized(child, static_cast<MPI_Aint>(pick(5)) - 2, ext + static_cast<MPI_Aint>(pick(9)), &t);
            break;
        default:
            native::type_dup(child, &t);
            break;
        }
        release(child);
        return t;
    }

    static void release(MPI_Datatype t)
    {
        int ni = 0, na = 0, nd = 0, c = 0;
        native::type_get_envelope(t, &ni, &na, &nd, &c);
        if (c != MPI_COMBINER_NAMED) {
            native::type_free(&t);
        }
    }

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    std::mt19937 &rng() { return rng_; }

private:
    std::mt19937 rng_;
};

class TypeProperty : public ::testing::TestWithParam<const char *> {
protected:
    void SetUp() override
    {
        tessera::mca::report_set_print(false);
#ifdef DTE_COMPONENT_DIR
        tessera::mca::set_command_line("mca_component_path", DTE_COMPONENT_DIR);
#endif
        tessera::mca::set_command_line("dte", GetParam());
        /* Every type compiled at commit: the checks then run the compiled code, not the interpreter
         * serving types whose code is not ready yet. */
        tessera::mca::set_command_line("dte_jit_compile", "sync");
    }
    void TearDown() override
    {
        tessera::mca::frameworks_finalize();
        tessera::mca::vars_finalize();
    }
};

/* Cut points splitting [0, total) into `pieces` ranges. */
std::vector<std::size_t> cuts(Generator &g, std::size_t total, std::size_t pieces)
{
    std::vector<std::size_t> c{0, total};
    for (std::size_t i = 1; i < pieces && total > 0; ++i) {
        c.push_back(g.pick(total + 1));
    }
    std::sort(c.begin(), c.end());
    return c;
}

TEST_P(TypeProperty, RandomTreesMatchTheReference)
{
    Generator g(20261125u);
    int checked = 0, derived = 0;
    std::size_t bytes = 0;
    for (int iter = 0; iter < 2000; ++iter) {
        MPI_Datatype t = g.make(4, 16384);
        MPI_Datatype committed = t;
        ASSERT_EQ(native::type_commit(&committed), MPI_SUCCESS);
        const TypeMap ref = reference_map(t);
        int size = 0;
        MPI_Count lb = 0, extent = 0, tlb = 0, textent = 0;
        native_generated::type_size(t, &size);
        native::type_get_extent_c(t, &lb, &extent);
        native::type_get_true_extent_c(t, &tlb, &textent);
        SCOPED_TRACE("iteration " + std::to_string(iter));
        ASSERT_EQ(size, ref.size());
        ASSERT_EQ(lb, ref.lb);
        ASSERT_EQ(extent, ref.ub - ref.lb);
        if (size > 0) {
            ASSERT_EQ(tlb, ref.true_lb());
            ASSERT_EQ(tlb + textent, ref.true_ub());
        }
        const std::size_t count = g.pick(4);
        /* a buffer covering every element's bytes, wherever the bounds put them */
        const std::int64_t lo = std::min<std::int64_t>(0, std::min(ref.true_lb(), ref.true_lb() + (static_cast<std::int64_t>(count) - 1) * extent));
        const std::int64_t hi = std::max(ref.true_ub(), ref.true_ub() + (static_cast<std::int64_t>(count) - 1) * extent);
        std::vector<unsigned char> mem(static_cast<std::size_t>(hi - lo + 16));
        for (std::size_t i = 0; i < mem.size(); ++i) {
            mem[i] = static_cast<unsigned char>(i * 7 + 3);
        }
        unsigned char *base = mem.data() - lo;
        const std::vector<unsigned char> expect = reference_pack(ref, base, count);
        ASSERT_EQ(expect.size(), count * static_cast<std::size_t>(size));

        std::vector<unsigned char> packed(expect.size() + 1, 0xee);
        MPI_Count pos = 0;
        ASSERT_EQ(native::pack_c(base, static_cast<int>(count), t, packed.data(), static_cast<int>(packed.size()), &pos,
                               MPI_COMM_SELF),
                  MPI_SUCCESS);
        ASSERT_EQ(static_cast<std::size_t>(pos), expect.size());
        ASSERT_TRUE(std::equal(expect.begin(), expect.end(), packed.begin())) << "MPI_Pack differs";

        const tessera::ompi::Datatype *dt = tessera::ompi::datatype_lookup(t);
        for (std::size_t pieces = 1; pieces <= 7; ++pieces) {
            std::vector<unsigned char> out(expect.size(), 0);
            const std::vector<std::size_t> c = cuts(g, expect.size(), pieces);
            std::vector<std::size_t> order(c.size() - 1);
            for (std::size_t i = 0; i < order.size(); ++i) {
                order[i] = i;
            }
            std::shuffle(order.begin(), order.end(), g.rng()); /* fragments come in any order */
            for (std::size_t i : order) {
                tessera::ompi::convertor_pack(base, count, *dt, c[i], out.data() + c[i], c[i + 1] - c[i]);
            }
            ASSERT_EQ(out, expect) << "packing in " << pieces << " pieces";
        }
        if (!ref.overlaps()) {
            /* unpack into a fresh buffer, in pieces, and compare every byte with the reference's scatter */
            std::vector<unsigned char> got(mem.size(), 0x5a), want(mem.size(), 0x5a);
            reference_unpack(ref, expect.data(), want.data() - lo, count);
            const std::vector<std::size_t> c = cuts(g, expect.size(), 1 + g.pick(7));
            for (std::size_t i = 0; i + 1 < c.size(); ++i) {
                tessera::ompi::convertor_unpack(got.data() - lo, count, *dt, c[i], expect.data() + c[i], c[i + 1] - c[i]);
            }
            ASSERT_EQ(got, want) << "unpacking";
            /* a round trip through MPI_Unpack restores the buffer */
            std::vector<unsigned char> back(mem.size(), 0);
            pos = 0;
            ASSERT_EQ(native::unpack_c(packed.data(), pos + static_cast<MPI_Count>(expect.size()), &pos,
                                       back.data() - lo, static_cast<int>(count), t, MPI_COMM_SELF),
                      MPI_SUCCESS);
            std::vector<unsigned char> repacked(expect.size());
            pos = 0;
            native::pack_c(back.data() - lo, static_cast<int>(count), t, repacked.data(),
                           static_cast<int>(repacked.size()), &pos, MPI_COMM_SELF);
            ASSERT_EQ(repacked, expect) << "round trip";
        }
        int ni = 0, na = 0, nd = 0, combiner = 0;
        native::type_get_envelope(t, &ni, &na, &nd, &combiner);
        derived += combiner != MPI_COMBINER_NAMED;
        bytes += expect.size();
        Generator::release(t);
        ++checked;
    }
    EXPECT_EQ(checked, 2000);
    EXPECT_EQ(derived, 2000) << "the generator should make mostly derived types";
    std::printf("%d types, %d derived, %zu packed bytes\n", checked, derived, bytes);
}

#ifdef DTE_HAVE_JIT
INSTANTIATE_TEST_SUITE_P(Engines, TypeProperty, ::testing::Values("interp", "jit"));
#else
INSTANTIATE_TEST_SUITE_P(Engines, TypeProperty, ::testing::Values("interp"));
#endif

} // namespace
} // namespace tessera::test::datatype
