/* dte jit tests: random normalized descriptions, a reference walker written from dte.h's words, buffers
 * around them, and the fixture that starts and stops the compile thread. Shared by the test files. */
#ifndef TESSERA_TESTS_UNIT_DTE_JIT_DTE_JIT_TEST_UTIL_H
#define TESSERA_TESTS_UNIT_DTE_JIT_DTE_JIT_TEST_UTIL_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <regex>
#include <thread>
#include <vector>

#include "components/dte/jit/dte_jit_backend.h"
#include "frameworks/dte/base/dte_base_program.h"

namespace dte_jit_test {

namespace jit = tessera::ompi::dte_jit;
using namespace std::chrono_literals;

/* ---- random descriptions ---------------------------------------------------------------------- */

struct Piece {
    std::vector<mca_dte_elem_t> elems;
    int64_t lo = 0, hi = 0; /* bytes touched, relative to the base */
};

/* Moves a piece by `by` bytes: every block's displacement, since all bases derive from the parent's. */
inline void shift(Piece *p, int64_t by)
{
    for (auto &e : p->elems)
        if (e.op == MCA_DTE_OP_BLOCKS)
            e.disp += by;
    p->lo += by;
    p->hi += by;
}

class Generator {
public:
    explicit Generator(uint32_t seed) : rng_(seed) {}

    /* A type whose blocks never overlap, so that unpack is order-independent. */
    mca_dte_type_desc_t type(std::vector<mca_dte_elem_t> *storage, int max_depth)
    {
        Piece body = this->body(max_depth, 1 + pick(3));
        shift(&body, -pick(64)); /* negative displacements */
        *storage = body.elems;
        mca_dte_type_desc_t t{};
        t.elems = storage->data();
        t.elem_count = storage->size();
        t.size = packed(*storage);
        t.true_lb = body.lo;
        t.true_ub = body.hi;
        t.extent = (body.hi - body.lo) + pick(2) * pick(16);
        return t;
    }

    int64_t pick(int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(rng_); }
    std::mt19937 &rng() { return rng_; }

private:
    /* Items laid out side by side in random order with gaps: displacements go up and down. */
    Piece body(int depth, int items)
    {
        std::vector<Piece> parts;
        for (int i = 0; i < items; ++i) {
            Piece p = depth > 0 && pick(2) == 0 ? loop(depth - 1) : blocks();
            shift(&p, -p.lo);
            parts.push_back(std::move(p));
        }
        std::vector<size_t> order(parts.size());
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng_);
        int64_t cursor = 0;
        for (size_t i : order) {
            cursor += pick(3) * pick(8);
            shift(&parts[i], cursor);
            cursor = parts[i].hi;
        }
        Piece out;
        out.hi = cursor;
        for (auto &p : parts)
            out.elems.insert(out.elems.end(), p.elems.begin(), p.elems.end());
        return out;
    }

    Piece blocks()
    {
        static const uint64_t lens[] = {1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 40, 100, 300};
        mca_dte_elem_t e{};
        e.op = MCA_DTE_OP_BLOCKS;
        e.blocklen = lens[pick(std::size(lens))];
        e.count = 1 + pick(6);
        const int64_t step = static_cast<int64_t>(e.blocklen) + pick(2) * pick(24);
        e.stride = pick(4) == 0 ? -step : step;
        e.disp = 0;
        Piece p;
        p.elems.push_back(e);
        const int64_t reach = static_cast<int64_t>(e.count - 1) * e.stride;
        p.lo = std::min<int64_t>(0, reach);
        p.hi = std::max<int64_t>(0, reach) + static_cast<int64_t>(e.blocklen);
        return p;
    }

    Piece loop(int depth)
    {
        Piece inner = body(depth, 1 + pick(3));
        const int64_t width = inner.hi - inner.lo;
        mca_dte_elem_t e{};
        e.op = MCA_DTE_OP_LOOP;
        e.items = static_cast<uint32_t>(inner.elems.size());
        e.count = 1 + pick(5);
        const int64_t step = width + pick(2) * pick(32);
        e.stride = pick(4) == 0 ? -step : step;
        mca_dte_elem_t end{};
        end.op = MCA_DTE_OP_END_LOOP;
        Piece p;
        p.elems.push_back(e);
        p.elems.insert(p.elems.end(), inner.elems.begin(), inner.elems.end());
        p.elems.push_back(end);
        const int64_t reach = static_cast<int64_t>(e.count - 1) * e.stride;
        p.lo = inner.lo + std::min<int64_t>(0, reach);
        p.hi = inner.hi + std::max<int64_t>(0, reach);
        return p;
    }

    static uint64_t packed(const std::vector<mca_dte_elem_t> &elems)
    {
        uint64_t total = 0;
        walk_offsets(elems.data(), elems.size(), 0, [&](int64_t, uint64_t len) { total += len; });
        return total;
    }

    /* Offsets, not pointers: counting needs no buffer, and an offset added to a null pointer is
     * undefined behaviour. */
    template <class Visit>
    static void walk_offsets(const mca_dte_elem_t *elems, size_t n, int64_t base, Visit &&visit)
    {
        for (size_t i = 0; i < n;) {
            const mca_dte_elem_t &e = elems[i];
            if (e.op == MCA_DTE_OP_BLOCKS) {
                for (uint64_t b = 0; b < e.count; ++b)
                    visit(base + e.disp + static_cast<int64_t>(b) * e.stride, e.blocklen);
                ++i;
            } else {
                for (uint64_t k = 0; k < e.count; ++k)
                    walk_offsets(elems + i + 1, e.items, base + static_cast<int64_t>(k) * e.stride, visit);
                i += e.items + 2;
            }
        }
    }

public:
    /* The reference: visits the blocks of one element in stream order, straight from dte.h's words. */
    template <class Visit>
    static void walk(const mca_dte_elem_t *elems, size_t n, const char *base, Visit &&visit)
    {
        walk_offsets(elems, n, 0, [&](int64_t offset, uint64_t len) { visit(base + offset, len); });
    }

private:
    std::mt19937 rng_;
};

/* `count` elements of a type in a buffer with room around them; element 0's lowest byte at margin. */
struct Buffer {
    std::vector<char> bytes;
    char *base = nullptr; /* the address MPI would be given */

    Buffer(const mca_dte_type_desc_t &t, size_t count, std::mt19937 &rng)
    {
        const size_t span = static_cast<size_t>(t.true_ub - t.true_lb) + count * static_cast<size_t>(t.extent);
        bytes.resize(span + 128);
        for (auto &b : bytes)
            b = static_cast<char>(rng());
        base = bytes.data() + 64 - t.true_lb;
    }
};

inline std::vector<char> reference_pack(const mca_dte_type_desc_t &t, const char *buf, uint64_t first, uint64_t n)
{
    std::vector<char> out;
    for (uint64_t i = first; i < first + n; ++i)
        Generator::walk(t.elems, t.elem_count, buf + static_cast<int64_t>(i) * t.extent,
                        [&](const char *p, uint64_t len) { out.insert(out.end(), p, p + len); });
    return out;
}

inline void reference_unpack(const mca_dte_type_desc_t &t, char *buf, uint64_t first, uint64_t n, const char *in)
{
    for (uint64_t i = first; i < first + n; ++i)
        Generator::walk(t.elems, t.elem_count, buf + static_cast<int64_t>(i) * t.extent,
                        [&](const char *p, uint64_t len) {
                            std::memcpy(const_cast<char *>(p), in, len);
                            in += len;
                        });
}

/* Compiles a type's code directly through the cache and the compile thread. */
inline std::shared_ptr<jit::CodeEntry> compile(const mca_dte_type_desc_t &t)
{
    bool hit = false;
    auto entry = jit::cache_acquire(&t, &hit);
    if (entry) {
        jit::compiler_submit(entry);
        entry->wait_done(30s);
    }
    return entry;
}

class DteJit : public ::testing::Test {
protected:
    void SetUp() override
    {
        jit::params = jit::Params{};
        /* Linked in, so the component's loader finds it in the process instead of beside the DSO. */
        ASSERT_NE(tessera_dte_jit_backend(), nullptr);
        ASSERT_EQ(jit::compiler_start(), TESSERA_SUCCESS);
    }
    void TearDown() override
    {
        jit::compiler_stop();
        jit::params = jit::Params{};
    }
};


} // namespace dte_jit_test

#endif
