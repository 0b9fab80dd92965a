/*
 * dte base: packing and unpacking a byte range of the packed stream with a program. One template walks
 * in both directions (Pack copies memory -> stream, unpack stream -> memory). The walk state lives on
 * the caller's stack and the program is only read, so a program serves any number of threads and a
 * call allocates nothing.
 *
 * A range [lo, hi) of an op is cut into a partial first unit (block or loop iteration), whole units and
 * a partial last unit; only the partial ones look anything up (binary search over the prefix offsets
 * of a sequence), whole units run the straight loops below.
 */
#include <algorithm>
#include <cstring>

#include "frameworks/dte/base/dte_base_program_internal.h"
#include "mca/constants.h"

namespace tessera::ompi::dte {
namespace {

/*
 * Memory positions are integers, not pointers: with MPI_BOTTOM the buffer is NULL and the
 * displacements are absolute addresses, and arithmetic on a null pointer is undefined in C++.
 * Adding a negative displacement as an unsigned integer wraps to the right address.
 */
using Addr = uintptr_t;

constexpr Addr offset_by(Addr a, int64_t by) { return a + static_cast<Addr>(by); }
inline void *at(Addr a) { return reinterpret_cast<void *>(a); }

template <bool Pack>
class Walker {
public:
    Walker(const Op *ops, const int64_t *disps, unsigned char *stream) : ops_(ops), disps_(disps), stream_(stream) {}

    /* Bytes [lo, hi) of op, 0 <= lo < hi <= op.size, its sequence's base at `base`. */
    void op_part(const Op &op, Addr base, uint64_t lo, uint64_t hi)
    {
        if (lo == 0 && hi == op.size) {
            op_full(op, base);
            return;
        }
        if (op.kind == OpKind::Indexed) {
            indexed_part(op, base, lo, hi);
            return;
        }
        if (op.kind == OpKind::Ragged) {
            ragged_part(op, base, lo, hi);
            return;
        }
        uint64_t k = lo / op.unit;
        const uint64_t off = lo % op.unit;
        Addr p = offset_by(base, op.disp + static_cast<int64_t>(k) * op.stride);
        if (off != 0 || hi - lo < op.unit) { /* the first unit is cut */
            const uint64_t end = std::min(op.unit, off + (hi - lo));
            unit_part(op, p, off, end);
            lo += end - off;
            p = offset_by(p, op.stride);
            ++k;
        }
        const uint64_t whole = (hi - lo) / op.unit;
        if (whole > 0) {
            units_full(op, p, whole);
            lo += whole * op.unit;
            p = offset_by(p, static_cast<int64_t>(whole) * op.stride);
        }
        if (lo < hi) { /* the last unit is cut */
            unit_part(op, p, 0, hi - lo);
        }
    }

    /* The whole op. */
    void op_full(const Op &op, Addr base)
    {
        if (op.kind == OpKind::Indexed) {
            indexed_run(op, base, 0, op.count);
        } else if (op.kind == OpKind::Ragged) {
            ragged_run(op, base, 0, op.count);
        } else {
            units_full(op, offset_by(base, op.disp), op.count);
        }
    }

private:
    void copy(Addr mem, uint64_t n)
    {
        if constexpr (Pack) {
            std::memcpy(stream_, at(mem), n);
        } else {
            std::memcpy(at(mem), stream_, n);
        }
        stream_ += n;
    }

    /* Bytes [lo, hi) of an Indexed op: its k-th block is at base + its k-th displacement. */
    void indexed_part(const Op &op, Addr base, uint64_t lo, uint64_t hi)
    {
        const int64_t *d = disps_ + op.table;
        uint64_t k = lo / op.unit;
        const uint64_t off = lo % op.unit;
        if (off != 0 || hi - lo < op.unit) {
            const uint64_t end = std::min(op.unit, off + (hi - lo));
            copy(offset_by(base, d[k]) + off, end - off);
            lo += end - off;
            ++k;
        }
        const uint64_t whole = (hi - lo) / op.unit;
        indexed_run(op, base, k, whole);
        lo += whole * op.unit;
        if (lo < hi) {
            copy(offset_by(base, d[k + whole]), hi - lo);
        }
    }

    /* n whole blocks of an Indexed op from its k-th on. */
    void indexed_run(const Op &op, Addr base, uint64_t k, uint64_t n)
    {
        const int64_t *d = disps_ + op.table + k;
        switch (op.copy) {
        case CopyKind::B1: fixed_indexed<1>(base, d, n); return;
        case CopyKind::B2: fixed_indexed<2>(base, d, n); return;
        case CopyKind::B4: fixed_indexed<4>(base, d, n); return;
        case CopyKind::B8: fixed_indexed<8>(base, d, n); return;
        case CopyKind::B16: fixed_indexed<16>(base, d, n); return;
        case CopyKind::B24: fixed_indexed<24>(base, d, n); return;
        case CopyKind::B32: fixed_indexed<32>(base, d, n); return;
        case CopyKind::B48: fixed_indexed<48>(base, d, n); return;
        case CopyKind::B64: fixed_indexed<64>(base, d, n); return;
        case CopyKind::Over2: over_indexed<2>(base, d, n, op.unit); return;
        case CopyKind::Over4: over_indexed<4>(base, d, n, op.unit); return;
        case CopyKind::Over8: over_indexed<8>(base, d, n, op.unit); return;
        case CopyKind::Over16: over_indexed<16>(base, d, n, op.unit); return;
        case CopyKind::Over32: over_indexed<32>(base, d, n, op.unit); return;
        case CopyKind::Over64: over_indexed<64>(base, d, n, op.unit); return;
        case CopyKind::Chunks32:
        case CopyKind::Generic: break;
        }
        for (uint64_t i = 0; i < n; ++i) {
            copy(offset_by(base, d[i]), op.unit);
        }
    }

    /* A Ragged op's table: block k's displacement at [2k], its packed start at [2k + 1]; start
     * [2 * count + 1] is the op's size. */
    static uint64_t start_of(const int64_t *table, uint64_t k) { return static_cast<uint64_t>(table[2 * k + 1]); }

    /* The block of a Ragged op holding packed offset `off` (< its size), or `count` when off is its size. */
    static uint64_t ragged_block(const Op &op, const int64_t *table, uint64_t off)
    {
        uint64_t lo = 0;         /* start_of(lo) <= off */
        uint64_t hi = op.count;  /* off < start_of(hi), or hi == count */
        if (off >= start_of(table, op.count)) {
            return op.count;
        }
        while (hi - lo > 1) {
            const uint64_t mid = lo + (hi - lo) / 2;
            (start_of(table, mid) <= off ? lo : hi) = mid;
        }
        return lo;
    }

    /* Bytes [lo, hi) of a Ragged op: cut first and last blocks around a run of whole ones. */
    void ragged_part(const Op &op, Addr base, uint64_t lo, uint64_t hi)
    {
        const int64_t *table = disps_ + op.table;
        uint64_t k = ragged_block(op, table, lo);
        if (lo > start_of(table, k)) {
            const uint64_t end = std::min(hi, start_of(table, k + 1));
            copy(offset_by(base, table[2 * k]) + (lo - start_of(table, k)), end - lo);
            lo = end;
            ++k;
        }
        if (lo == hi) {
            return;
        }
        const uint64_t last = ragged_block(op, table, hi);
        ragged_run(op, base, k, last - k);
        if (last < op.count && hi > start_of(table, last)) {
            copy(offset_by(base, table[2 * last]), hi - start_of(table, last));
        }
    }

    /* n whole blocks of a Ragged op from its k-th on. */
    void ragged_run(const Op &op, Addr base, uint64_t k, uint64_t n)
    {
        const int64_t *t = disps_ + op.table + 2 * k;
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, t += 2) {
            const uint64_t len = static_cast<uint64_t>(t[3] - t[1]);
            auto *m = static_cast<unsigned char *>(at(offset_by(base, t[0])));
            if constexpr (Pack) {
                copy_short(s, m, len);
            } else {
                copy_short(m, s, len);
            }
            s += len;
        }
        stream_ = s;
    }

    /* n bytes in two fixed-size moves, the second overlapping the first (the same bytes stored
     * twice), up to 128 bytes; memcpy above. A block of changing length then costs no call: the
     * builtin indexed layout (blocks of 1 to 16 doubles) packs at 10.3 GB/s from a Ragged table, 7.6
     * with an op per block. */
    static void copy_short(unsigned char *d, const unsigned char *s, uint64_t n)
    {
        if (n > 128) {
            std::memcpy(d, s, n);
        } else if (n > 64) {
            both_ends<64>(d, s, n);
        } else if (n >= 32) {
            both_ends<32>(d, s, n);
        } else if (n >= 16) {
            both_ends<16>(d, s, n);
        } else if (n >= 8) {
            both_ends<8>(d, s, n);
        } else if (n >= 4) {
            both_ends<4>(d, s, n);
        } else if (n >= 2) {
            both_ends<2>(d, s, n);
        } else if (n == 1) {
            *d = *s;
        }
    }

    /* The first and the last L bytes of n, L <= n <= 2L: every byte, those in the middle twice. */
    template <size_t L>
    static void both_ends(unsigned char *d, const unsigned char *s, uint64_t n)
    {
        __builtin_memcpy(d, s, L);
        __builtin_memcpy(d + n - L, s + n - L, L);
    }

    /* One block of len bytes, L <= len <= 2L, between memory and the stream. */
    template <size_t L>
    static void over_move(Addr mem, unsigned char *s, uint64_t len)
    {
        if constexpr (Pack) {
            both_ends<L>(s, static_cast<const unsigned char *>(at(mem)), len);
        } else {
            both_ends<L>(static_cast<unsigned char *>(at(mem)), s, len);
        }
    }

    template <size_t L>
    void over_indexed(Addr base, const int64_t *d, uint64_t n, uint64_t len)
    {
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, s += len) {
            over_move<L>(offset_by(base, d[i]), s, len);
        }
        stream_ = s;
    }

    template <uint64_t L>
    void over_blocks(Addr p, int64_t stride, uint64_t n, uint64_t len)
    {
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, stride), s += len) {
            over_move<L>(p, s, len);
        }
        stream_ = s;
    }

    template <size_t L>
    void fixed_indexed(Addr base, const int64_t *d, uint64_t n)
    {
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, s += L) {
            if constexpr (Pack) {
                std::memcpy(s, at(offset_by(base, d[i])), L);
            } else {
                std::memcpy(at(offset_by(base, d[i])), s, L);
            }
        }
        stream_ = s;
    }

    /* A fixed length lets the compiler turn each memcpy into one load and one store. */
    template <uint64_t L>
    void fixed_blocks(Addr p, int64_t stride, uint64_t n)
    {
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, stride), s += L) {
            if constexpr (Pack) {
                std::memcpy(s, at(p), L);
            } else {
                std::memcpy(at(p), s, L);
            }
        }
        stream_ = s;
    }

    /* n blocks of `unit` bytes, a multiple of 32: 32-byte moves inline (see kMaxChunked). */
    void chunked_blocks(Addr p, int64_t stride, uint64_t n, uint64_t unit)
    {
        unsigned char *s = stream_;
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, stride)) {
            unsigned char *m = static_cast<unsigned char *>(at(p));
            for (uint64_t b = 0; b < unit; b += 32, s += 32) {
                if constexpr (Pack) {
                    __builtin_memcpy(s, m + b, 32);
                } else {
                    __builtin_memcpy(m + b, s, 32);
                }
            }
        }
        stream_ = s;
    }

    /* n blocks of L bytes, `mem_stride` apart in memory and `stream_stride` apart in the stream. */
    template <uint64_t L>
    static void field_blocks(Addr p, int64_t mem_stride, unsigned char *s, uint64_t stream_stride, uint64_t n)
    {
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, mem_stride), s += stream_stride) {
            if constexpr (Pack) {
                std::memcpy(s, at(p), L);
            } else {
                std::memcpy(at(p), s, L);
            }
        }
    }

    template <uint64_t L>
    static void over_fields(Addr p, int64_t mem_stride, unsigned char *s, uint64_t stream_stride, uint64_t n,
                            uint64_t len)
    {
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, mem_stride), s += stream_stride) {
            over_move<L>(p, s, len);
        }
    }

    /* One field (a single block) of n iterations of a loop, the first at p / s. */
    static void field_run(const Op &field, Addr p, int64_t mem_stride, unsigned char *s, uint64_t stream_stride,
                          uint64_t n)
    {
        switch (field.copy) {
        case CopyKind::B1: field_blocks<1>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B2: field_blocks<2>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B4: field_blocks<4>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B8: field_blocks<8>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B16: field_blocks<16>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B24: field_blocks<24>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B32: field_blocks<32>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B48: field_blocks<48>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::B64: field_blocks<64>(p, mem_stride, s, stream_stride, n); return;
        case CopyKind::Over2: over_fields<2>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Over4: over_fields<4>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Over8: over_fields<8>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Over16: over_fields<16>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Over32: over_fields<32>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Over64: over_fields<64>(p, mem_stride, s, stream_stride, n, field.unit); return;
        case CopyKind::Chunks32:
        case CopyKind::Generic: break;
        }
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, mem_stride), s += stream_stride) {
            if constexpr (Pack) {
                std::memcpy(s, at(p), field.unit);
            } else {
                std::memcpy(at(p), s, field.unit);
            }
        }
    }

    /* n whole iterations of a loop of single blocks (a struct's fields), a chunk of iterations at a
     * time, field by field: each field is a strided loop of fixed-size copies, where copying iteration by
     * iteration dispatches on every field's length in turn. A chunk stays in the L1 cache between the
     * passes of its fields. */
    void fields_run(const Op &op, Addr p, uint64_t n)
    {
        const uint64_t span = std::max<uint64_t>(op.unit, static_cast<uint64_t>(op.stride < 0 ? -op.stride : op.stride));
        const uint64_t chunk = std::max<uint64_t>(1, field_chunk_bytes / span);
        unsigned char *s = stream_;
        while (n > 0) {
            const uint64_t m = std::min(n, chunk);
            for (uint32_t j = op.body_begin; j < op.body_end; ++j) {
                const Op &field = ops_[j];
                field_run(field, offset_by(p, field.disp), op.stride, s + field.start, op.unit, m);
            }
            s += m * op.unit;
            p = offset_by(p, static_cast<int64_t>(m) * op.stride);
            n -= m;
        }
        stream_ = s;
    }

    /* n whole units starting with the one at p. */
    void units_full(const Op &op, Addr p, uint64_t n)
    {
        if (op.kind == OpKind::Blocks) {
            blocks_run(op, p, n);
        } else if (op.field_body && n > 1 && field_chunk_bytes > 0) {
            fields_run(op, p, n);
        } else if (op.leaf_body) {
            /* The innermost loops (struct fields, rows of a subarray) carry most of the bytes: their
             * blocks are copied in place, without a call per op. */
            for (uint64_t i = 0; i < n; ++i, p = offset_by(p, op.stride)) {
                for (uint32_t j = op.body_begin; j < op.body_end; ++j) {
                    const Op &leaf = ops_[j];
                    if (leaf.kind == OpKind::Indexed) {
                        indexed_run(leaf, p, 0, leaf.count);
                    } else if (leaf.kind == OpKind::Ragged) {
                        ragged_run(leaf, p, 0, leaf.count);
                    } else {
                        blocks_run(leaf, offset_by(p, leaf.disp), leaf.count);
                    }
                }
            }
        } else {
            for (uint64_t i = 0; i < n; ++i, p = offset_by(p, op.stride)) {
                seq_full(op.body_begin, op.body_end, p);
            }
        }
    }

    /* n whole blocks of a BLOCKS op, the first at p. */
    [[gnu::always_inline]] void blocks_run(const Op &op, Addr p, uint64_t n)
    {
        /* Dispatch on the size even for a single block: struct fields are one block each, and a
         * fixed-size copy beats a call to memcpy with a run-time length. */
        switch (op.copy) {
        case CopyKind::B1: fixed_blocks<1>(p, op.stride, n); return;
        case CopyKind::B2: fixed_blocks<2>(p, op.stride, n); return;
        case CopyKind::B4: fixed_blocks<4>(p, op.stride, n); return;
        case CopyKind::B8: fixed_blocks<8>(p, op.stride, n); return;
        case CopyKind::B16: fixed_blocks<16>(p, op.stride, n); return;
        case CopyKind::B24: fixed_blocks<24>(p, op.stride, n); return;
        case CopyKind::B32: fixed_blocks<32>(p, op.stride, n); return;
        case CopyKind::B48: fixed_blocks<48>(p, op.stride, n); return;
        case CopyKind::B64: fixed_blocks<64>(p, op.stride, n); return;
        case CopyKind::Over2: over_blocks<2>(p, op.stride, n, op.unit); return;
        case CopyKind::Over4: over_blocks<4>(p, op.stride, n, op.unit); return;
        case CopyKind::Over8: over_blocks<8>(p, op.stride, n, op.unit); return;
        case CopyKind::Over16: over_blocks<16>(p, op.stride, n, op.unit); return;
        case CopyKind::Over32: over_blocks<32>(p, op.stride, n, op.unit); return;
        case CopyKind::Over64: over_blocks<64>(p, op.stride, n, op.unit); return;
        case CopyKind::Chunks32:
            if constexpr (!Pack) { /* packing measured as fast with memcpy */
                chunked_blocks(p, op.stride, n, op.unit);
                return;
            }
            break;
        case CopyKind::Generic: break;
        }
        for (uint64_t i = 0; i < n; ++i, p = offset_by(p, op.stride)) {
            copy(p, op.unit);
        }
    }

    /* Bytes [lo, hi) of the unit (block or iteration) at p; 0 <= lo < hi <= op.unit. */
    void unit_part(const Op &op, Addr p, uint64_t lo, uint64_t hi)
    {
        if (op.kind == OpKind::Blocks) {
            copy(p + lo, hi - lo);
        } else {
            seq_part(op.body_begin, op.body_end, p, lo, hi);
        }
    }

    void seq_full(uint32_t begin, uint32_t end, Addr base)
    {
        for (uint32_t i = begin; i < end; ++i) {
            op_full(ops_[i], base);
        }
    }

    /* Bytes [lo, hi) of the sequence ops[begin, end): the first op is found by its prefix offset. */
    void seq_part(uint32_t begin, uint32_t end, Addr base, uint64_t lo, uint64_t hi)
    {
        const Op *first = std::upper_bound(ops_ + begin, ops_ + end, lo,
                                           [](uint64_t v, const Op &op) { return v < op.start; }) -
                          1;
        for (const Op *op = first; op != ops_ + end && op->start < hi; ++op) {
            const uint64_t a = std::max(lo, op->start) - op->start;
            const uint64_t b = std::min(hi, op->start + op->size) - op->start;
            op_part(*op, base, a, b);
        }
    }

    const Op *ops_;
    const int64_t *disps_;
    unsigned char *stream_;
};

template <bool Pack>
int walk(const mca_dte_base_program &p, Addr buf, size_t count, uint64_t offset,
         unsigned char *stream, uint64_t length)
{
    uint64_t total = 0;
    uint64_t end = 0;
    /* A product that overflows is larger than any range that can be asked for. */
    const bool huge = __builtin_mul_overflow(static_cast<uint64_t>(count), p.size, &total);
    if (__builtin_add_overflow(offset, length, &end) || (!huge && end > total)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (length == 0) {
        return TESSERA_SUCCESS;
    }
    /* The elements themselves form the outermost op: count units of one element, extent apart. */
    Op root;
    uint64_t n = 0;
    if (p.single_block) {
        if (p.extent == static_cast<int64_t>(p.size)) { /* the whole range is one run of memory */
            void *mem = at(offset_by(buf, p.single_disp) + offset);
            if constexpr (Pack) {
                std::memcpy(stream, mem, length);
            } else {
                std::memcpy(mem, stream, length);
            }
            return TESSERA_SUCCESS;
        }
        root.kind = OpKind::Blocks;
        root.copy = copy_kind_for(p.size);
        root.count = count;
        root.unit = p.size;
        root.disp = p.single_disp;
        root.stride = p.extent;
    } else if (p.element_vector && !__builtin_mul_overflow(static_cast<uint64_t>(count), p.ops[0].count, &n)) {
        root = p.ops[0]; /* the elements' vectors continue each other: one vector of them all */
        root.count = n;
        root.start = 0;
    } else {
        root.kind = OpKind::Loop;
        root.count = count;
        root.unit = p.size;
        root.stride = p.extent;
        root.body_begin = 0;
        root.body_end = p.top_end;
        root.leaf_body = p.top_leaf;
        root.field_body = p.top_fields;
    }
    root.size = huge ? UINT64_MAX : total;
    Walker<Pack> w(p.ops.data(), p.disps.data(), stream);
    w.op_part(root, buf, offset, end);
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::ompi::dte

extern "C" {

int mca_dte_base_program_pack(const mca_dte_base_program_t *program, const void *buf, size_t count,
                              size_t offset, void *out, size_t length)
{
    /* buf may be NULL (MPI_BOTTOM: the displacements are absolute addresses). */
    if (program == nullptr || (length > 0 && out == nullptr)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    /* The walker is written once for both directions; packing never stores through buf. */
    return tessera::ompi::dte::walk<true>(*program, reinterpret_cast<uintptr_t>(buf), count,
                                          offset, static_cast<unsigned char *>(out), length);
}

int mca_dte_base_program_unpack(const mca_dte_base_program_t *program, void *buf, size_t count,
                                size_t offset, const void *in, size_t length)
{
    if (program == nullptr || (length > 0 && in == nullptr)) {
        return TESSERA_ERR_BAD_PARAM;
    }
    /* Unpacking never stores through the stream. */
    return tessera::ompi::dte::walk<false>(*program, reinterpret_cast<uintptr_t>(buf), count, offset,
                                           static_cast<unsigned char *>(const_cast<void *>(in)), length);
}

} // extern "C"
