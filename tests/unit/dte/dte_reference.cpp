#include "dte_reference.h"

#include <algorithm>
#include <sstream>

namespace tessera::test::dte {

mca_dte_type_desc_t Desc::desc() const
{
    mca_dte_type_desc_t t{};
    t.elems = elems.data();
    t.elem_count = elems.size();
    t.size = size;
    t.extent = extent;
    t.true_lb = true_lb;
    t.true_ub = true_ub;
    return t;
}

std::string Desc::dump() const
{
    std::ostringstream os;
    os << "size " << size << " extent " << extent << ":";
    for (const auto &e : elems) {
        if (e.op == MCA_DTE_OP_BLOCKS) {
            os << " B(" << e.count << "x" << e.blocklen << " @" << e.disp << " /" << e.stride << ")";
        } else if (e.op == MCA_DTE_OP_LOOP) {
            os << " L(" << e.count << " /" << e.stride << " items " << e.items << ")[";
        } else {
            os << " ]";
        }
    }
    return os.str();
}

mca_dte_elem_t blocks(uint64_t count, uint64_t blocklen, int64_t disp, int64_t stride)
{
    return {MCA_DTE_OP_BLOCKS, 0, count, blocklen, disp, stride};
}

mca_dte_elem_t loop(uint64_t count, int64_t stride, uint32_t items)
{
    return {MCA_DTE_OP_LOOP, items, count, 0, 0, stride};
}

mca_dte_elem_t end_loop()
{
    return {MCA_DTE_OP_END_LOOP, 0, 0, 0, 0, 0};
}

namespace {

/* Expands elems[first, last) at `base`, the plain way: every block, every iteration. */
void expand(const std::vector<mca_dte_elem_t> &elems, size_t first, size_t last, int64_t base, std::vector<ByteRun> &out)
{
    for (size_t i = first; i < last;) {
        const mca_dte_elem_t &e = elems[i];
        if (e.op == MCA_DTE_OP_BLOCKS) {
            for (uint64_t b = 0; b < e.count; ++b) {
                if (e.blocklen > 0) {
                    out.push_back({base + e.disp + static_cast<int64_t>(b) * e.stride, e.blocklen});
                }
            }
            ++i;
        } else {
            const size_t body_last = i + 1 + e.items;
            for (uint64_t k = 0; k < e.count; ++k) {
                expand(elems, i + 1, body_last, base + static_cast<int64_t>(k) * e.stride, out);
            }
            i = body_last + 1;
        }
    }
}

} // namespace

std::vector<ByteRun> reference_runs(const Desc &d, size_t count)
{
    std::vector<ByteRun> runs;
    for (size_t i = 0; i < count; ++i) {
        expand(d.elems, 0, d.elems.size(), static_cast<int64_t>(i) * d.extent, runs);
    }
    return runs;
}

void finish(Desc &d)
{
    const std::vector<ByteRun> runs = reference_runs(d, 1);
    d.size = 0;
    d.true_lb = 0;
    d.true_ub = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        d.size += runs[i].len;
        const int64_t ub = runs[i].addr + static_cast<int64_t>(runs[i].len);
        d.true_lb = i == 0 ? runs[i].addr : std::min(d.true_lb, runs[i].addr);
        d.true_ub = i == 0 ? ub : std::max(d.true_ub, ub);
    }
}

std::vector<unsigned char> reference_pack(const std::vector<ByteRun> &runs, const unsigned char *base)
{
    std::vector<unsigned char> stream;
    for (const ByteRun &r : runs) {
        for (uint64_t b = 0; b < r.len; ++b) {
            stream.push_back(base[r.addr + static_cast<int64_t>(b)]);
        }
    }
    return stream;
}

void reference_unpack(const std::vector<ByteRun> &runs, unsigned char *base, const std::vector<unsigned char> &stream)
{
    size_t j = 0;
    for (const ByteRun &r : runs) {
        for (uint64_t b = 0; b < r.len; ++b) {
            base[r.addr + static_cast<int64_t>(b)] = stream[j++];
        }
    }
}

bool overlapping(std::vector<ByteRun> runs)
{
    std::sort(runs.begin(), runs.end(), [](const ByteRun &a, const ByteRun &b) { return a.addr < b.addr; });
    for (size_t i = 1; i < runs.size(); ++i) {
        if (runs[i - 1].addr + static_cast<int64_t>(runs[i - 1].len) > runs[i].addr) {
            return true;
        }
    }
    return false;
}

Buffer::Buffer(const std::vector<ByteRun> &runs, size_t margin)
{
    int64_t lo = 0;
    int64_t hi = 0;
    for (const ByteRun &r : runs) {
        lo = std::min(lo, r.addr);
        hi = std::max(hi, r.addr + static_cast<int64_t>(r.len));
    }
    shift = static_cast<int64_t>(margin) - lo;
    bytes.assign(static_cast<size_t>(hi - lo) + 2 * margin, 0);
}

namespace {

/* A random piece of description with the bytes it touches, [lo, hi) relative to its base. */
struct Piece {
    std::vector<mca_dte_elem_t> elems;
    int64_t lo = 0;
    int64_t hi = 0;
};

struct Gen {
    std::mt19937_64 &rng;
    bool disjoint;
    /* Grid mode (overlapping descriptions only): blocks of one length on a common stride, so that
     * neighbours continue each other (or just miss) and the program's merging is exercised. */
    uint64_t grid_len = 0;
    int64_t grid_stride = 0;

    int64_t uniform(int64_t a, int64_t b) { return std::uniform_int_distribution<int64_t>(a, b)(rng); }
    bool chance(int percent) { return uniform(0, 99) < percent; }

    /* Block lengths favour the sizes with their own copy loops. */
    uint64_t blocklen()
    {
        static constexpr uint64_t kFavoured[] = {1, 2, 4, 8, 16, 3, 12, 24};
        if (chance(70)) {
            return kFavoured[uniform(0, 7)];
        }
        return static_cast<uint64_t>(uniform(disjoint ? 1 : 0, 20));
    }

    /* A stride that keeps `width`-byte pieces apart (either direction), or any stride at all. */
    int64_t stride(int64_t width, int64_t wild)
    {
        if (!disjoint) {
            return chance(30) ? width * (chance(50) ? 1 : -1) : uniform(-wild, wild);
        }
        const int64_t s = width + (chance(40) ? 0 : uniform(0, 6));
        return chance(25) ? -s : s;
    }

    static void shift(Piece &p, int64_t by)
    {
        for (auto &e : p.elems) {
            if (e.op == MCA_DTE_OP_BLOCKS) {
                e.disp += by; /* nested loops have no displacement: their bodies' blocks move instead */
            }
        }
        p.lo += by;
        p.hi += by;
    }

    Piece block_piece()
    {
        const uint64_t count = static_cast<uint64_t>(chance(10) ? 0 : uniform(1, 5));
        const bool grid = grid_len > 0;
        const uint64_t len = grid ? grid_len : blocklen();
        const int64_t s = grid ? grid_stride : stride(static_cast<int64_t>(len), 40);
        const int64_t disp = grid ? uniform(-3, 3) * grid_stride + (chance(20) ? uniform(-1, 1) : 0)
                                  : disjoint ? 0 : uniform(-64, 64);
        Piece p;
        p.elems.push_back(blocks(count, len, disp, s));
        if (count > 0 && len > 0) {
            const int64_t last = disp + static_cast<int64_t>(count - 1) * s;
            p.lo = std::min(disp, last);
            p.hi = std::max(disp, last) + static_cast<int64_t>(len);
        }
        return p;
    }

    /* An indexed type's blocks: 8 to 12 single blocks, of one length or of changing ones (now and
     * then longer than 128 bytes), at rising displacements; the program makes them one table. */
    Piece table_piece()
    {
        const int n = static_cast<int>(uniform(8, 12));
        const bool one_length = chance(40);
        const uint64_t first_len = blocklen();
        int64_t disp = uniform(-16, 16);
        Piece p;
        bool any = false;
        for (int i = 0; i < n; ++i) {
            const uint64_t len = one_length ? first_len : chance(10) ? static_cast<uint64_t>(uniform(100, 200)) : blocklen();
            p.elems.push_back(blocks(1, len, disp, static_cast<int64_t>(len)));
            if (len > 0) {
                p.lo = any ? std::min(p.lo, disp) : disp;
                p.hi = any ? std::max(p.hi, disp + static_cast<int64_t>(len)) : disp + static_cast<int64_t>(len);
                any = true;
            }
            /* disjoint: gaps of 0 (blocks that touch, and merge) to 9; else overlaps too */
            disp += disjoint ? static_cast<int64_t>(len) + uniform(0, 9) : uniform(-8, 24);
        }
        return p;
    }

    Piece loop_piece(int depth)
    {
        Piece body = sequence(depth + 1);
        const uint64_t count = static_cast<uint64_t>(chance(8) ? 0 : uniform(1, depth >= 2 ? 3 : 4));
        const int64_t width = body.hi - body.lo;
        const int64_t s = stride(width, 100);
        Piece p;
        p.elems.push_back(loop(count, s, static_cast<uint32_t>(body.elems.size())));
        p.elems.insert(p.elems.end(), body.elems.begin(), body.elems.end());
        p.elems.push_back(end_loop());
        if (count > 0 && width > 0) {
            const int64_t last = static_cast<int64_t>(count - 1) * s;
            p.lo = body.lo + std::min<int64_t>(0, last);
            p.hi = body.hi + std::max<int64_t>(0, last);
        }
        return p;
    }

    /* One to three items; disjoint ones are laid side by side, forwards or backwards in memory. */
    Piece sequence(int depth)
    {
        const int items = static_cast<int>(uniform(1, 3));
        const bool backwards = chance(30);
        const uint64_t outer_grid_len = grid_len;
        const int64_t outer_grid_stride = grid_stride;
        if (!disjoint && chance(30)) {
            grid_len = blocklen();
            grid_stride = chance(30) ? static_cast<int64_t>(grid_len) : uniform(-24, 24);
        }
        Piece seq;
        int64_t cursor = 0;
        bool any = false;
        for (int i = 0; i < items; ++i) {
            Piece p = depth < 4 && chance(35) ? loop_piece(depth) : chance(10) ? table_piece() : block_piece();
            if (disjoint && p.hi > p.lo) {
                const int64_t gap = chance(50) ? 0 : uniform(1, 8);
                shift(p, backwards ? cursor - gap - p.hi : cursor + gap - p.lo);
                cursor = backwards ? p.lo : p.hi;
            }
            if (p.hi > p.lo) {
                seq.lo = any ? std::min(seq.lo, p.lo) : p.lo;
                seq.hi = any ? std::max(seq.hi, p.hi) : p.hi;
                any = true;
            }
            seq.elems.insert(seq.elems.end(), p.elems.begin(), p.elems.end());
        }
        if (disjoint && any && chance(40)) {
            shift(seq, uniform(-40, 40)); /* negative displacements are legal */
        }
        grid_len = outer_grid_len;
        grid_stride = outer_grid_stride;
        return seq;
    }
};

} // namespace

Desc random_desc(std::mt19937_64 &rng, bool disjoint)
{
    Gen g{rng, disjoint};
    Piece p = g.sequence(1);
    Desc d;
    d.elems = std::move(p.elems);
    const int64_t width = p.hi - p.lo;
    if (disjoint) {
        const int64_t e = width + (g.chance(50) ? 0 : g.uniform(1, 16));
        d.extent = g.chance(15) ? -e : e;
    } else {
        d.extent = g.chance(30) ? width : g.uniform(-64, 64);
    }
    finish(d);
    return d;
}

} // namespace tessera::test::dte
