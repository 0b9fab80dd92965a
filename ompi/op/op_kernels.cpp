/*
 * The predefined ops on the predefined datatypes (MPI-4.1 6.9.2, and 6.9.4 for MINLOC/MAXLOC): one
 * plain loop over typed arrays per (op, type), which the compiler vectorizes (this file is built with
 * the vectorizer's full cost model, ompi/CMakeLists.txt). Signed integers wrap on overflow as the
 * hardware does instead of being undefined: their sums and products are computed unsigned.
 */
#include "ompi/op/op_kernels.h"

#include <array>
#include <complex>
#include <cstdint>
#include <type_traits>

namespace tessera::ompi {

namespace {

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;
#endif

template <typename T>
struct Unsigned {
    using type = std::make_unsigned_t<T>;
};
#ifdef __SIZEOF_INT128__
template <>
struct Unsigned<Int128> {
    using type = UInt128;
};
template <>
struct Unsigned<UInt128> {
    using type = UInt128;
};
#endif

template <typename T>
constexpr bool kInteger = std::is_integral_v<T>
#ifdef __SIZEOF_INT128__
                          || std::is_same_v<T, Int128> || std::is_same_v<T, UInt128>
#endif
    ;

/* Integer arithmetic in an unsigned type at least as wide as unsigned int (so that neither signed
 * overflow nor the promotion of small unsigned types to int can be undefined). */
template <typename T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, typename Unsigned<T>::type>;

/* A complex number of a type std::complex does not take (half and quad precision). */
template <typename T>
struct Cplx {
    T re, im;
};
template <typename T>
Cplx<T> operator+(Cplx<T> a, Cplx<T> b)
{
    return {static_cast<T>(a.re + b.re), static_cast<T>(a.im + b.im)};
}
template <typename T>
Cplx<T> operator*(Cplx<T> a, Cplx<T> b)
{
    return {static_cast<T>(a.re * b.re - a.im * b.im), static_cast<T>(a.re * b.im + a.im * b.re)};
}

/* The element of a MINLOC/MAXLOC pair type, laid out as the C struct {value; index}. */
template <typename V, typename I>
struct Pair {
    V value;
    I index;
};

struct Max {
    template <typename T>
    static T apply(T a, T b) { return a > b ? a : b; }
};
struct Min {
    template <typename T>
    static T apply(T a, T b) { return a < b ? a : b; }
};
struct Sum {
    template <typename T>
    static T apply(T a, T b)
    {
        if constexpr (kInteger<T>) {
            return static_cast<T>(static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b));
        } else {
            return static_cast<T>(a + b);
        }
    }
};
struct Prod {
    template <typename T>
    static T apply(T a, T b)
    {
        if constexpr (kInteger<T>) {
            return static_cast<T>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
        } else {
            return static_cast<T>(a * b);
        }
    }
};
struct Land {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>(a != 0 && b != 0); }
};
struct Lor {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>(a != 0 || b != 0); }
};
struct Lxor {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>((a != 0) != (b != 0)); }
};
struct Band {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct Bor {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct Bxor {
    template <typename T>
    static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};
/* Equal values keep the lower index (MPI-4.1 6.9.4), whichever side it comes from. */
struct Maxloc {
    template <typename P>
    static P apply(P a, P b)
    {
        if (a.value != b.value) {
            return a.value > b.value ? a : b;
        }
        return a.index < b.index ? a : b;
    }
};
struct Minloc {
    template <typename P>
    static P apply(P a, P b)
    {
        if (a.value != b.value) {
            return a.value < b.value ? a : b;
        }
        return a.index < b.index ? a : b;
    }
};

template <typename T, typename F>
void loop(const void *in, void *inout, std::size_t count)
{
    const T *__restrict a = static_cast<const T *>(in);
    T *__restrict b = static_cast<T *>(inout);
    for (std::size_t i = 0; i < count; ++i) {
        b[i] = F::apply(a[i], b[i]);
    }
}

constexpr std::uintptr_t kFirstType = 0x200;
constexpr std::size_t kTypes = 0x100;

using Kernels = std::array<OpKernel, kPredefinedOpKinds>;
using Table = std::array<Kernels, kTypes>;

template <typename T>
using As = std::type_identity<T>;

class TableBuilder {
public:
    Table table{};

    template <typename T, typename F>
    void set(MPI_Datatype type, OpKind kind)
    {
        table[index(type)][static_cast<std::size_t>(kind)] = loop<T, F>;
    }

    /* C integer: everything but the loc ops; Fortran integer and multi-language types: no logical ops. */
    template <typename T>
    void integer(MPI_Datatype type, As<T>, bool logical)
    {
        set<T, Max>(type, OpKind::Max);
        set<T, Min>(type, OpKind::Min);
        set<T, Sum>(type, OpKind::Sum);
        set<T, Prod>(type, OpKind::Prod);
        set<T, Band>(type, OpKind::Band);
        set<T, Bor>(type, OpKind::Bor);
        set<T, Bxor>(type, OpKind::Bxor);
        if (logical) {
            this->logical(type, As<T>{});
        }
    }
    template <typename T>
    void floating(MPI_Datatype type, As<T>)
    {
        set<T, Max>(type, OpKind::Max);
        set<T, Min>(type, OpKind::Min);
        set<T, Sum>(type, OpKind::Sum);
        set<T, Prod>(type, OpKind::Prod);
    }
    template <typename T>
    void complex(MPI_Datatype type, As<T>)
    {
        set<T, Sum>(type, OpKind::Sum);
        set<T, Prod>(type, OpKind::Prod);
    }
    template <typename T>
    void logical(MPI_Datatype type, As<T>)
    {
        set<T, Land>(type, OpKind::Land);
        set<T, Lor>(type, OpKind::Lor);
        set<T, Lxor>(type, OpKind::Lxor);
    }
    template <typename T>
    void bitwise(MPI_Datatype type, As<T>)
    {
        set<T, Band>(type, OpKind::Band);
        set<T, Bor>(type, OpKind::Bor);
        set<T, Bxor>(type, OpKind::Bxor);
    }
    template <typename V, typename I>
    void pair(MPI_Datatype type, As<Pair<V, I>>)
    {
        set<Pair<V, I>, Maxloc>(type, OpKind::Maxloc);
        set<Pair<V, I>, Minloc>(type, OpKind::Minloc);
    }

    static std::size_t index(MPI_Datatype type) { return reinterpret_cast<std::uintptr_t>(type) - kFirstType; }
};

Table make_table()
{
    TableBuilder b;
    /* C integer */
    b.integer(MPI_SHORT, As<short>{}, true);
    b.integer(MPI_INT, As<int>{}, true);
    b.integer(MPI_LONG, As<long>{}, true);
    b.integer(MPI_LONG_LONG, As<long long>{}, true);
    b.integer(MPI_UNSIGNED_SHORT, As<unsigned short>{}, true);
    b.integer(MPI_UNSIGNED, As<unsigned>{}, true);
    b.integer(MPI_UNSIGNED_LONG, As<unsigned long>{}, true);
    b.integer(MPI_UNSIGNED_LONG_LONG, As<unsigned long long>{}, true);
    b.integer(MPI_SIGNED_CHAR, As<signed char>{}, true);
    b.integer(MPI_UNSIGNED_CHAR, As<unsigned char>{}, true);
    /* Not a C integer type by the standard's lists, but Open MPI and MPICH reduce it as the platform's
     * char and widely used benchmarks rely on that; op_defined_on refuses it under mpi_strict_ops. */
    b.integer(MPI_CHAR, As<char>{}, true);
    b.integer(MPI_INT8_T, As<std::int8_t>{}, true);
    b.integer(MPI_UINT8_T, As<std::uint8_t>{}, true);
    b.integer(MPI_INT16_T, As<std::int16_t>{}, true);
    b.integer(MPI_UINT16_T, As<std::uint16_t>{}, true);
    b.integer(MPI_INT32_T, As<std::int32_t>{}, true);
    b.integer(MPI_UINT32_T, As<std::uint32_t>{}, true);
    b.integer(MPI_INT64_T, As<std::int64_t>{}, true);
    b.integer(MPI_UINT64_T, As<std::uint64_t>{}, true);
    /* Multi-language types */
    b.integer(MPI_AINT, As<MPI_Aint>{}, false);
    b.integer(MPI_OFFSET, As<MPI_Offset>{}, false);
    b.integer(MPI_COUNT, As<MPI_Count>{}, false);
    /* Fortran integer (gfortran's kinds) */
    b.integer(MPI_INTEGER, As<std::int32_t>{}, false);
    b.integer(MPI_INTEGER1, As<std::int8_t>{}, false);
    b.integer(MPI_INTEGER2, As<std::int16_t>{}, false);
    b.integer(MPI_INTEGER4, As<std::int32_t>{}, false);
    b.integer(MPI_INTEGER8, As<std::int64_t>{}, false);
#ifdef __SIZEOF_INT128__
    b.integer(MPI_INTEGER16, As<Int128>{}, false);
#endif
    /* Floating point */
    b.floating(MPI_FLOAT, As<float>{});
    b.floating(MPI_DOUBLE, As<double>{});
    b.floating(MPI_LONG_DOUBLE, As<long double>{});
    b.floating(MPI_REAL, As<float>{});
    b.floating(MPI_DOUBLE_PRECISION, As<double>{});
    b.floating(MPI_REAL4, As<float>{});
    b.floating(MPI_REAL8, As<double>{});
#ifdef __FLT16_MANT_DIG__
    b.floating(MPI_REAL2, As<_Float16>{});
#endif
#ifdef __SIZEOF_FLOAT128__
    b.floating(MPI_REAL16, As<__float128>{});
#endif
    /* Logical: C and C++ bool, Fortran LOGICAL of each kind (non-zero is true) */
    b.logical(MPI_C_BOOL, As<bool>{});
    b.logical(MPI_CXX_BOOL, As<bool>{});
    b.logical(MPI_LOGICAL, As<std::int32_t>{});
    b.logical(MPI_LOGICAL1, As<std::int8_t>{});
    b.logical(MPI_LOGICAL2, As<std::int16_t>{});
    b.logical(MPI_LOGICAL4, As<std::int32_t>{});
    b.logical(MPI_LOGICAL8, As<std::int64_t>{});
#ifdef __SIZEOF_INT128__
    b.logical(MPI_LOGICAL16, As<Int128>{});
#endif
    /* Complex */
    b.complex(MPI_C_FLOAT_COMPLEX, As<std::complex<float>>{});
    b.complex(MPI_CXX_FLOAT_COMPLEX, As<std::complex<float>>{});
    b.complex(MPI_C_DOUBLE_COMPLEX, As<std::complex<double>>{});
    b.complex(MPI_CXX_DOUBLE_COMPLEX, As<std::complex<double>>{});
    b.complex(MPI_C_LONG_DOUBLE_COMPLEX, As<std::complex<long double>>{});
    b.complex(MPI_CXX_LONG_DOUBLE_COMPLEX, As<std::complex<long double>>{});
    b.complex(MPI_COMPLEX, As<std::complex<float>>{});
    b.complex(MPI_DOUBLE_COMPLEX, As<std::complex<double>>{});
    b.complex(MPI_COMPLEX8, As<std::complex<float>>{});
    b.complex(MPI_COMPLEX16, As<std::complex<double>>{});
#ifdef __FLT16_MANT_DIG__
    b.complex(MPI_COMPLEX4, As<Cplx<_Float16>>{});
#endif
#ifdef __SIZEOF_FLOAT128__
    b.complex(MPI_COMPLEX32, As<Cplx<__float128>>{});
#endif
    /* Byte */
    b.bitwise(MPI_BYTE, As<unsigned char>{});
    /* Pairs (MINLOC, MAXLOC) */
    b.pair(MPI_FLOAT_INT, As<Pair<float, int>>{});
    b.pair(MPI_DOUBLE_INT, As<Pair<double, int>>{});
    b.pair(MPI_LONG_INT, As<Pair<long, int>>{});
    b.pair(MPI_2INT, As<Pair<int, int>>{});
    b.pair(MPI_SHORT_INT, As<Pair<short, int>>{});
    b.pair(MPI_LONG_DOUBLE_INT, As<Pair<long double, int>>{});
    b.pair(MPI_2REAL, As<Pair<float, float>>{});
    b.pair(MPI_2DOUBLE_PRECISION, As<Pair<double, double>>{});
    b.pair(MPI_2INTEGER, As<Pair<std::int32_t, std::int32_t>>{});
    return b.table;
}

const Table table = make_table();

} // namespace

OpKernel op_kernel(OpKind kind, const Datatype *type)
{
    if (type == nullptr || type->derived != nullptr || static_cast<int>(kind) >= kPredefinedOpKinds) {
        return nullptr;
    }
    const std::size_t index = TableBuilder::index(datatype_handle(type));
    return index < kTypes ? table[index][static_cast<std::size_t>(kind)] : nullptr;
}

const char *op_classes(OpKind kind)
{
    switch (kind) {
    case OpKind::Max:
    case OpKind::Min:
        return "C integer, Fortran integer, multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT) and floating-point types";
    case OpKind::Sum:
    case OpKind::Prod:
        return "C integer, Fortran integer, multi-language, floating-point and complex types";
    case OpKind::Land:
    case OpKind::Lor:
    case OpKind::Lxor:
        return "C integer and logical types";
    case OpKind::Band:
    case OpKind::Bor:
    case OpKind::Bxor:
        return "C integer, Fortran integer and multi-language types and MPI_BYTE";
    case OpKind::Maxloc:
    case OpKind::Minloc:
        return "the pair types MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, "
               "MPI_LONG_DOUBLE_INT, MPI_2REAL, MPI_2DOUBLE_PRECISION and MPI_2INTEGER";
    case OpKind::Replace:
    case OpKind::NoOp:
        return "every datatype";
    case OpKind::User:
        break;
    }
    return "every datatype";
}

} // namespace tessera::ompi
