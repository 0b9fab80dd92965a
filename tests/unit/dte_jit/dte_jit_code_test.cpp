/*
 * dte jit: compiled pack/unpack of whole elements for random normalized descriptions (loops nested up to
 * 4 deep, negative displacements and strides) against the reference walker, at every optimization
 * level; special shapes; malformed descriptions; compile time and pack throughput figures.
 */
#include "dte_jit_test_util.h"

namespace dte_jit_test {
namespace {

/* ---- compiled code against the reference -------------------------------------------------------- */

void check_compiled(const mca_dte_type_desc_t &t, jit::CodeEntry &entry, std::mt19937 &rng, const std::string &what)
{
    ASSERT_TRUE(entry.ready()) << what;
    const size_t count = 5;
    Buffer src(t, count, rng);
    for (auto [first, n] : {std::pair<uint64_t, uint64_t>{0, 5}, {0, 1}, {2, 3}, {4, 1}, {1, 0}}) {
        const auto expect = reference_pack(t, src.base, first, n);
        for (jit::pack_fn_t pack : {entry.pack.load(), entry.pack_paced.load()}) {
            if (pack == nullptr)
                continue;
            const std::string how = pack == entry.pack.load() ? " pack " : " paced pack ";
            std::vector<char> out(expect.size() + 16, 'x');
            pack(src.base, first, n, out.data());
            ASSERT_TRUE(std::equal(expect.begin(), expect.end(), out.begin())) << what << how << first << "+" << n;
            ASSERT_EQ(std::string(16, 'x'), std::string(out.data() + expect.size(), 16)) << what << how << "wrote past the end";
        }

        Buffer want(t, count, rng), got(t, count, rng), paced_got(t, count, rng);
        got.bytes = want.bytes;
        paced_got.bytes = want.bytes;
        reference_unpack(t, want.base, first, n, expect.data());
        entry.unpack.load()(got.base, first, n, expect.data());
        ASSERT_EQ(want.bytes, got.bytes) << what << " unpack " << first << "+" << n;
        if (jit::unpack_fn_t paced = entry.unpack_paced.load()) {
            paced(paced_got.base, first, n, expect.data());
            ASSERT_EQ(want.bytes, paced_got.bytes) << what << " paced unpack " << first << "+" << n;
        }
    }
}

TEST_F(DteJit, CompiledCodeEqualsReferenceWalker)
{
    Generator gen(12345);
    for (int i = 0; i < 150; ++i) {
        std::vector<mca_dte_elem_t> elems;
        const auto t = gen.type(&elems, 4);
        auto entry = compile(t);
        ASSERT_NE(entry, nullptr) << "type " << i;
        check_compiled(t, *entry, gen.rng(), "type " + std::to_string(i));
    }
}

TEST_F(DteJit, EveryOptimizationLevelIsCorrect)
{
    for (int opt : {jit::kOptNone, jit::kOptFull}) {
        jit::compiler_stop(); /* a new engine reads the new level */
        jit::params.opt = opt;
        ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
        Generator gen(777 + opt);
        for (int i = 0; i < 20; ++i) {
            std::vector<mca_dte_elem_t> elems;
            const auto t = gen.type(&elems, 4);
            auto entry = compile(t);
            ASSERT_NE(entry, nullptr);
            check_compiled(t, *entry, gen.rng(), "opt " + std::to_string(opt) + " type " + std::to_string(i));
        }
    }
}

/* Rows are copied by straight-line moves up to 256 bytes, then by a loop of 32-byte moves up to 8 KiB,
 * then by memcpy: both sides of each limit, in a vector and with a row 8 bytes longer after it (a loop
 * with a rest). */
TEST_F(DteJit, LongRowsPackAndUnpack)
{
    std::mt19937 rng(11);
    for (uint64_t len : {96u, 256u, 288u, 512u, 2048u, 2080u, 8184u, 8192u, 8224u}) {
        const int64_t stride = static_cast<int64_t>(len) + 40;
        std::vector<mca_dte_elem_t> rows = {{MCA_DTE_OP_BLOCKS, 0, 3, len, 8, stride},
                                            {MCA_DTE_OP_BLOCKS, 0, 1, len + 8, 3 * stride + 8, 0}};
        mca_dte_type_desc_t t{};
        t.elems = rows.data();
        t.elem_count = rows.size();
        t.size = 4 * len + 8;
        t.extent = 4 * stride + 16;
        t.true_lb = 8;
        t.true_ub = 3 * stride + 8 + static_cast<int64_t>(len) + 8;
        auto entry = compile(t);
        ASSERT_NE(entry, nullptr);
        check_compiled(t, *entry, rng, "rows of " + std::to_string(len));
    }
}

/* The paced unpack (dte_jit_codegen.cpp) exists for strided blocks of 64 bytes or less (8-byte pieces),
 * for strided loops of 4 blocks or more up to 1 KiB and for elements of fewer blocks up to 1 KiB spread
 * over twice their size (the lines ahead prefetched); the paced pack for strided blocks of 17 to 64
 * bytes (16-byte pieces) and for shorter ones a line or more apart (scalar loads), not for 16 bytes
 * (one piece either way): both sides of each limit, odd lengths, both directions; check_compiled runs
 * both packs and both unpacks. */
TEST_F(DteJit, PacedCodeOfStridedBlocks)
{
    std::mt19937 rng(13);
    for (uint64_t count : {3u, 5u}) {
        for (uint64_t len : {8u, 16u, 20u, 40u, 64u, 72u, 1024u, 1032u}) {
            for (int64_t stride : {int64_t{1100}, int64_t{2048}, int64_t{-2048}}) {
                const int64_t span = (static_cast<int64_t>(count) - 1) * stride;
                const int64_t first = stride < 0 ? -span : 0; /* every block at or after offset 0 */
                std::vector<mca_dte_elem_t> blocks = {{MCA_DTE_OP_BLOCKS, 0, count, len, first, stride}};
                mca_dte_type_desc_t t{};
                t.elems = blocks.data();
                t.elem_count = blocks.size();
                t.size = count * len;
                t.extent = (stride < 0 ? -span : span) + static_cast<int64_t>(len);
                t.true_ub = t.extent;
                auto entry = compile(t);
                ASSERT_NE(entry, nullptr);
                const bool sparse = t.extent >= 2 * static_cast<int64_t>(t.size);
                const bool paced = len <= 64 || (len <= 1024 && (count >= 4 || sparse));
                EXPECT_EQ(entry->unpack_paced.load() != nullptr, paced) << count << " x " << len;
                EXPECT_EQ(entry->pack_paced.load() != nullptr, len != 16 && len <= 64) << count << " x " << len;
                check_compiled(t, *entry, rng,
                               std::to_string(count) + " x " + std::to_string(len) + "-byte blocks " +
                                   std::to_string(stride) + " apart");
            }
        }
    }
}

/* Short blocks less than a line apart share lines: the paced pack leaves them to the vectorizer. */
TEST_F(DteJit, NoPacedPackOfDenseShortBlocks)
{
    std::mt19937 rng(19);
    for (uint64_t len : {4u, 8u, 12u}) {
        for (int64_t stride : {int64_t{16}, int64_t{40}, int64_t{64}}) {
            std::vector<mca_dte_elem_t> blocks = {{MCA_DTE_OP_BLOCKS, 0, 5, len, 0, stride}};
            mca_dte_type_desc_t t{};
            t.elems = blocks.data();
            t.elem_count = blocks.size();
            t.size = 5 * len;
            t.extent = 4 * stride + static_cast<int64_t>(len);
            t.true_ub = t.extent;
            auto entry = compile(t);
            ASSERT_NE(entry, nullptr);
            EXPECT_EQ(entry->pack_paced.load() != nullptr, stride >= 64) << len << " bytes " << stride << " apart";
            check_compiled(t, *entry, rng, std::to_string(len) + "-byte blocks " + std::to_string(stride) + " apart");
        }
    }
}

/* AVX-512 only with dte_jit_avx512: LLVM 14 rates its scatters and gathers as cheap everywhere and
 * turns strided 8-byte blocks into them, which copy slower than scalar code; by default the code has
 * neither. Correct either way. */
/* Strided 8-byte blocks (NAS LU's 272 bytes apart) are copied by a loop the fast pipeline unrolls on
 * request (dte_jit_codegen.cpp, kUnrollSmallBlocks): the pack function's loop reads 8 or more blocks a
 * trip, and the code still packs and unpacks right. */
TEST_F(DteJit, SmallStridedBlocksUnrolled)
{
    std::mt19937 rng(29);
    jit::compiler_stop();
    jit::params.verbose = 2;
    ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
    std::vector<mca_dte_elem_t> blocks = {{MCA_DTE_OP_BLOCKS, 0, 64, 8, 0, 272}};
    mca_dte_type_desc_t t{};
    t.elems = blocks.data();
    t.elem_count = blocks.size();
    t.size = 512;
    t.extent = 63 * 272 + 8;
    t.true_ub = t.extent;
    ::testing::internal::CaptureStderr();
    auto entry = compile(t);
    const std::string ir = ::testing::internal::GetCapturedStderr();
    ASSERT_NE(entry, nullptr);
    const std::size_t pack = ir.find("@tessera_dte_jit_pack_");
    const std::size_t unpack = ir.find("@tessera_dte_jit_unpack_", pack);
    ASSERT_NE(pack, std::string::npos) << "no IR printed";
    ASSERT_NE(unpack, std::string::npos);
    int loads = 0;
    for (std::size_t at = ir.find("load i64", pack); at < unpack; at = ir.find("load i64", at + 1)) {
        ++loads;
    }
    EXPECT_GE(loads, 8) << ir.substr(pack, unpack - pack);
    check_compiled(t, *entry, rng, "8-byte blocks 272 bytes apart");
}

TEST_F(DteJit, NoScattersOrGathersWithoutAvx512)
{
    std::mt19937 rng(23);
    for (bool avx512 : {false, true}) {
        jit::compiler_stop();
        jit::params.avx512 = avx512;
        jit::params.verbose = 2; /* the optimized IR on stderr */
        ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
        for (int64_t stride : {int64_t{16}, int64_t{24}}) {
            std::vector<mca_dte_elem_t> blocks = {{MCA_DTE_OP_BLOCKS, 0, 1000, 8, 0, stride}};
            mca_dte_type_desc_t t{};
            t.elems = blocks.data();
            t.elem_count = blocks.size();
            t.size = 8000;
            t.extent = 999 * stride + 8;
            t.true_ub = t.extent;
            ::testing::internal::CaptureStderr();
            auto entry = compile(t);
            const std::string ir = ::testing::internal::GetCapturedStderr();
            ASSERT_NE(entry, nullptr);
            ASSERT_NE(ir.find("define void"), std::string::npos) << "no IR printed";
            if (!avx512) {
                EXPECT_EQ(ir.find("llvm.masked.scatter"), std::string::npos) << stride;
                EXPECT_EQ(ir.find("llvm.masked.gather"), std::string::npos) << stride;
            }
            check_compiled(t, *entry, rng, std::string(avx512 ? "avx512 " : "") + "8-byte blocks " +
                                               std::to_string(stride) + " apart");
        }
    }
}

/* Elements of two separate blocks (a struct's fields): prefetched ahead when the extent is at least
 * twice the size, whichever the blocks' order. */
TEST_F(DteJit, PacedUnpackOfSparseElements)
{
    std::mt19937 rng(17);
    for (uint64_t len : {24u, 768u, 1024u, 1032u}) {
        for (int64_t gap : {int64_t{0}, int64_t{3000}}) {
            const int64_t second = static_cast<int64_t>(len) + gap;
            std::vector<mca_dte_elem_t> fields = {{MCA_DTE_OP_BLOCKS, 0, 1, len, second, 0},
                                                  {MCA_DTE_OP_BLOCKS, 0, 1, len, 0, 0}};
            mca_dte_type_desc_t t{};
            t.elems = fields.data();
            t.elem_count = fields.size();
            t.size = 2 * len;
            t.extent = second + static_cast<int64_t>(len) + gap;
            t.true_ub = second + static_cast<int64_t>(len);
            auto entry = compile(t);
            ASSERT_NE(entry, nullptr);
            const bool paced = len <= 1024 && t.extent >= 2 * static_cast<int64_t>(t.size);
            EXPECT_EQ(entry->unpack_paced.load() != nullptr, paced) << len << " + " << gap;
            EXPECT_EQ(entry->pack_paced.load(), nullptr) << len << " + " << gap; /* no strided blocks */
            check_compiled(t, *entry, rng, "two " + std::to_string(len) + "-byte fields " + std::to_string(gap) + " apart");
        }
    }
}

TEST_F(DteJit, ContiguousAndEmptyShapes)
{
    std::mt19937 rng(5);
    /* One contiguous block filling the extent: a single memcpy of n elements. */
    std::vector<mca_dte_elem_t> contiguous = {{MCA_DTE_OP_BLOCKS, 0, 1, 24, 0, 24}};
    mca_dte_type_desc_t t{};
    t.elems = contiguous.data();
    t.elem_count = 1;
    t.size = 24;
    t.extent = 24;
    t.true_ub = 24;
    auto entry = compile(t);
    ASSERT_NE(entry, nullptr);
    check_compiled(t, *entry, rng, "contiguous");

    /* Zero-count loops and blocks contribute nothing. */
    std::vector<mca_dte_elem_t> sparse = {{MCA_DTE_OP_BLOCKS, 0, 0, 8, 0, 8},
                                          {MCA_DTE_OP_LOOP, 1, 0, 0, 0, 16},
                                          {MCA_DTE_OP_BLOCKS, 0, 2, 4, 0, 8},
                                          {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0},
                                          {MCA_DTE_OP_BLOCKS, 0, 2, 4, -16, 8}};
    t.elems = sparse.data();
    t.elem_count = sparse.size();
    t.size = 8;
    t.extent = 32;
    t.true_lb = -16;
    t.true_ub = -4;
    entry = compile(t);
    ASSERT_NE(entry, nullptr);
    check_compiled(t, *entry, rng, "sparse");
}

/* A negative extent: elements walk downwards from the buffer address. */
TEST_F(DteJit, NegativeExtent)
{
    std::vector<mca_dte_elem_t> elems = {{MCA_DTE_OP_LOOP, 1, 3, 0, 0, -20},
                                         {MCA_DTE_OP_BLOCKS, 0, 2, 3, 4, 5},
                                         {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0}};
    mca_dte_type_desc_t t{};
    t.elems = elems.data();
    t.elem_count = elems.size();
    t.size = 18;
    t.extent = -64;
    t.true_lb = -36;
    t.true_ub = 12;
    auto entry = compile(t);
    ASSERT_TRUE(entry && entry->ready());
    std::vector<char> memory(512);
    std::iota(memory.begin(), memory.end(), 0);
    char *buf = memory.data() + 400;
    const auto want = reference_pack(t, buf, 1, 4);
    std::vector<char> out(want.size());
    entry->pack.load()(buf, 1, 4, out.data());
    EXPECT_EQ(out, want);
    std::vector<char> a(memory.size(), 0), b(memory.size(), 0);
    reference_unpack(t, a.data() + 400, 1, 4, want.data());
    entry->unpack.load()(b.data() + 400, 1, 4, want.data());
    EXPECT_EQ(a, b);
}

TEST_F(DteJit, MalformedDescriptionsAreRefused)
{
    std::vector<mca_dte_elem_t> unbalanced = {{MCA_DTE_OP_LOOP, 1, 2, 0, 0, 8}, {MCA_DTE_OP_BLOCKS, 0, 1, 4, 0, 4}};
    std::vector<mca_dte_elem_t> wrong_items = {{MCA_DTE_OP_LOOP, 2, 2, 0, 0, 8},
                                               {MCA_DTE_OP_BLOCKS, 0, 1, 4, 0, 4},
                                               {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0}};
    std::vector<mca_dte_elem_t> stray_end = {{MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0}};
    for (auto *elems : {&unbalanced, &wrong_items, &stray_end}) {
        mca_dte_type_desc_t t{};
        t.elems = elems->data();
        t.elem_count = elems->size();
        t.size = 8;
        t.extent = 16;
        mca_dte_plan_t *plan = nullptr;
        EXPECT_NE(jit::plan_create(&t, &plan), TESSERA_SUCCESS);
        bool hit = false;
        EXPECT_EQ(jit::cache_acquire(&t, &hit), nullptr);
    }
    /* Blocks adding up to another size than the type's. */
    std::vector<mca_dte_elem_t> short_blocks = {{MCA_DTE_OP_BLOCKS, 0, 2, 4, 0, 8}};
    mca_dte_type_desc_t t{};
    t.elems = short_blocks.data();
    t.elem_count = 1;
    t.size = 12;
    t.extent = 16;
    bool hit = false;
    EXPECT_EQ(jit::cache_acquire(&t, &hit), nullptr);
}

TEST_F(DteJit, CompileTimePerType)
{
    for (int opt : {jit::kOptNone, jit::kOptFast, jit::kOptFull}) {
        jit::compiler_stop();
        jit::params.opt = opt;
        ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
        Generator gen(5150);
        std::vector<double> ms;
        for (int i = 0; i < 20; ++i) {
            std::vector<mca_dte_elem_t> elems;
            const auto t = gen.type(&elems, 3);
            auto entry = compile(t);
            ASSERT_TRUE(entry && entry->ready());
            if (i > 0) /* the first one also pays for creating the JIT */
                ms.push_back(entry->compile_ms);
        }
        std::sort(ms.begin(), ms.end());
        const char *names[] = {"none", "fast", "full"};
        std::printf("dte_jit_opt=%s: compile per type median %.2f ms, max %.2f ms (%zu types)\n", names[opt],
                    ms[ms.size() / 2], ms.back(), ms.size());
        EXPECT_LT(ms[ms.size() / 2], 2000.0);
    }
}


TEST_F(DteJit, PackThroughputFigures)
{
    if (std::getenv("DTE_JIT_TEST_IR") != nullptr)
        jit::params.verbose = 2;
    struct Shape {
        const char *name;
        std::vector<mca_dte_elem_t> elems;
        uint64_t size;
        int64_t extent;
    };
    const std::vector<Shape> shapes = {
        /* MPI_Type_vector(1024, 1, 2, MPI_DOUBLE): every other double */
        {"vector 1024 x 1 double, stride 2", {{MCA_DTE_OP_BLOCKS, 0, 1024, 8, 0, 16}}, 8192, 16376},
        /* a column of a 64 x 64 float matrix block: 64 rows of 4 floats */
        {"64 rows x 4 floats, stride 256", {{MCA_DTE_OP_BLOCKS, 0, 64, 16, 0, 256}}, 1024, 16384},
        /* struct {int a; double b; char c[3];} with gaps, 512 of them */
        {"512 x struct {int, double, char[3]}",
         {{MCA_DTE_OP_LOOP, 3, 512, 0, 0, 24},
          {MCA_DTE_OP_BLOCKS, 0, 1, 4, 0, 4},
          {MCA_DTE_OP_BLOCKS, 0, 1, 8, 8, 8},
          {MCA_DTE_OP_BLOCKS, 0, 1, 3, 16, 3},
          {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0}},
         512 * 15,
         512 * 24},
    };
    std::mt19937 rng(1);
    for (const Shape &shape : shapes) {
        mca_dte_type_desc_t t{};
        t.elems = shape.elems.data();
        t.elem_count = shape.elems.size();
        t.size = shape.size;
        t.extent = shape.extent;
        t.true_ub = shape.extent;
        mca_dte_base_program_t *program = nullptr;
        ASSERT_EQ(mca_dte_base_program_create(&t, &program), TESSERA_SUCCESS);
        auto entry = compile(t);
        ASSERT_TRUE(entry && entry->ready());
        const size_t count = 64;
        Buffer src(t, count, rng);
        std::vector<char> a(count * t.size), b(count * t.size);
        auto rate = [&](auto &&fn) {
            const auto start = std::chrono::steady_clock::now();
            int reps = 0;
            do {
                fn();
                ++reps;
            } while (std::chrono::steady_clock::now() - start < 50ms);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return static_cast<double>(reps) * static_cast<double>(a.size()) / s / 1e9;
        };
        const double interp = rate([&] { mca_dte_base_program_pack(program, src.base, count, 0, a.data(), a.size()); });
        const double compiled = rate([&] { entry->pack.load()(src.base, 0, count, b.data()); });
        EXPECT_EQ(a, b) << shape.name;
        std::printf("%-36s interp %6.2f GB/s, jit %6.2f GB/s (compile %.1f ms)\n", shape.name, interp, compiled,
                    entry->compile_ms);
        mca_dte_base_program_free(program);
    }
}


} // namespace
} // namespace dte_jit_test
