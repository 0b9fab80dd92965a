/*
 * The interpreter's copies of small heterogeneous blocks: loops of single blocks (a struct's fields)
 * copied field by field over chunks of iterations, at every dte_base_field_chunk (0: iteration by
 * iteration, 1 byte: a chunk of one iteration, sizes that cut the iterations unevenly, the default),
 * and blocks of every length up to past the overlapping moves (1 to 130 bytes) as fields, vectors and
 * table entries. Each is checked against the byte-by-byte reference: whole streams, every cut into a
 * head and a tail, and unpacking from such cuts.
 */
#include <gtest/gtest.h>

#include <numeric>

#include "dte_reference.h"
#include "frameworks/dte/base/dte_base_program.h"
#include "frameworks/dte/base/dte_base_program_internal.h"

namespace tessera::test::dte {
namespace {

struct ProgramDeleter {
    void operator()(mca_dte_base_program_t *p) const { mca_dte_base_program_free(p); }
};
using Program = std::unique_ptr<mca_dte_base_program_t, ProgramDeleter>;

/* Restores dte_base_field_chunk when a test ends. */
class FieldChunk {
public:
    explicit FieldChunk(size_t bytes) { ompi::dte::field_chunk_bytes = bytes; }
    ~FieldChunk() { ompi::dte::field_chunk_bytes = ompi::dte::kDefaultFieldChunkBytes; }
};

Desc make(std::vector<mca_dte_elem_t> elems, int64_t extent)
{
    Desc d;
    d.elems = std::move(elems);
    d.extent = extent;
    finish(d);
    return d;
}

/* Packs `count` elements whole and cut at every offset, and unpacks them from every cut (tail first),
 * against the reference. */
void expect_matches_reference(const Desc &d, size_t count)
{
    mca_dte_base_program_t *raw = nullptr;
    const mca_dte_type_desc_t t = d.desc();
    ASSERT_EQ(mca_dte_base_program_create(&t, &raw), TESSERA_SUCCESS) << d.dump();
    const Program p(raw);
    const std::vector<ByteRun> runs = reference_runs(d, count);
    Buffer mem(runs);
    std::iota(mem.bytes.begin(), mem.bytes.end(), static_cast<unsigned char>(7));
    const std::vector<unsigned char> want = reference_pack(runs, mem.origin());
    const size_t total = want.size();
    for (size_t cut = 0; cut <= total; ++cut) {
        std::vector<unsigned char> out(total, 0);
        ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, 0, out.data(), cut), TESSERA_SUCCESS);
        ASSERT_EQ(mca_dte_base_program_pack(p.get(), mem.origin(), count, cut, out.data() + cut, total - cut),
                  TESSERA_SUCCESS);
        ASSERT_EQ(out, want) << d.dump() << " count " << count << " cut at " << cut;
    }
    Buffer expected(runs);
    reference_unpack(runs, expected.origin(), want);
    for (size_t cut = 0; cut <= total; cut += 1 + total / 64) {
        Buffer got(runs);
        ASSERT_EQ(mca_dte_base_program_unpack(p.get(), got.origin(), count, cut, want.data() + cut, total - cut),
                  TESSERA_SUCCESS);
        ASSERT_EQ(mca_dte_base_program_unpack(p.get(), got.origin(), count, 0, want.data(), cut), TESSERA_SUCCESS);
        ASSERT_EQ(got.bytes, expected.bytes) << d.dump() << " count " << count << " unpacked cut at " << cut;
    }
}

const size_t kChunks[] = {0, 1, 50, 100, 1000, ompi::dte::kDefaultFieldChunkBytes};

/* struct {int; double; char}: the double and the char touch, so the fields are 4 bytes and 9. */
TEST(DteFields, StructOfIntDoubleCharAtEveryChunk)
{
    const Desc d = make({blocks(1, 4, 0, 4), blocks(1, 8, 8, 8), blocks(1, 1, 16, 1)}, 24);
    for (size_t chunk : kChunks) {
        SCOPED_TRACE(chunk);
        FieldChunk set(chunk);
        for (size_t count : {0u, 1u, 2u, 3u, 7u, 41u, 300u})
            expect_matches_reference(d, count);
    }
}

/* Fields inside a loop inside the element (a vector of structs), elements walking downwards, and
 * fields in an order other than their addresses'. */
TEST(DteFields, NestedReversedAndUnorderedFields)
{
    const Desc nested = make({loop(4, 24, 3), blocks(1, 4, 0, 4), blocks(1, 2, 6, 2), blocks(1, 3, 12, 3),
                              end_loop(), blocks(1, 1, 100, 1)},
                             -128);
    const Desc unordered = make({blocks(1, 8, 16, 8), blocks(1, 5, 0, 5), blocks(1, 2, 9, 2)}, 40);
    const Desc backwards = make({loop(5, -32, 2), blocks(1, 16, 0, 16), blocks(1, 6, 20, 6), end_loop()}, 200);
    for (size_t chunk : kChunks) {
        SCOPED_TRACE(chunk);
        FieldChunk set(chunk);
        for (size_t count : {1u, 2u, 9u, 60u}) {
            expect_matches_reference(nested, count);
            expect_matches_reference(unordered, count);
            expect_matches_reference(backwards, count);
        }
    }
}

/* Every block length from 1 to 130 bytes: a field beside a 1-byte one, a vector of them, and a table of
 * them at irregular displacements (Indexed). */
TEST(DteFields, BlocksOfEveryShortLength)
{
    FieldChunk set(ompi::dte::kDefaultFieldChunkBytes);
    for (int64_t len = 1; len <= 130; ++len) {
        SCOPED_TRACE(len);
        expect_matches_reference(make({blocks(1, 1, 0, 1), blocks(1, static_cast<uint64_t>(len), 3, len)}, len + 5),
                                 5);
        expect_matches_reference(make({blocks(3, static_cast<uint64_t>(len), 0, len + 2)}, 3 * (len + 2)), 2);
        std::vector<mca_dte_elem_t> table;
        int64_t at = 0;
        for (int i = 0; i < 9; ++i) {
            table.push_back(blocks(1, static_cast<uint64_t>(len), at, len));
            at += len + 1 + (i * 7) % 5;
        }
        expect_matches_reference(make(table, at), 2);
    }
}

} // namespace
} // namespace tessera::test::dte
