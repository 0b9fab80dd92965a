/*
 * Every predefined op on every predefined datatype of the ABI: where MPI-4.1 6.9.2 defines the op on
 * the type's class, op_reduce must give inout[i] = in[i] op inout[i] as a scalar reference computes it
 * (over 37 elements: the vectorized loops' remainders too); where it does not, op_check must refuse the
 * pair with a message naming both.
 */
#include <gtest/gtest.h>

#include <complex>
#include <memory>
#include <cstdint>
#include <string>

#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"

namespace tessera::test::op {
namespace {

using ompi::Datatype;
using ompi::Op;
using ompi::OpKind;

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 Int128;
#endif

enum class Cls { CInteger, FortranInteger, MultiLanguage, Floating, Complex, Logical, Byte, Pair, None };

bool allowed(OpKind op, Cls cls)
{
    switch (op) {
    case OpKind::Max:
    case OpKind::Min:
        return cls == Cls::CInteger || cls == Cls::FortranInteger || cls == Cls::MultiLanguage || cls == Cls::Floating;
    case OpKind::Sum:
    case OpKind::Prod:
        return cls == Cls::CInteger || cls == Cls::FortranInteger || cls == Cls::MultiLanguage ||
               cls == Cls::Floating || cls == Cls::Complex;
    case OpKind::Land:
    case OpKind::Lor:
    case OpKind::Lxor:
        return cls == Cls::CInteger || cls == Cls::Logical;
    case OpKind::Band:
    case OpKind::Bor:
    case OpKind::Bxor:
        return cls == Cls::CInteger || cls == Cls::FortranInteger || cls == Cls::MultiLanguage || cls == Cls::Byte;
    case OpKind::Maxloc:
    case OpKind::Minloc:
        return cls == Cls::Pair;
    case OpKind::Replace:
    case OpKind::NoOp:
        return true;
    case OpKind::User:
        break;
    }
    return false;
}

const MPI_Op kOps[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                       MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};

constexpr std::size_t kCount = 37;

/* The scalar references, computed in a wide type. */
long long integer_ref(OpKind op, long long a, long long b)
{
    switch (op) {
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::Sum: return a + b;
    case OpKind::Prod: return a * b;
    case OpKind::Land: return (a != 0) && (b != 0);
    case OpKind::Lor: return (a != 0) || (b != 0);
    case OpKind::Lxor: return (a != 0) != (b != 0);
    case OpKind::Band: return a & b;
    case OpKind::Bor: return a | b;
    case OpKind::Bxor: return a ^ b;
    default: return 0;
    }
}

long double floating_ref(OpKind op, long double a, long double b)
{
    switch (op) {
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::Sum: return a + b;
    case OpKind::Prod: return a * b;
    default: return 0;
    }
}

template <typename R>
struct Cplx {
    R re, im;
};

template <typename V, typename I>
struct Pair {
    V value;
    I index;
};

/* Element i of the two operands of each class (small values: every result is exact). */
long long int_a(std::size_t i, bool is_signed) { return static_cast<long long>(i * 7 % 11) - (is_signed ? 5 : 0); }
long long int_b(std::size_t i, bool is_signed) { return static_cast<long long>(i * 5 % 9) - (is_signed ? 4 : 0); }
long double real_a(std::size_t i) { return static_cast<long double>(int_a(i, true)) / 2; }
long double real_b(std::size_t i) { return static_cast<long double>(int_b(i, true)) / 2; }

struct Runner {
    /* Reduces the operands with every op and checks each against `expect(op, a, b)`. */
    template <typename T, typename MakeA, typename MakeB, typename Expect, typename Same>
    void run(MPI_Datatype handle, Cls cls, MakeA make_a, MakeB make_b, Expect expect, Same same)
    {
        const Datatype *type = ompi::datatype_lookup(handle);
        ASSERT_NE(type, nullptr);
        ASSERT_EQ(static_cast<std::size_t>(type->extent), sizeof(T)) << type->name;
        ++types;
        for (MPI_Op handle_op : kOps) {
            const Op *op = ompi::op_lookup(handle_op);
            ASSERT_NE(op, nullptr);
            const std::string why = ompi::op_check(op, type);
            if (!allowed(op->kind, cls)) {
                EXPECT_NE(why, "") << op->name << " on " << type->name << " must be refused";
                EXPECT_NE(why.find(op->name), std::string::npos) << why;
                EXPECT_NE(why.find(type->name), std::string::npos) << why;
                ++refused;
                continue;
            }
            EXPECT_EQ(why, "") << op->name << " on " << type->name;
            /* Arrays, not vectors: std::vector<bool> has no data(). */
            auto a = std::make_unique<T[]>(kCount), b = std::make_unique<T[]>(kCount);
            auto before = std::make_unique<T[]>(kCount);
            for (std::size_t i = 0; i < kCount; ++i) {
                a[i] = make_a(i);
                b[i] = before[i] = make_b(i);
            }
            ompi::op_reduce(op, a.get(), b.get(), kCount, type);
            for (std::size_t i = 0; i < kCount; ++i) {
                const T want = op->kind == OpKind::Replace ? a[i]
                               : op->kind == OpKind::NoOp  ? before[i]
                                                           : expect(op->kind, a[i], before[i]);
                EXPECT_TRUE(same(b[i], want)) << op->name << " on " << type->name << " element " << i;
            }
            ++checked;
        }
    }

    template <typename T>
    void integer(MPI_Datatype handle, Cls cls)
    {
        constexpr bool is_signed = static_cast<T>(-1) < static_cast<T>(0);
        run<T>(
            handle, cls, [](std::size_t i) { return static_cast<T>(int_a(i, is_signed)); },
            [](std::size_t i) { return static_cast<T>(int_b(i, is_signed)); },
            [](OpKind op, T a, T b) {
                return static_cast<T>(integer_ref(op, static_cast<long long>(a), static_cast<long long>(b)));
            },
            [](T x, T y) { return x == y; });
    }

    template <typename T>
    void floating(MPI_Datatype handle)
    {
        run<T>(
            handle, Cls::Floating, [](std::size_t i) { return static_cast<T>(real_a(i)); },
            [](std::size_t i) { return static_cast<T>(real_b(i)); },
            [](OpKind op, T a, T b) {
                return static_cast<T>(floating_ref(op, static_cast<long double>(a), static_cast<long double>(b)));
            },
            [](T x, T y) { return x == y; });
    }

    /* Logical operands: any non-zero value is true, 2 as well as 1; results are 0 or 1. */
    template <typename T>
    void logical(MPI_Datatype handle)
    {
        run<T>(
            handle, Cls::Logical, [](std::size_t i) { return static_cast<T>(i % 3 != 0 ? 1 + i % 2 : 0); },
            [](std::size_t i) { return static_cast<T>((i / 2) % 2); },
            [](OpKind op, T a, T b) {
                return static_cast<T>(integer_ref(op, static_cast<long long>(a != 0), static_cast<long long>(b != 0)));
            },
            [](T x, T y) { return x == y; });
    }

    /* A complex type laid out as {re, im} of R (std::complex<R> where the library has it). */
    template <typename R>
    void complex(MPI_Datatype handle)
    {
        using C = Cplx<R>;
        run<C>(
            handle, Cls::Complex, [](std::size_t i) { return C{static_cast<R>(real_a(i)), static_cast<R>(real_b(i + 3))}; },
            [](std::size_t i) { return C{static_cast<R>(real_b(i)), static_cast<R>(real_a(i + 5))}; },
            [](OpKind op, C a, C b) {
                const long double ar = static_cast<long double>(a.re), ai = static_cast<long double>(a.im);
                const long double br = static_cast<long double>(b.re), bi = static_cast<long double>(b.im);
                if (op == OpKind::Sum) {
                    return C{static_cast<R>(ar + br), static_cast<R>(ai + bi)};
                }
                return C{static_cast<R>(ar * br - ai * bi), static_cast<R>(ar * bi + ai * br)};
            },
            [](C x, C y) { return x.re == y.re && x.im == y.im; });
    }

    template <typename V, typename I>
    void pair(MPI_Datatype handle)
    {
        using P = Pair<V, I>;
        run<P>(
            handle, Cls::Pair, [](std::size_t i) { return P{static_cast<V>(i % 4), static_cast<I>(i)}; },
            [](std::size_t i) { return P{static_cast<V>(i * 3 % 4), static_cast<I>(50 - static_cast<int>(i))}; },
            [](OpKind op, P a, P b) {
                const bool max = op == OpKind::Maxloc;
                if (a.value != b.value) {
                    return (a.value > b.value) == max ? a : b;
                }
                return P{a.value, a.index < b.index ? a.index : b.index};
            },
            [](P x, P y) { return x.value == y.value && x.index == y.index; });
    }

    /* Types no op but MPI_REPLACE and MPI_NO_OP is defined on. */
    template <typename T>
    void none(MPI_Datatype handle)
    {
        run<T>(
            handle, Cls::None, [](std::size_t i) { return static_cast<T>('a' + i % 26); },
            [](std::size_t i) { return static_cast<T>('A' + i % 26); }, [](OpKind, T, T b) { return b; },
            [](T x, T y) { return x == y; });
    }

    int types = 0, checked = 0, refused = 0;
};

TEST(OpPredefined, EveryOpOnEveryPredefinedTypeMatchesTheReferenceOrIsRefused)
{
    Runner r;
    /* C integer */
    r.integer<short>(MPI_SHORT, Cls::CInteger);
    r.integer<int>(MPI_INT, Cls::CInteger);
    r.integer<long>(MPI_LONG, Cls::CInteger);
    r.integer<long long>(MPI_LONG_LONG, Cls::CInteger);
    r.integer<long long>(MPI_LONG_LONG_INT, Cls::CInteger);
    r.integer<unsigned short>(MPI_UNSIGNED_SHORT, Cls::CInteger);
    r.integer<unsigned>(MPI_UNSIGNED, Cls::CInteger);
    r.integer<unsigned long>(MPI_UNSIGNED_LONG, Cls::CInteger);
    r.integer<unsigned long long>(MPI_UNSIGNED_LONG_LONG, Cls::CInteger);
    r.integer<signed char>(MPI_SIGNED_CHAR, Cls::CInteger);
    r.integer<unsigned char>(MPI_UNSIGNED_CHAR, Cls::CInteger);
    /* Not a C integer type by the standard's lists; reduced as the platform's char, as Open MPI and
     * MPICH do (mpi_strict_ops, off by default, refuses it). */
    r.integer<char>(MPI_CHAR, Cls::CInteger);
    r.integer<std::int8_t>(MPI_INT8_T, Cls::CInteger);
    r.integer<std::uint8_t>(MPI_UINT8_T, Cls::CInteger);
    r.integer<std::int16_t>(MPI_INT16_T, Cls::CInteger);
    r.integer<std::uint16_t>(MPI_UINT16_T, Cls::CInteger);
    r.integer<std::int32_t>(MPI_INT32_T, Cls::CInteger);
    r.integer<std::uint32_t>(MPI_UINT32_T, Cls::CInteger);
    r.integer<std::int64_t>(MPI_INT64_T, Cls::CInteger);
    r.integer<std::uint64_t>(MPI_UINT64_T, Cls::CInteger);
    /* Multi-language */
    r.integer<MPI_Aint>(MPI_AINT, Cls::MultiLanguage);
    r.integer<MPI_Offset>(MPI_OFFSET, Cls::MultiLanguage);
    r.integer<MPI_Count>(MPI_COUNT, Cls::MultiLanguage);
    /* Fortran integer */
    r.integer<std::int32_t>(MPI_INTEGER, Cls::FortranInteger);
    r.integer<std::int8_t>(MPI_INTEGER1, Cls::FortranInteger);
    r.integer<std::int16_t>(MPI_INTEGER2, Cls::FortranInteger);
    r.integer<std::int32_t>(MPI_INTEGER4, Cls::FortranInteger);
    r.integer<std::int64_t>(MPI_INTEGER8, Cls::FortranInteger);
#ifdef __SIZEOF_INT128__
    r.integer<Int128>(MPI_INTEGER16, Cls::FortranInteger);
#endif
    /* Floating point */
    r.floating<float>(MPI_FLOAT);
    r.floating<double>(MPI_DOUBLE);
    r.floating<long double>(MPI_LONG_DOUBLE);
    r.floating<float>(MPI_REAL);
    r.floating<double>(MPI_DOUBLE_PRECISION);
    r.floating<float>(MPI_REAL4);
    r.floating<double>(MPI_REAL8);
#ifdef __FLT16_MANT_DIG__
    r.floating<_Float16>(MPI_REAL2);
#endif
#ifdef __SIZEOF_FLOAT128__
    r.floating<__float128>(MPI_REAL16);
#endif
    /* Logical */
    r.logical<bool>(MPI_C_BOOL);
    r.logical<bool>(MPI_CXX_BOOL);
    r.logical<std::int32_t>(MPI_LOGICAL);
    r.logical<std::int8_t>(MPI_LOGICAL1);
    r.logical<std::int16_t>(MPI_LOGICAL2);
    r.logical<std::int32_t>(MPI_LOGICAL4);
    r.logical<std::int64_t>(MPI_LOGICAL8);
#ifdef __SIZEOF_INT128__
    r.logical<Int128>(MPI_LOGICAL16);
#endif
    /* Complex */
    r.complex<float>(MPI_C_FLOAT_COMPLEX);
    r.complex<float>(MPI_C_COMPLEX);
    r.complex<float>(MPI_CXX_FLOAT_COMPLEX);
    r.complex<double>(MPI_C_DOUBLE_COMPLEX);
    r.complex<double>(MPI_CXX_DOUBLE_COMPLEX);
    r.complex<long double>(MPI_C_LONG_DOUBLE_COMPLEX);
    r.complex<long double>(MPI_CXX_LONG_DOUBLE_COMPLEX);
    r.complex<float>(MPI_COMPLEX);
    r.complex<double>(MPI_DOUBLE_COMPLEX);
    r.complex<float>(MPI_COMPLEX8);
    r.complex<double>(MPI_COMPLEX16);
#ifdef __FLT16_MANT_DIG__
    r.complex<_Float16>(MPI_COMPLEX4);
#endif
#ifdef __SIZEOF_FLOAT128__
    r.complex<__float128>(MPI_COMPLEX32);
#endif
    /* Byte: the bitwise ops only */
    r.integer<unsigned char>(MPI_BYTE, Cls::Byte);
    /* Pairs */
    r.pair<float, int>(MPI_FLOAT_INT);
    r.pair<double, int>(MPI_DOUBLE_INT);
    r.pair<long, int>(MPI_LONG_INT);
    r.pair<int, int>(MPI_2INT);
    r.pair<short, int>(MPI_SHORT_INT);
    r.pair<long double, int>(MPI_LONG_DOUBLE_INT);
    r.pair<float, float>(MPI_2REAL);
    r.pair<double, double>(MPI_2DOUBLE_PRECISION);
    r.pair<std::int32_t, std::int32_t>(MPI_2INTEGER);
    /* Other characters and packed bytes: no reduction at all */
    r.none<wchar_t>(MPI_WCHAR);
    r.none<char>(MPI_CHARACTER);
    r.none<char>(MPI_PACKED);
    EXPECT_GE(r.types, 70);
    EXPECT_GT(r.checked, 300);
    EXPECT_GT(r.refused, 400);
}

TEST(OpPredefined, RefusalsNameTheOpTheTypeAndWhatTheOpTakes)
{
    const std::string why = ompi::op_check(ompi::op_lookup(MPI_LAND), ompi::datatype_lookup(MPI_DOUBLE));
    EXPECT_EQ(why, "MPI_LAND is not defined for MPI_DOUBLE: it takes C integer and logical types");
    const std::string loc = ompi::op_check(ompi::op_lookup(MPI_MAXLOC), ompi::datatype_lookup(MPI_INT));
    EXPECT_NE(loc.find("MPI_MAXLOC is not defined for MPI_INT: it takes the pair types"), std::string::npos) << loc;
}

TEST(OpPredefined, SignedIntegersWrapInsteadOfOverflowing)
{
    const std::int8_t a[2] = {100, -128};
    std::int8_t b[2] = {100, -1};
    ompi::op_reduce(ompi::op_lookup(MPI_SUM), a, b, 2, ompi::datatype_lookup(MPI_INT8_T));
    EXPECT_EQ(b[0], static_cast<std::int8_t>(-56));
    EXPECT_EQ(b[1], static_cast<std::int8_t>(127));
    const unsigned short c[1] = {65535};
    unsigned short d[1] = {65535};
    ompi::op_reduce(ompi::op_lookup(MPI_PROD), c, d, 1, ompi::datatype_lookup(MPI_UNSIGNED_SHORT));
    EXPECT_EQ(d[0], 1);
}

TEST(OpPredefined, HandlesAndCommutativity)
{
    for (MPI_Op h : kOps) {
        const Op *op = ompi::op_lookup(h);
        ASSERT_NE(op, nullptr);
        EXPECT_EQ(ompi::op_handle(op), h);
        EXPECT_EQ(op->commutative, h != MPI_REPLACE) << op->name;
    }
    EXPECT_EQ(ompi::op_lookup(MPI_OP_NULL), nullptr);
    EXPECT_EQ(ompi::op_lookup(reinterpret_cast<MPI_Op>(0x25)), nullptr); /* a gap among the predefined values */
}

} // namespace
} // namespace tessera::test::op
