/*
 * Property tests of the base program against the reference (dte_reference.h) over thousands of random
 * descriptions and counts 0..5: the whole stream and every split of it into 1..7 pieces (packed in a
 * random order, as fragments may be) equal the reference; unpacking writes exactly the reference's bytes;
 * a round trip restores the buffer.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "dte_reference.h"
#include "frameworks/dte/base/dte_base_program.h"

namespace tessera::test::dte {
namespace {

struct ProgramDeleter {
    void operator()(mca_dte_base_program_t *p) const { mca_dte_base_program_free(p); }
};
using Program = std::unique_ptr<mca_dte_base_program_t, ProgramDeleter>;

Program build(const Desc &d)
{
    mca_dte_base_program_t *p = nullptr;
    const mca_dte_type_desc_t t = d.desc();
    EXPECT_EQ(mca_dte_base_program_create(&t, &p), TESSERA_SUCCESS) << d.dump();
    return Program(p);
}

/* Sorted cut points splitting [0, total) into `pieces` ranges (some may be empty). */
std::vector<uint64_t> cuts(std::mt19937_64 &rng, uint64_t total, int pieces)
{
    std::vector<uint64_t> c{0, total};
    for (int i = 1; i < pieces; ++i) {
        c.push_back(std::uniform_int_distribution<uint64_t>(0, total)(rng));
    }
    std::sort(c.begin(), c.end());
    return c;
}

/* The pieces' indices in a random order. */
std::vector<size_t> shuffled(std::mt19937_64 &rng, size_t n)
{
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

void fill_random(std::mt19937_64 &rng, std::vector<unsigned char> &bytes)
{
    for (auto &b : bytes) {
        b = static_cast<unsigned char>(rng());
    }
}

constexpr int kDescriptions = 10000;

TEST(DteProgramProperty, PackEqualsReferenceForWholeRangeAndEverySplit)
{
    std::mt19937_64 rng(0x7e55e7a);
    for (int n = 0; n < kDescriptions; ++n) {
        const Desc d = random_desc(rng, /*disjoint=*/n % 2 == 0);
        const Program p = build(d);
        ASSERT_NE(p, nullptr);
        ASSERT_EQ(mca_dte_base_program_size(p.get()), d.size) << d.dump();
        for (size_t count = 0; count <= 5; ++count) {
            const std::vector<ByteRun> runs = reference_runs(d, count);
            Buffer mem(runs);
            fill_random(rng, mem.bytes);
            const std::vector<unsigned char> expected = reference_pack(runs, mem.origin());
            const uint64_t total = d.size * count;
            ASSERT_EQ(expected.size(), total);

            std::vector<unsigned char> out(total + 1, 0xA5);
            ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, 0, out.data(), total), TESSERA_SUCCESS);
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin())) << d.dump() << " count " << count;
            ASSERT_EQ(out[total], 0xA5) << "wrote past the range: " << d.dump();

            for (int pieces = 1; pieces <= 7; ++pieces) {
                const std::vector<uint64_t> c = cuts(rng, total, pieces);
                std::fill(out.begin(), out.end(), 0xA5);
                for (size_t i : shuffled(rng, c.size() - 1)) {
                    ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, c[i], out.data() + c[i],
                                                        c[i + 1] - c[i]),
                              TESSERA_SUCCESS);
                }
                ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()))
                    << d.dump() << " count " << count << " pieces " << pieces;
                ASSERT_EQ(out[total], 0xA5);
            }
        }
    }
}

TEST(DteProgramProperty, UnpackEqualsReferenceAndRoundTripRestores)
{
    std::mt19937_64 rng(0xd15c0);
    for (int n = 0; n < kDescriptions; ++n) {
        const Desc d = random_desc(rng, /*disjoint=*/true);
        ASSERT_FALSE(overlapping(reference_runs(d, 5))) << "generator: " << d.dump();
        const Program p = build(d);
        ASSERT_NE(p, nullptr);
        for (size_t count = 0; count <= 5; ++count) {
            const std::vector<ByteRun> runs = reference_runs(d, count);
            const uint64_t total = d.size * count;
            std::vector<unsigned char> stream(total);
            fill_random(rng, stream);

            /* Into a zeroed buffer: the reference's bytes, and nothing written anywhere else. */
            Buffer expected(runs);
            reference_unpack(runs, expected.origin(), stream);
            for (int pieces = 1; pieces <= 7; ++pieces) {
                Buffer got(runs);
                const std::vector<uint64_t> c = cuts(rng, total, pieces);
                for (size_t i : shuffled(rng, c.size() - 1)) {
                    ASSERT_EQ(mca_dte_base_program_unpack(p.get(), got.origin(), count, c[i], stream.data() + c[i],
                                                          c[i + 1] - c[i]),
                              TESSERA_SUCCESS);
                }
                ASSERT_EQ(got.bytes, expected.bytes) << d.dump() << " count " << count << " pieces " << pieces;
            }

            /* Pack, scribble over the data, unpack: the buffer is as it was. */
            Buffer original(runs);
            fill_random(rng, original.bytes);
            std::vector<unsigned char> packed(total);
            ASSERT_EQ(mca_dte_base_program_pack(p.get(), original.origin(), count, 0, packed.data(), total),
                      TESSERA_SUCCESS);
            Buffer restored = original;
            reference_unpack(runs, restored.origin(), std::vector<unsigned char>(total, 0xEE));
            ASSERT_EQ(mca_dte_base_program_unpack(p.get(), restored.origin(), count, 0, packed.data(), total),
                      TESSERA_SUCCESS);
            ASSERT_EQ(restored.bytes, original.bytes) << d.dump() << " count " << count;
        }
    }
}

} // namespace
} // namespace tessera::test::dte
