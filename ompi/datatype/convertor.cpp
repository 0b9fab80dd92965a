/* The convertor: contiguous types are one copy, derived ones go to their dte plan, and the predefined
 * pair types walk their two blocks. */
#include "ompi/datatype/convertor.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ompi/datatype/datatype_derived.h"

namespace tessera::ompi {

namespace {

/* Walks the packed range element by element and block by block; `copy(typed, packed, n)` moves n
 * bytes between the typed address and the packed position. */
template <typename Copy>
void walk(char *base, const Datatype &type, std::size_t offset, std::size_t len, Copy copy)
{
    std::size_t element = offset / type.size;
    std::size_t within = offset % type.size;
    std::size_t done = 0;
    while (done < len) {
        char *element_base = base + type.lb + static_cast<std::ptrdiff_t>(element) * type.extent;
        std::size_t block_start = 0;
        for (int b = 0; b < type.block_count && done < len; ++b) {
            const DatatypeBlock &block = type.blocks[b];
            if (within >= block_start + block.length) {
                block_start += block.length;
                continue;
            }
            const std::size_t skip = within - block_start;
            const std::size_t n = std::min(block.length - skip, len - done);
            copy(element_base + block.offset + static_cast<std::ptrdiff_t>(skip), done, n);
            done += n;
            within += n;
            block_start += block.length;
        }
        ++element;
        within = 0;
    }
}

} // namespace

void convertor_pack(const void *buf, std::size_t count, const Datatype &type, std::size_t offset, void *dst,
                    std::size_t len)
{
    if (len == 0) {
        return;
    }
    if (const char *packed = convertor_contiguous(buf, type)) {
        std::memcpy(dst, packed + offset, len);
        return;
    }
    if (const DerivedType *d = type.derived; d != nullptr) {
        d->plan->plan_pack(d->plan, buf, count, offset, dst, len);
        return;
    }
    auto *out = static_cast<char *>(dst);
    walk(const_cast<char *>(static_cast<const char *>(buf)), type, offset, len,
         [out](char *typed, std::size_t at, std::size_t n) { std::memcpy(out + at, typed, n); });
}

void convertor_unpack(void *buf, std::size_t count, const Datatype &type, std::size_t offset, const void *src,
                      std::size_t len)
{
    if (len == 0) {
        return;
    }
    if (type.contiguous) {
        std::memcpy(static_cast<char *>(buf) + type.true_lb + offset, src, len);
        return;
    }
    if (const DerivedType *d = type.derived; d != nullptr) {
        d->plan->plan_unpack(d->plan, buf, count, offset, src, len);
        return;
    }
    const auto *in = static_cast<const char *>(src);
    walk(static_cast<char *>(buf), type, offset, len,
         [in](char *typed, std::size_t at, std::size_t n) { std::memcpy(typed, in + at, n); });
}

void convertor_copy(const void *src, std::size_t scount, const Datatype &stype, void *dst, std::size_t dcount,
                    const Datatype &dtype)
{
    const std::size_t bytes = std::min(scount * stype.size, dcount * dtype.size);
    if (bytes == 0) {
        return;
    }
    if (const char *from = convertor_contiguous(src, stype)) {
        convertor_unpack(dst, dcount, dtype, 0, from, bytes);
        return;
    }
    if (dtype.contiguous) {
        convertor_pack(src, scount, stype, 0, static_cast<char *>(dst) + dtype.true_lb, bytes);
        return;
    }
    /* Both scattered: through a bounded staging buffer, one stretch of the packed stream at a time. */
    constexpr std::size_t kStage = 256 * 1024;
    std::vector<char> stage(std::min(bytes, kStage));
    for (std::size_t at = 0; at < bytes; at += stage.size()) {
        const std::size_t n = std::min(stage.size(), bytes - at);
        convertor_pack(src, scount, stype, at, stage.data(), n);
        convertor_unpack(dst, dcount, dtype, at, stage.data(), n);
    }
}

} // namespace tessera::ompi
