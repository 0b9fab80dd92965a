/*
 * The "external32" representation (MPI-4.1 19.5.2): every basic value big-endian, at the size the
 * standard fixes (MPI_LONG is 4 bytes there, MPI_LONG_DOUBLE a 16-byte IEEE quad, MPI_WCHAR 2),
 * in type-map order. Values are converted one by one: this path is for portability, not speed.
 */
#include <cstring>
#include <string>
#include <string_view>

#include "ompi/datatype/datatype_derived.h"
#include "ompi/datatype/type_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::native {

namespace {

enum class Kind : unsigned char { Signed, Unsigned, Float, LongDouble, Raw };

struct Member {
    std::ptrdiff_t offset; /* in the native element */
    unsigned native;       /* bytes here */
    unsigned external;     /* bytes in external32 */
    Kind kind;
};

/* The basic values of one element of a predefined type: one, or two for complex and pair types. */
int members(const Datatype *t, Member out[2])
{
    const std::string_view n(t->name);
    const auto scalar = [&](unsigned native, unsigned external, Kind k) {
        out[0] = {0, native, external, k};
        return 1;
    };
    const auto two = [&](unsigned a_native, unsigned a_ext, Kind ka, std::ptrdiff_t b_off, unsigned b_native,
                         unsigned b_ext, Kind kb) {
        out[0] = {0, a_native, a_ext, ka};
        out[1] = {b_off, b_native, b_ext, kb};
        return 2;
    };
    const unsigned size = static_cast<unsigned>(t->size);
    if (n == "MPI_LONG") {
        return scalar(size, 4, Kind::Signed);
    }
    if (n == "MPI_UNSIGNED_LONG") {
        return scalar(size, 4, Kind::Unsigned);
    }
    if (n == "MPI_WCHAR") {
        return scalar(size, 2, Kind::Unsigned);
    }
    if (n == "MPI_LONG_DOUBLE") {
        return scalar(size, 16, Kind::LongDouble);
    }
    if (n == "MPI_FLOAT_INT" || n == "MPI_DOUBLE_INT" || n == "MPI_LONG_INT" || n == "MPI_SHORT_INT" ||
        n == "MPI_LONG_DOUBLE_INT" || n == "MPI_2INT") {
        const unsigned first = size - static_cast<unsigned>(sizeof(int));
        const Kind k = n == "MPI_FLOAT_INT" || n == "MPI_DOUBLE_INT" ? Kind::Float
                       : n == "MPI_LONG_DOUBLE_INT"                  ? Kind::LongDouble
                                                                     : Kind::Signed;
        const unsigned ext = n == "MPI_LONG_INT" ? 4 : n == "MPI_LONG_DOUBLE_INT" ? 16 : first;
        const std::ptrdiff_t index_at = t->block_count == 2 ? t->blocks[1].offset : first;
        return two(first, ext, k, index_at, sizeof(int), 4, Kind::Signed);
    }
    if (n.find("COMPLEX") != std::string_view::npos || n.starts_with("MPI_2")) {
        const unsigned half = size / 2;
        const Kind k = n.find("INTEGER") != std::string_view::npos ? Kind::Signed
                       : n.find("LONG_DOUBLE") != std::string_view::npos ? Kind::LongDouble
                                                                         : Kind::Float;
        const unsigned ext = k == Kind::LongDouble ? 16 : half;
        return two(half, ext, k, half, half, ext, k);
    }
    if (n.find("FLOAT") != std::string_view::npos || n.find("DOUBLE") != std::string_view::npos ||
        n.find("REAL") != std::string_view::npos) {
        return scalar(size, size, Kind::Float);
    }
    if (n.find("UNSIGNED") != std::string_view::npos || n.find("UINT") != std::string_view::npos ||
        n.find("BOOL") != std::string_view::npos || n.find("LOGICAL") != std::string_view::npos) {
        return scalar(size, size, Kind::Unsigned);
    }
    if (n.find("INT") != std::string_view::npos || n == "MPI_SHORT" || n.find("LONG") != std::string_view::npos ||
        n == "MPI_AINT" || n == "MPI_COUNT" || n == "MPI_OFFSET" || n == "MPI_SIGNED_CHAR") {
        return scalar(size, size, Kind::Signed);
    }
    return scalar(size, size, Kind::Raw); /* MPI_BYTE, MPI_PACKED, MPI_CHAR, MPI_CHARACTER */
}

/* x86's 80-bit extended long double <-> IEEE binary128: same sign and biased exponent, the explicit
 * integer bit dropped and the 63 fraction bits at the top of the 112. */
void ld_to_quad(const unsigned char *in, unsigned char out[16])
{
    uint64_t mant = 0;
    uint16_t se = 0;
    std::memcpy(&mant, in, 8);
    std::memcpy(&se, in + 8, 2);
    const uint64_t frac = mant << 1; /* without the integer bit: 63 bits, now at the top */
    const uint64_t hi = (static_cast<uint64_t>(se) << 48) | (frac >> 16);
    const uint64_t lo = frac << 48;
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<unsigned char>(hi >> (56 - 8 * i));
        out[8 + i] = static_cast<unsigned char>(lo >> (56 - 8 * i));
    }
}

void quad_to_ld(const unsigned char in[16], unsigned char *out)
{
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; ++i) {
        hi = (hi << 8) | in[i];
        lo = (lo << 8) | in[8 + i];
    }
    const auto se = static_cast<uint16_t>(hi >> 48);
    const uint64_t frac = (hi << 16) | (lo >> 48);
    const bool normal = (se & 0x7fff) != 0;
    const uint64_t mant = (frac >> 1) | (normal ? (uint64_t{1} << 63) : 0);
    std::memcpy(out, &mant, 8);
    std::memcpy(out + 8, &se, 2);
    std::memset(out + 10, 0, sizeof(long double) - 10);
}

/* One value to external32 at `out`. */
void encode(const Member &m, const unsigned char *in, unsigned char *out)
{
    if (m.kind == Kind::LongDouble && sizeof(long double) == 16) {
        ld_to_quad(in, out);
        return;
    }
    if (m.kind == Kind::Raw) {
        std::memcpy(out, in, m.external);
        return;
    }
    /* little-endian host: value bytes are in[0..native); sign-extend or truncate to `external` */
    const bool negative = m.kind == Kind::Signed && (in[m.native - 1] & 0x80) != 0;
    for (unsigned i = 0; i < m.external; ++i) {
        const unsigned char b = i < m.native ? in[i] : (negative ? 0xff : 0x00);
        out[m.external - 1 - i] = b;
    }
}

void decode(const Member &m, const unsigned char *in, unsigned char *out)
{
    if (m.kind == Kind::LongDouble && sizeof(long double) == 16) {
        quad_to_ld(in, out);
        return;
    }
    if (m.kind == Kind::Raw) {
        std::memcpy(out, in, m.native);
        return;
    }
    const bool negative = m.kind == Kind::Signed && (in[0] & 0x80) != 0;
    for (unsigned i = 0; i < m.native; ++i) {
        out[i] = i < m.external ? in[m.external - 1 - i] : (negative ? 0xff : 0x00);
    }
}

/* Calls f(member, address) for every basic value of one element at `base`, in type-map order. */
template <typename F>
void each_value(const Datatype *t, char *base, F &f)
{
    if (t->derived == nullptr) {
        Member m[2];
        const int n = members(t, m);
        for (int i = 0; i < n; ++i) {
            f(m[i], base + m[i].offset);
        }
        return;
    }
    for (const TypeRun &r : t->derived->runs) {
        for (MPI_Count j = 0; j < r.count; ++j) {
            for (MPI_Count k = 0; k < r.blocklen; ++k) {
                each_value(r.child, base + r.disp + j * r.stride + k * r.child->extent, f);
            }
        }
    }
}

std::size_t external_size(const Datatype *t)
{
    std::size_t bytes = 0;
    auto add = [&bytes](const Member &m, char *) { bytes += m.external; };
    each_value(t, nullptr, add);
    return bytes;
}

int check(const char *fn, const char *datarep, MPI_Datatype datatype, const Datatype **out)
{
    if (datarep == nullptr || std::string_view(datarep) != "external32") {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, fn,
                             std::string("data representation \"") + (datarep != nullptr ? datarep : "(null)") +
                                 "\": only \"external32\" is defined");
    }
    return type_committed_argument(fn, datatype, MPI_COMM_SELF, out);
}

int pack_ext(const char *fn, const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
             void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    const Datatype *t = nullptr;
    if (int rc = check(fn, datarep, datatype, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    const MPI_Count bytes = incount * static_cast<MPI_Count>(external_size(t));
    if (*position < 0 || bytes > outsize - *position) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_TRUNCATE, fn,
                             std::to_string(bytes) + " bytes do not fit in the " + std::to_string(outsize - *position) +
                                 " left in the output buffer");
    }
    auto *out = static_cast<unsigned char *>(outbuf) + *position;
    auto put = [&out](const Member &m, char *at) {
        encode(m, reinterpret_cast<const unsigned char *>(at), out);
        out += m.external;
    };
    for (MPI_Count i = 0; i < incount; ++i) {
        each_value(t, const_cast<char *>(static_cast<const char *>(inbuf)) + i * t->extent, put);
    }
    *position += bytes;
    return MPI_SUCCESS;
}

int unpack_ext(const char *fn, const char *datarep, const void *inbuf, MPI_Count insize, MPI_Count *position,
               void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    const Datatype *t = nullptr;
    if (int rc = check(fn, datarep, datatype, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    const MPI_Count bytes = outcount * static_cast<MPI_Count>(external_size(t));
    if (*position < 0 || bytes > insize - *position) {
        return raise_on_comm(MPI_COMM_SELF, MPI_ERR_TRUNCATE, fn,
                             "unpacking " + std::to_string(bytes) + " bytes goes past the input's end");
    }
    const auto *in = static_cast<const unsigned char *>(inbuf) + *position;
    auto get = [&in](const Member &m, char *at) {
        decode(m, in, reinterpret_cast<unsigned char *>(at));
        in += m.external;
    };
    for (MPI_Count i = 0; i < outcount; ++i) {
        each_value(t, static_cast<char *>(outbuf) + i * t->extent, get);
    }
    *position += bytes;
    return MPI_SUCCESS;
}

} // namespace

int pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                    MPI_Count outsize, MPI_Count *position)
{
    return pack_ext("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                      MPI_Count outcount, MPI_Datatype datatype)
{
    return unpack_ext("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size)
{
    const Datatype *t = nullptr;
    if (int rc = check("MPI_Pack_external_size", datarep, datatype, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    *size = incount * static_cast<MPI_Count>(external_size(t));
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
