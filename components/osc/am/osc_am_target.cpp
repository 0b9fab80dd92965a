/* osc am: the window's bytes a request names, walked along the target datatype's description. */
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "components/osc/am/osc_am.h"

namespace tessera::ompi::osc_am {

namespace {

/* Calls fn(offset, length) for each block of `count` elements described by `desc` (extent apart), in
 * packed order; offsets are relative to the first element. */
template <typename Fn>
void walk(const mca_dte_elem_t *desc, std::size_t n, std::ptrdiff_t base, Fn &fn)
{
    for (std::size_t i = 0; i < n;) {
        const mca_dte_elem_t &e = desc[i];
        if (e.op == MCA_DTE_OP_BLOCKS) {
            for (std::uint64_t b = 0; b < e.count; ++b) {
                fn(base + e.disp + static_cast<std::ptrdiff_t>(b) * e.stride, e.blocklen);
            }
            ++i;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            for (std::uint64_t it = 0; it < e.count; ++it) {
                walk(desc + i + 1, e.items, base + static_cast<std::ptrdiff_t>(it) * e.stride, fn);
            }
            i += e.items + 2; /* the loop, its body, its END_LOOP */
        } else {
            ++i;
        }
    }
}

/* Calls fn(offset, length) for each block of the target side of `c`, in packed order. */
template <typename Fn>
void each(const Ctl &c, const mca_dte_elem_t *desc, Fn fn)
{
    if (c.elems == 0) {
        fn(std::ptrdiff_t{0}, c.bytes);
        return;
    }
    for (std::uint64_t i = 0; i < c.count; ++i) {
        walk(desc, c.elems, static_cast<std::ptrdiff_t>(i) * c.extent, fn);
    }
}

} // namespace

void target_span(const Ctl &c, const mca_dte_elem_t *desc, std::ptrdiff_t *lo, std::ptrdiff_t *hi)
{
    std::ptrdiff_t low = PTRDIFF_MAX, high = PTRDIFF_MIN;
    each(c, desc, [&](std::ptrdiff_t off, std::size_t len) {
        low = std::min(low, off);
        high = std::max(high, off + static_cast<std::ptrdiff_t>(len));
    });
    *lo = low;
    *hi = high;
}

void target_gather(const Ctl &c, const mca_dte_elem_t *desc, const char *at, char *out)
{
    each(c, desc, [&](std::ptrdiff_t off, std::size_t len) {
        std::memcpy(out, at + off, len);
        out += len;
    });
}

void target_scatter(const Ctl &c, const mca_dte_elem_t *desc, char *at, const char *in)
{
    each(c, desc, [&](std::ptrdiff_t off, std::size_t len) {
        std::memcpy(at + off, in, len);
        in += len;
    });
}

} // namespace tessera::ompi::osc_am
