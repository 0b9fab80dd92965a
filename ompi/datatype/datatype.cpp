/* The predefined datatypes of the MPI 5.0 ABI (ompi/api/constants.tsv), indexed by handle value. */
#include "ompi/datatype/datatype.h"

#include <array>
#include <complex>
#include <cstdint>
#include <cwchar>

#include "ompi/datatype/datatype_derived.h"

namespace tessera::ompi {

namespace {

constexpr std::uintptr_t kFirst = 0x200, kLast = 0x2ff;

constexpr Datatype basic(const char *name, std::size_t size)
{
    return Datatype{name, size, 0, static_cast<std::ptrdiff_t>(size), true, 1, {{0, size}, {0, 0}},
                    0, static_cast<std::ptrdiff_t>(size), nullptr};
}

/* A value followed by an int (MINLOC/MAXLOC pairs), laid out as the C struct {T value; int index;}. */
template <typename T, typename I = int>
constexpr Datatype pair(const char *name)
{
    struct Layout {
        T value;
        I index;
    };
    constexpr std::size_t index_offset = sizeof(T) % alignof(I) == 0 ? sizeof(T) : sizeof(T) + alignof(I) - sizeof(T) % alignof(I);
    constexpr bool packed = index_offset == sizeof(T) && sizeof(Layout) == sizeof(T) + sizeof(I);
    return Datatype{name,
                    sizeof(T) + sizeof(I),
                    0,
                    static_cast<std::ptrdiff_t>(sizeof(Layout)),
                    packed,
                    packed ? 1 : 2,
                    {{0, packed ? sizeof(T) + sizeof(I) : sizeof(T)},
                     {static_cast<std::ptrdiff_t>(index_offset), packed ? 0 : sizeof(I)}},
                    0,
                    static_cast<std::ptrdiff_t>(index_offset + sizeof(I)),
                    nullptr};
}

using Table = std::array<Datatype, kLast - kFirst + 1>;

Table make_table()
{
    Table t{};
    auto set = [&t](std::uintptr_t handle, const Datatype &d) { t[handle - kFirst] = d; };
    set(0x201, basic("MPI_AINT", sizeof(MPI_Aint)));
    set(0x202, basic("MPI_COUNT", sizeof(MPI_Count)));
    set(0x203, basic("MPI_OFFSET", sizeof(MPI_Offset)));
    set(0x207, basic("MPI_PACKED", 1));
    set(0x208, basic("MPI_SHORT", sizeof(short)));
    set(0x209, basic("MPI_INT", sizeof(int)));
    set(0x20a, basic("MPI_LONG", sizeof(long)));
    /* Where the ABI gives two names one handle, the name is the one the standard lists first and
       calls the other its synonym (MPI-4.1 3.2.2, Table 3.2): what Open MPI and MPICH report too. */
    set(0x20b, basic("MPI_LONG_LONG_INT", sizeof(long long)));
    set(0x20c, basic("MPI_UNSIGNED_SHORT", sizeof(unsigned short)));
    set(0x20d, basic("MPI_UNSIGNED", sizeof(unsigned)));
    set(0x20e, basic("MPI_UNSIGNED_LONG", sizeof(unsigned long)));
    set(0x20f, basic("MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long)));
    set(0x210, basic("MPI_FLOAT", sizeof(float)));
    set(0x212, basic("MPI_C_COMPLEX", 2 * sizeof(float)));
    set(0x213, basic("MPI_CXX_FLOAT_COMPLEX", 2 * sizeof(float)));
    set(0x214, basic("MPI_DOUBLE", sizeof(double)));
    set(0x216, basic("MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double)));
    set(0x217, basic("MPI_CXX_DOUBLE_COMPLEX", 2 * sizeof(double)));
    /* Fortran types with the sizes of gfortran's defaults. */
    set(0x218, basic("MPI_LOGICAL", 4));
    set(0x219, basic("MPI_INTEGER", 4));
    set(0x21a, basic("MPI_REAL", 4));
    set(0x21b, basic("MPI_COMPLEX", 8));
    set(0x21c, basic("MPI_DOUBLE_PRECISION", 8));
    set(0x21d, basic("MPI_DOUBLE_COMPLEX", 16));
    set(0x21e, basic("MPI_CHARACTER", 1));
    set(0x220, basic("MPI_LONG_DOUBLE", sizeof(long double)));
    set(0x224, basic("MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double)));
    set(0x225, basic("MPI_CXX_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double)));
    set(0x228, pair<float>("MPI_FLOAT_INT"));
    set(0x229, pair<double>("MPI_DOUBLE_INT"));
    set(0x22a, pair<long>("MPI_LONG_INT"));
    set(0x22b, pair<int>("MPI_2INT"));
    set(0x22c, pair<short>("MPI_SHORT_INT"));
    set(0x22d, pair<long double>("MPI_LONG_DOUBLE_INT"));
    set(0x230, basic("MPI_2REAL", 8));
    set(0x231, basic("MPI_2DOUBLE_PRECISION", 16));
    set(0x232, basic("MPI_2INTEGER", 8));
    set(0x238, basic("MPI_C_BOOL", sizeof(bool)));
    set(0x239, basic("MPI_CXX_BOOL", sizeof(bool)));
    set(0x23c, basic("MPI_WCHAR", sizeof(wchar_t)));
    set(0x240, basic("MPI_INT8_T", 1));
    set(0x241, basic("MPI_UINT8_T", 1));
    set(0x243, basic("MPI_CHAR", 1));
    set(0x244, basic("MPI_SIGNED_CHAR", 1));
    set(0x245, basic("MPI_UNSIGNED_CHAR", 1));
    set(0x247, basic("MPI_BYTE", 1));
    set(0x248, basic("MPI_INT16_T", 2));
    set(0x249, basic("MPI_UINT16_T", 2));
    set(0x250, basic("MPI_INT32_T", 4));
    set(0x251, basic("MPI_UINT32_T", 4));
    set(0x258, basic("MPI_INT64_T", 8));
    set(0x259, basic("MPI_UINT64_T", 8));
    set(0x2c0, basic("MPI_LOGICAL1", 1));
    set(0x2c1, basic("MPI_INTEGER1", 1));
    set(0x2c8, basic("MPI_LOGICAL2", 2));
    set(0x2c9, basic("MPI_INTEGER2", 2));
    set(0x2ca, basic("MPI_REAL2", 2));
    set(0x2d0, basic("MPI_LOGICAL4", 4));
    set(0x2d1, basic("MPI_INTEGER4", 4));
    set(0x2d2, basic("MPI_REAL4", 4));
    set(0x2d3, basic("MPI_COMPLEX4", 4));
    set(0x2d8, basic("MPI_LOGICAL8", 8));
    set(0x2d9, basic("MPI_INTEGER8", 8));
    set(0x2da, basic("MPI_REAL8", 8));
    set(0x2db, basic("MPI_COMPLEX8", 8));
    set(0x2e0, basic("MPI_LOGICAL16", 16));
    set(0x2e1, basic("MPI_INTEGER16", 16));
    set(0x2e2, basic("MPI_REAL16", 16));
    set(0x2e3, basic("MPI_COMPLEX16", 16));
    set(0x2eb, basic("MPI_COMPLEX32", 32));
    return t;
}

const Table table = make_table();

} // namespace

const Datatype *derived_lookup(MPI_Datatype handle); /* datatype_derived.cpp */

const Datatype *datatype_lookup(MPI_Datatype handle)
{
    const auto v = reinterpret_cast<std::uintptr_t>(handle);
    if (v < kFirst || v > kLast) {
        return derived_lookup(handle);
    }
    const Datatype &d = table[v - kFirst];
    return d.name != nullptr ? &d : nullptr;
}

MPI_Datatype datatype_handle(const Datatype *type)
{
    if (type->derived != nullptr) {
        return user_handle<MPI_Datatype>(type->derived);
    }
    return reinterpret_cast<MPI_Datatype>(kFirst + static_cast<std::uintptr_t>(type - table.data()));
}

} // namespace tessera::ompi
