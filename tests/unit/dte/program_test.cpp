/*
 * The base program on hand-written types: the shapes that take the fast paths (contiguous, vectors,
 * small fixed block sizes, elements that continue each other), negative displacements, resuming inside
 * a block, and the errors a caller can get.
 */
#include <gtest/gtest.h>

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

Desc make(std::vector<mca_dte_elem_t> elems, int64_t extent)
{
    Desc d;
    d.elems = std::move(elems);
    d.extent = extent;
    finish(d);
    return d;
}

Program build(const Desc &d)
{
    mca_dte_base_program_t *p = nullptr;
    const mca_dte_type_desc_t t = d.desc();
    EXPECT_EQ(mca_dte_base_program_create(&t, &p), TESSERA_SUCCESS) << d.dump();
    return Program(p);
}

/* `count` elements of d in memory filled with first, first + 1, ..., and the stream the reference packs
 * from it. */
struct Filled {
    Filled(const Desc &d, size_t count, unsigned char first) : runs(reference_runs(d, count)), mem(runs)
    {
        std::iota(mem.bytes.begin(), mem.bytes.end(), first);
        stream = reference_pack(runs, mem.origin());
    }
    std::vector<ByteRun> runs;
    Buffer mem;
    std::vector<unsigned char> stream;
};

/* Every (offset, length) range of `count` elements packs as the reference says. */
void expect_all_ranges_pack(const Desc &d, size_t count)
{
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    Filled f(d, count, 1);
    Buffer &mem = f.mem;
    const std::vector<unsigned char> &expected = f.stream;
    const size_t total = expected.size();
    for (size_t off = 0; off <= total; ++off) {
        for (size_t len = 0; off + len <= total; ++len) {
            std::vector<unsigned char> out(len);
            ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, off, out.data(), len), TESSERA_SUCCESS);
            ASSERT_TRUE(std::equal(out.begin(), out.end(), expected.begin() + static_cast<std::ptrdiff_t>(off)))
                << d.dump() << " offset " << off << " length " << len;
        }
    }
}

/* Unpacking `count` elements in two calls cut at each of `splits` (the second part first) fills memory
 * as the reference does. */
void expect_unpack_from_splits(const Desc &d, size_t count, const std::vector<size_t> &splits)
{
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    const std::vector<ByteRun> runs = reference_runs(d, count);
    Buffer want(runs);
    std::vector<unsigned char> stream(count * d.desc().size);
    std::iota(stream.begin(), stream.end(), 1);
    reference_unpack(runs, want.origin(), stream);
    for (size_t split : splits) {
        Buffer got(runs);
        ASSERT_EQ(mca_dte_base_program_unpack(p.get(), got.origin(), count, split, stream.data() + split,
                                              stream.size() - split), TESSERA_SUCCESS);
        ASSERT_EQ(mca_dte_base_program_unpack(p.get(), got.origin(), count, 0, stream.data(), split), TESSERA_SUCCESS);
        EXPECT_EQ(got.bytes, want.bytes) << "split at " << split;
    }
}

TEST(DteProgram, ContiguousTypePacksEveryRange)
{
    expect_all_ranges_pack(make({blocks(1, 12, 0, 12)}, 12), 4);
}

TEST(DteProgram, ContiguousBlockWithGapsBetweenElements)
{
    expect_all_ranges_pack(make({blocks(1, 8, 4, 8)}, 20), 3);
}

TEST(DteProgram, AdjacentBlocksAndLoopOverContiguousBodyAreOneRun)
{
    /* Two adjacent blocks, then a loop whose body is exactly contiguous at stride == body size. */
    expect_all_ranges_pack(make({blocks(1, 3, 0, 3), blocks(1, 5, 3, 5), loop(4, 6, 2), blocks(1, 2, 8, 2),
                                 blocks(1, 4, 10, 4), end_loop()},
                                32),
                           3);
}

/* Two or three equal blocks or vectors side by side, at every relative position around "continues the
 * one before": the program merges exactly those that continue each other. */
TEST(DteProgram, NeighbouringBlocksAndVectorsMergeOnlyWhenTheyContinue)
{
    const int64_t strides[] = {-8, -4, 4, 8, 12};
    for (uint64_t ca : {1u, 3u}) {
        for (uint64_t cb : {1u, 3u}) {
            for (int64_t sa : strides) {
                for (int64_t sb : strides) {
                    for (int64_t db = -28; db <= 28; db += 4) {
                        SCOPED_TRACE(testing::Message() << ca << " " << cb << " " << sa << " " << sb << " " << db);
                        expect_all_ranges_pack(make({blocks(ca, 4, 0, sa), blocks(cb, 4, db, sb)}, 64), 2);
                        expect_all_ranges_pack(
                            make({blocks(ca, 4, 0, sa), blocks(cb, 4, db, sb), blocks(1, 4, db + 2 * sb, 4)}, 64), 1);
                    }
                }
            }
        }
    }
}

TEST(DteProgram, VectorsOfEveryFixedBlockSize)
{
    for (uint64_t len : {1u, 2u, 4u, 8u, 16u, 3u, 5u}) {
        SCOPED_TRACE(len);
        expect_all_ranges_pack(make({blocks(4, len, 0, static_cast<int64_t>(len) + 3)}, 4 * (len + 3)), 2);
        expect_all_ranges_pack(make({blocks(3, len, 0, static_cast<int64_t>(len) + 1)}, 100), 2);
    }
}

/* Blocks of a multiple of 32 bytes (rows of a subarray) unpack by 32-byte moves: every split of the
 * stream into a head and a tail, including splits inside a block and inside a 32-byte piece, puts each
 * byte where the reference does and touches nothing between the blocks. */
TEST(DteProgram, RowsOfWholeThirtyTwoBytePiecesUnpackFromAnySplit)
{
    for (uint64_t len : {96u, 512u, 2048u, 2080u}) {
        SCOPED_TRACE(len);
        const Desc d = make({blocks(3, len, 8, static_cast<int64_t>(len) + 40)}, 3 * (static_cast<int64_t>(len) + 40));
        expect_unpack_from_splits(d, 2, {0, 1, 31, 32, len - 5, len, 3 * len + 17, 6 * len});
    }
}

TEST(DteProgram, NegativeDisplacementsAndStrides)
{
    expect_all_ranges_pack(make({blocks(3, 4, -4, -8), loop(2, -20, 1), blocks(2, 2, 1, 3), end_loop()}, 48), 3);
}

TEST(DteProgram, NestedLoopsResumeInsideBlocks)
{
    expect_all_ranges_pack(make({loop(3, 64, 4), blocks(1, 1, 0, 1), loop(2, 16, 1), blocks(2, 5, 2, 7), end_loop(),
                                 end_loop()},
                                200),
                           2);
}

TEST(DteProgram, NegativeExtentWalksElementsDownwards)
{
    expect_all_ranges_pack(make({blocks(2, 4, 0, 6)}, -12), 3);
}

/* Resuming looks the position up instead of walking to it: a fragment at the end of a stream of 2^40
 * elements (all at the same address: extent 0) of 3000 scattered blocks packs at once. */
TEST(DteProgram, FragmentDeepInAHugeStreamPacksAtOnce)
{
    std::vector<mca_dte_elem_t> elems;
    for (int64_t i = 0; i < 3000; ++i) {
        elems.push_back(blocks(1, 1 + static_cast<uint64_t>(i % 3), i * 5 + (i * i) % 3, 1));
    }
    const Desc d = make(elems, 0);
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    Filled f(d, 1, 3);
    Buffer &mem = f.mem;
    const std::vector<unsigned char> &one = f.stream;
    const size_t count = size_t{1} << 40;
    for (size_t back = 1; back <= 4000; back += 37) {
        const size_t offset = count * d.size - back;
        std::vector<unsigned char> out(back);
        ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, offset, out.data(), back), TESSERA_SUCCESS);
        for (size_t j = 0; j < back; ++j) {
            ASSERT_EQ(out[j], one[(offset + j) % d.size]) << back << " " << j;
        }
    }
}

/* MPI_BOTTOM: a NULL buffer and absolute addresses as displacements. */
TEST(DteProgram, AbsoluteAddressesFromANullBuffer)
{
    unsigned char mem[64];
    std::iota(mem, mem + 64, 0);
    const auto base = static_cast<int64_t>(reinterpret_cast<uintptr_t>(mem));
    const Desc d = make({blocks(2, 4, base + 4, 16), blocks(1, 2, base + 40, 2)}, 8);
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    std::vector<unsigned char> out(10);
    ASSERT_EQ(mca_dte_base_program_pack(p.get(), nullptr, 1, 0, out.data(), 10), TESSERA_SUCCESS);
    EXPECT_EQ(out, (std::vector<unsigned char>{4, 5, 6, 7, 20, 21, 22, 23, 40, 41}));
    std::vector<unsigned char> in(10, 0xFF);
    ASSERT_EQ(mca_dte_base_program_unpack(p.get(), nullptr, 1, 3, in.data(), 6), TESSERA_SUCCESS);
    EXPECT_EQ(mem[7], 0xFF);
    EXPECT_EQ(mem[20], 0xFF);
    EXPECT_EQ(mem[40], 0xFF);
    EXPECT_EQ(mem[6], 6);
    EXPECT_EQ(mem[41], 41);
}

/* Displacements whose differences overflow 64 bits are kept apart, not merged by a wrapped sum. */
TEST(DteProgram, DisplacementsAtTheEndsOfTheRangeBuild)
{
    Desc d;
    d.elems = {blocks(1, 1, INT64_MIN + 1, 1), blocks(1, 1, INT64_MAX - 1, 1), blocks(2, 1, INT64_MIN + 3, INT64_MAX)};
    d.size = 4;
    d.extent = 1;
    const Program p = build(d);
    EXPECT_NE(p, nullptr);
}

TEST(DteProgram, EmptyTypePacksNothing)
{
    const Desc d = make({blocks(0, 8, 0, 8), loop(3, 4, 1), blocks(2, 0, 0, 1), end_loop()}, 0);
    EXPECT_EQ(d.size, 0u);
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), nullptr, 5, 0, nullptr, 0), TESSERA_SUCCESS);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), nullptr, 5, 0, nullptr, 1), TESSERA_ERR_BAD_PARAM);
}

TEST(DteProgram, RangeBeyondTheStreamIsBadParam)
{
    const Desc d = make({blocks(2, 4, 0, 8)}, 16);
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    std::vector<unsigned char> mem(64), out(64);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), mem.data(), 3, 0, out.data(), 24), TESSERA_SUCCESS);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), mem.data(), 3, 0, out.data(), 25), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), mem.data(), 3, 20, out.data(), 5), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), mem.data(), 3, 25, out.data(), 0), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_dte_base_program_unpack(p.get(), mem.data(), 3, 24, out.data(), 1), TESSERA_ERR_BAD_PARAM);
    EXPECT_EQ(mca_dte_base_program_unpack(p.get(), mem.data(), 0, 0, out.data(), 1), TESSERA_ERR_BAD_PARAM);
    /* offset + length wrapping around is not a small range */
    EXPECT_EQ(mca_dte_base_program_pack(p.get(), mem.data(), 3, 8, out.data(), SIZE_MAX), TESSERA_ERR_BAD_PARAM);
}

TEST(DteProgram, MalformedDescriptionsAreRefused)
{
    const std::vector<std::vector<mca_dte_elem_t>> bad = {
        {loop(2, 8, 1), blocks(1, 4, 0, 4)},                     /* no END_LOOP */
        {blocks(1, 4, 0, 4), end_loop()},                        /* END_LOOP without LOOP */
        {loop(2, 8, 0), end_loop()},                             /* zero items */
        {loop(2, 8, 2), blocks(1, 4, 0, 4), end_loop()},         /* items run past the END_LOOP */
        {mca_dte_elem_t{99, 0, 1, 1, 0, 1}},                     /* unknown op */
    };
    for (const auto &elems : bad) {
        Desc d;
        d.elems = elems;
        d.size = 4;
        const mca_dte_type_desc_t t = d.desc();
        mca_dte_base_program_t *p = nullptr;
        EXPECT_EQ(mca_dte_base_program_create(&t, &p), TESSERA_ERR_BAD_PARAM) << d.dump();
        EXPECT_EQ(p, nullptr);
    }
    /* A size that disagrees with the blocks. */
    Desc d = make({blocks(2, 4, 0, 8)}, 16);
    d.size = 7;
    const mca_dte_type_desc_t t = d.desc();
    mca_dte_base_program_t *p = nullptr;
    EXPECT_EQ(mca_dte_base_program_create(&t, &p), TESSERA_ERR_BAD_PARAM);
}

TEST(DteProgram, UnpackOfAVectorTouchesOnlyItsBlocks)
{
    const Desc d = make({blocks(3, 2, 1, 5)}, 15);
    const Program p = build(d);
    ASSERT_NE(p, nullptr);
    std::vector<unsigned char> mem(30, 0);
    const std::vector<unsigned char> stream = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    /* Second half first: fragments may arrive in any order. */
    ASSERT_EQ(mca_dte_base_program_unpack(p.get(), mem.data(), 2, 5, stream.data() + 5, 7), TESSERA_SUCCESS);
    ASSERT_EQ(mca_dte_base_program_unpack(p.get(), mem.data(), 2, 0, stream.data(), 5), TESSERA_SUCCESS);
    const std::vector<unsigned char> want = {0, 1, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5, 6, 0, 0,
                                             0, 7, 8, 0, 0, 0, 9, 10, 0, 0, 0, 11, 12, 0, 0};
    EXPECT_EQ(mem, want);
}

/* Runs of single blocks of one length at irregular displacements (indexed_block) become one table of
 * displacements: every range of them, at the top and inside a loop, of every fixed and a generic block
 * size, with negative displacements and a run broken by a block of another length. */
TEST(DteProgram, IrregularBlocksOfOneLengthPackFromATable)
{
    for (uint64_t len : {1u, 4u, 8u, 24u, 32u, 64u, 5u}) {
        SCOPED_TRACE(len);
        const int64_t l = static_cast<int64_t>(len);
        std::vector<mca_dte_elem_t> run;
        const int64_t gaps[] = {3, 0, 7, 1, 12, 2, 5, 9, 4, 6, 11, 0, 2, 8, 1, 3, 0, 5, 2, 6, 1, 4};
        int64_t d = -3 * l;
        for (int64_t g : gaps) {
            run.push_back(blocks(1, len, d, l));
            d += l + g;
        }
        const int64_t span = d + 3 * l;
        expect_all_ranges_pack(make(run, span + 8), 2);
        std::vector<mca_dte_elem_t> nested = {loop(2, span + 4, static_cast<uint32_t>(run.size()))};
        nested.insert(nested.end(), run.begin(), run.end());
        nested.push_back(end_loop());
        nested.push_back(blocks(1, 3, 2 * (span + 4), 3));
        expect_all_ranges_pack(make(nested, 2 * (span + 4) + 3), 1);
        std::vector<mca_dte_elem_t> broken = run;
        broken.insert(broken.begin() + 4, blocks(1, len + 1, d + 40, len + 1));
        expect_all_ranges_pack(make(broken, d + 40 + l + 1), 1);
    }
}

/* Blocks of one length that touch merge into longer ones (indexed_block with zero gaps): blocks of up
 * to four units join the table cut into units; a run with a longer block keeps the old rule. Every
 * range packs, and unpacks from every split, as the reference says. */
TEST(DteProgram, TouchingBlocksJoinTheTableCutIntoUnits)
{
    for (uint64_t longest : {4u, 5u}) {
        SCOPED_TRACE(longest);
        const int64_t l = 8;
        std::vector<mca_dte_elem_t> run;
        const uint64_t units[] = {1, 2, 1, 3, 1, 1, longest, 1, 2, 1, 1, 3, 1};
        int64_t d = -2 * l;
        for (uint64_t u : units) {
            run.push_back(blocks(1, u * 8, d, static_cast<int64_t>(u) * l));
            d += static_cast<int64_t>(u) * l + 5;
        }
        const Desc desc = make(run, d + 2 * l);
        expect_all_ranges_pack(desc, 2);
        std::vector<size_t> splits;
        for (size_t split = 0; split <= 2 * desc.desc().size; split += 3) {
            splits.push_back(split);
        }
        expect_unpack_from_splits(desc, 2, splits);
    }
}

/* Irregular blocks of changing lengths become a ragged table (each block's displacement and packed
 * start), with a stretch of one length in the middle as an Indexed table of its own: every length class
 * of the short copy (1 to 128 bytes, and memcpy above), negative displacements, at the top and inside a
 * loop; every range packs, and unpacks from every split, as the reference says. */
TEST(DteProgram, IrregularBlocksOfChangingLengthsPackFromARaggedTable)
{
    std::vector<mca_dte_elem_t> run;
    const uint64_t lens[] = {3, 1, 17, 2, 8, 65, 5, 33, 16, 129, 7, 12, 12, 12, 12, 12, 12, 12, 12, 12,
                             64, 31, 4, 100, 9, 128, 32, 6, 200, 15};
    int64_t d = -50;
    for (uint64_t len : lens) {
        run.push_back(blocks(1, len, d, static_cast<int64_t>(len)));
        d += static_cast<int64_t>(len) + 1 + static_cast<int64_t>(len % 5);
    }
    const Desc flat = make(run, d + 60);
    expect_all_ranges_pack(flat, 2);
    std::vector<size_t> splits;
    for (size_t split = 0; split <= 2 * flat.desc().size; ++split) {
        splits.push_back(split);
    }
    expect_unpack_from_splits(flat, 2, splits);

    std::vector<mca_dte_elem_t> nested = {loop(2, d + 70, static_cast<uint32_t>(run.size()))};
    nested.insert(nested.end(), run.begin(), run.end());
    nested.push_back(end_loop());
    expect_all_ranges_pack(make(nested, 2 * (d + 70)), 1);
}

/* An irregular indexed type of 400000 blocks of changing lengths builds in time linear in its blocks
 * (a quadratic gathering of table runs took 0.6 s for 15000 blocks, and would take minutes here: the
 * test's timeout catches it) and packs as the reference says. */
TEST(DteProgram, LongIrregularIndexedBuildsAndPacks)
{
    std::vector<mca_dte_elem_t> elems;
    uint32_t x = 7;
    int64_t d = 0;
    for (int i = 0; i < 400000; ++i) {
        x = x * 1103515245u + 12345u;
        const uint64_t len = 8 * (1 + (x >> 16) % 16);
        elems.push_back(blocks(1, len, d, static_cast<int64_t>(len)));
        d += static_cast<int64_t>(len) + 8 * static_cast<int64_t>((x >> 8) % 3);
    }
    const Desc desc = make(elems, d);
    const Program p = build(desc);
    ASSERT_NE(p, nullptr);
    Filled f(desc, 1, 1);
    std::vector<unsigned char> out(f.stream.size());
    ASSERT_EQ(mca_dte_base_program_pack(p.get(), f.mem.origin(), 1, 0, out.data(), out.size()), TESSERA_SUCCESS);
    EXPECT_EQ(out, f.stream);
}

} // namespace
} // namespace tessera::test::dte
