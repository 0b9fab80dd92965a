/*
 * Test support for the datatype engine: descriptions built by hand or at random, and a reference that is
 * slow and obviously right — it expands a description into the list of byte runs it names, in stream
 * order, and copies byte by byte. The engine under test must agree with it on every byte.
 */
#ifndef TESSERA_TESTS_UNIT_DTE_DTE_REFERENCE_H
#define TESSERA_TESTS_UNIT_DTE_DTE_REFERENCE_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frameworks/dte/dte.h"

namespace tessera::test::dte {

/* A description with storage; desc() views it as the engines see it. */
struct Desc {
    std::vector<mca_dte_elem_t> elems;
    uint64_t size = 0;
    int64_t extent = 0;
    int64_t true_lb = 0;
    int64_t true_ub = 0;

    mca_dte_type_desc_t desc() const;
    std::string dump() const; /* for failure messages */
};

mca_dte_elem_t blocks(uint64_t count, uint64_t blocklen, int64_t disp, int64_t stride);
mca_dte_elem_t loop(uint64_t count, int64_t stride, uint32_t items);
mca_dte_elem_t end_loop();

/* A byte run of memory: `len` bytes at `addr`, relative to the buffer. */
struct ByteRun {
    int64_t addr;
    uint64_t len;
};

/* The runs of `count` elements, in stream order (element i shifted by i * extent). */
std::vector<ByteRun> reference_runs(const Desc &d, size_t count);
/* Sets size, true_lb and true_ub from the runs of one element (extent is left as it is). */
void finish(Desc &d);

/* Byte-by-byte gather and scatter along the runs; `base` is the buffer's origin. */
std::vector<unsigned char> reference_pack(const std::vector<ByteRun> &runs, const unsigned char *base);
void reference_unpack(const std::vector<ByteRun> &runs, unsigned char *base, const std::vector<unsigned char> &stream);

/* Whether any byte is named twice. */
bool overlapping(std::vector<ByteRun> runs);

/*
 * A random description: loops nested up to 4 deep, blocks with any count, length, displacement and
 * stride (negative and overlapping ones included) when `disjoint` is false; when it is true no byte of
 * `count` elements is named twice (strides, displacements and the extent keep the pieces apart), so
 * that unpacking has one answer.
 */
Desc random_desc(std::mt19937_64 &rng, bool disjoint);

/* A buffer that holds `count` elements with `margin` bytes on each side; origin() is buffer offset 0. */
class Buffer {
public:
    Buffer(const std::vector<ByteRun> &runs, size_t margin = 16);
    unsigned char *origin() { return bytes.data() + shift; }
    const unsigned char *origin() const { return bytes.data() + shift; }
    std::vector<unsigned char> bytes;
    int64_t shift = 0;
};

} // namespace tessera::test::dte

#endif
