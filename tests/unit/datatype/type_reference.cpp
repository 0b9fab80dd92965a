#include "type_reference.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "ompi/runtime/native_api.h"

namespace tessera::test::datatype {

namespace native = tessera::ompi::native;

std::int64_t TypeMap::size() const
{
    std::int64_t s = 0;
    for (const Run &r : runs) {
        s += r.length;
    }
    return s;
}

std::int64_t TypeMap::true_lb() const
{
    std::int64_t v = INT64_MAX;
    for (const Run &r : runs) {
        v = std::min(v, r.offset);
    }
    return runs.empty() ? 0 : v;
}

std::int64_t TypeMap::true_ub() const
{
    std::int64_t v = INT64_MIN;
    for (const Run &r : runs) {
        v = std::max(v, r.offset + r.length);
    }
    return runs.empty() ? 0 : v;
}

bool TypeMap::overlaps() const
{
    std::vector<Run> s = runs;
    std::sort(s.begin(), s.end(), [](const Run &a, const Run &b) { return a.offset < b.offset; });
    for (std::size_t i = 1; i < s.size(); ++i) {
        if (s[i].offset < s[i - 1].offset + s[i - 1].length) {
            return true;
        }
    }
    return false;
}

namespace {

/* The basic types the tests build from: each is one run of its size, aligned to its size. */
TypeMap named(MPI_Datatype t)
{
    MPI_Count lb = 0, extent = 0;
    native::type_get_extent_c(t, &lb, &extent);
    TypeMap m;
    m.runs.push_back({0, extent});
    m.lb = 0;
    m.ub = extent;
    m.align = std::min<std::int64_t>(extent, 16);
    return m;
}

/* The copies of `child` at the displacements `at` (bytes), appended in order; bounds per 5.1.6. */
struct Builder {
    TypeMap out;
    std::int64_t lo = INT64_MAX, hi = INT64_MIN, mlo = INT64_MAX, mhi = INT64_MIN;
    bool any = false;

    void add(const TypeMap &child, std::int64_t at)
    {
        for (const Run &r : child.runs) {
            out.runs.push_back({r.offset + at, r.length});
        }
        lo = std::min(lo, child.lb + at);
        hi = std::max(hi, child.ub + at);
        if (child.lb_marked) {
            mlo = std::min(mlo, child.lb + at);
            out.lb_marked = true;
        }
        if (child.ub_marked) {
            mhi = std::max(mhi, child.ub + at);
            out.ub_marked = true;
        }
        out.align = std::max(out.align, child.align);
        any = true;
    }
    TypeMap done(bool pad)
    {
        out.lb = out.lb_marked ? mlo : any ? lo : 0;
        out.ub = out.ub_marked ? mhi : any ? hi : 0;
        if (pad && !out.ub_marked) {
            const std::int64_t e = out.ub - out.lb, a = out.align;
            const std::int64_t rem = ((e % a) + a) % a;
            if (rem != 0) {
                out.ub += a - rem;
            }
        }
        return out;
    }
};

} // namespace

TypeMap reference_map(MPI_Datatype type)
{
    int ni = 0, na = 0, nd = 0, combiner = 0;
    native::type_get_envelope(type, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED) {
        return named(type);
    }
    std::vector<int> ints(static_cast<std::size_t>(ni) + 1);
    std::vector<MPI_Aint> addrs(static_cast<std::size_t>(na) + 1);
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(nd) + 1);
    native::type_get_contents(type, ni, na, nd, ints.data(), addrs.data(), types.data());
    std::vector<TypeMap> kids;
    for (int i = 0; i < nd; ++i) {
        kids.push_back(reference_map(types[static_cast<std::size_t>(i)]));
        int k_ni = 0, k_na = 0, k_nd = 0, k_comb = 0;
        native::type_get_envelope(types[static_cast<std::size_t>(i)], &k_ni, &k_na, &k_nd, &k_comb);
        if (k_comb != MPI_COMBINER_NAMED) {
            native::type_free(&types[static_cast<std::size_t>(i)]);
        }
    }
    Builder b;
    const auto ext = [](const TypeMap &m) { return m.ub - m.lb; };
    switch (combiner) {
    case MPI_COMBINER_DUP:
        return kids[0];
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < ints[0]; ++i) {
            b.add(kids[0], i * ext(kids[0]));
        }
        return b.done(false);
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        const std::int64_t stride = combiner == MPI_COMBINER_VECTOR ? ints[2] * ext(kids[0]) : addrs[0];
        for (int j = 0; j < ints[0]; ++j) {
            for (int k = 0; k < ints[1]; ++k) {
                b.add(kids[0], j * stride + k * ext(kids[0]));
            }
        }
        return b.done(false);
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
        const int n = ints[0];
        for (int j = 0; j < n; ++j) {
            const std::int64_t d = combiner == MPI_COMBINER_INDEXED ? ints[static_cast<std::size_t>(1 + n + j)] * ext(kids[0])
                                                                   : addrs[static_cast<std::size_t>(j)];
            for (int k = 0; k < ints[static_cast<std::size_t>(1 + j)]; ++k) {
                b.add(kids[0], d + k * ext(kids[0]));
            }
        }
        return b.done(false);
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        const int n = ints[0];
        for (int j = 0; j < n; ++j) {
            const std::int64_t d = combiner == MPI_COMBINER_INDEXED_BLOCK ? ints[static_cast<std::size_t>(2 + j)] * ext(kids[0])
                                                                         : addrs[static_cast<std::size_t>(j)];
            for (int k = 0; k < ints[1]; ++k) {
                b.add(kids[0], d + k * ext(kids[0]));
            }
        }
        return b.done(false);
    }
    case MPI_COMBINER_STRUCT: {
        const int n = ints[0];
        for (int j = 0; j < n; ++j) {
            const TypeMap &k = kids[static_cast<std::size_t>(j)];
            for (int e = 0; e < ints[static_cast<std::size_t>(1 + j)]; ++e) {
                b.add(k, addrs[static_cast<std::size_t>(j)] + e * ext(k));
            }
        }
        return b.done(true);
    }
    case MPI_COMBINER_RESIZED: {
        TypeMap m = kids[0];
        m.lb = addrs[0];
        m.ub = addrs[0] + addrs[1];
        m.lb_marked = m.ub_marked = true;
        return m;
    }
    case MPI_COMBINER_SUBARRAY: {
        /* every index tuple of the subarray, in the array's memory order */
        const int nd_ = ints[0];
        const int *sizes = &ints[1], *sub = &ints[static_cast<std::size_t>(1 + nd_)], *start = &ints[static_cast<std::size_t>(1 + 2 * nd_)];
        const bool c_order = ints[static_cast<std::size_t>(1 + 3 * nd_)] == MPI_ORDER_C;
        std::vector<int> idx(static_cast<std::size_t>(nd_), 0);
        bool empty = false;
        for (int d = 0; d < nd_; ++d) {
            empty = empty || sub[d] == 0;
        }
        while (!empty) {
            std::int64_t lin = 0;
            for (int k = 0; k < nd_; ++k) {
                const int d = c_order ? k : nd_ - 1 - k; /* slowest first */
                lin = lin * sizes[d] + start[d] + idx[static_cast<std::size_t>(d)];
            }
            b.add(kids[0], lin * ext(kids[0]));
            int k = nd_ - 1;
            for (; k >= 0; --k) { /* advance the fastest dimension first */
                const int d = c_order ? k : nd_ - 1 - k;
                if (++idx[static_cast<std::size_t>(d)] < sub[d]) {
                    break;
                }
                idx[static_cast<std::size_t>(d)] = 0;
            }
            if (k < 0) {
                break;
            }
        }
        TypeMap m = b.done(false);
        std::int64_t total = ext(kids[0]);
        for (int d = 0; d < nd_; ++d) {
            total *= sizes[d];
        }
        m.lb = 0;
        m.ub = total;
        m.lb_marked = m.ub_marked = true;
        return m;
    }
    default:
        return TypeMap{};
    }
}

std::vector<unsigned char> reference_pack(const TypeMap &m, const unsigned char *buf, std::size_t count)
{
    std::vector<unsigned char> out;
    for (std::size_t i = 0; i < count; ++i) {
        for (const Run &r : m.runs) {
            const unsigned char *p = buf + static_cast<std::int64_t>(i) * (m.ub - m.lb) + r.offset;
            out.insert(out.end(), p, p + r.length);
        }
    }
    return out;
}

void reference_unpack(const TypeMap &m, const unsigned char *packed, unsigned char *buf, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i) {
        for (const Run &r : m.runs) {
            std::memcpy(buf + static_cast<std::int64_t>(i) * (m.ub - m.lb) + r.offset, packed, static_cast<std::size_t>(r.length));
            packed += r.length;
        }
    }
}

} // namespace tessera::test::datatype
