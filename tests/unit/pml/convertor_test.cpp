/* The predefined datatypes and the convertor: any byte range of the packed form, packed or unpacked
 * on its own, is the same as that range of the whole. */
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <mpi.h>

#include "ompi/datatype/convertor.h"
#include "ompi/datatype/datatype.h"

namespace tessera::test {
namespace {

using ompi::convertor_pack;
using ompi::convertor_unpack;
using ompi::Datatype;
using ompi::datatype_lookup;

TEST(PmlDatatypes, PredefinedSizesAndExtents)
{
    struct Case {
        MPI_Datatype handle;
        std::size_t size;
        std::ptrdiff_t extent;
        bool contiguous;
    };
    struct DoubleInt {
        double d;
        int i;
    };
    struct ShortInt {
        short s;
        int i;
    };
    const Case cases[] = {
        {MPI_CHAR, 1, 1, true},
        {MPI_INT, sizeof(int), sizeof(int), true},
        {MPI_DOUBLE, sizeof(double), sizeof(double), true},
        {MPI_PACKED, 1, 1, true},
        {MPI_C_DOUBLE_COMPLEX, 16, 16, true},
        {MPI_2INT, 8, 8, true},
        {MPI_DOUBLE_INT, 12, sizeof(DoubleInt), false},
        {MPI_SHORT_INT, sizeof(short) + sizeof(int), sizeof(ShortInt), false},
        {MPI_INTEGER, 4, 4, true},
        {MPI_DOUBLE_PRECISION, 8, 8, true},
    };
    for (const Case &c : cases) {
        const Datatype *t = datatype_lookup(c.handle);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->size, c.size) << t->name;
        EXPECT_EQ(t->extent, c.extent) << t->name;
        EXPECT_EQ(t->contiguous, c.contiguous) << t->name;
    }
    EXPECT_EQ(datatype_lookup(MPI_DATATYPE_NULL), nullptr);
    EXPECT_EQ(datatype_lookup(reinterpret_cast<MPI_Datatype>(static_cast<std::uintptr_t>(0x12345))), nullptr);
}

TEST(PmlConvertor, AnyRangeOfAPairTypePacksAndUnpacksOnItsOwn)
{
    struct DoubleInt {
        double d;
        int i;
    };
    const Datatype &type = *datatype_lookup(MPI_DOUBLE_INT);
    std::vector<DoubleInt> data(7);
    for (std::size_t k = 0; k < data.size(); ++k) {
        data[k] = {1.5 * static_cast<double>(k), static_cast<int>(100 + k)};
    }
    const std::size_t total = type.size * data.size();
    std::vector<char> whole(total);
    convertor_pack(data.data(), data.size(), type, 0, whole.data(), total);
    /* The packed form is the values without the padding. */
    double d = 0;
    int i = 0;
    std::memcpy(&d, whole.data() + 3 * type.size, sizeof d);
    std::memcpy(&i, whole.data() + 3 * type.size + sizeof(double), sizeof i);
    EXPECT_EQ(d, 4.5);
    EXPECT_EQ(i, 103);
    for (std::size_t offset = 0; offset < total; offset += 5) {
        for (std::size_t len : {std::size_t{1}, std::size_t{7}, std::size_t{13}, total - offset}) {
            len = std::min(len, total - offset);
            std::vector<char> part(len);
            convertor_pack(data.data(), data.size(), type, offset, part.data(), len);
            ASSERT_EQ(0, std::memcmp(part.data(), whole.data() + offset, len)) << offset << "+" << len;
        }
    }
    /* Unpacking in ragged pieces, last piece first, rebuilds every value. */
    std::vector<DoubleInt> rebuilt(data.size(), DoubleInt{-1, -1});
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; at < total; at += 11) {
        cuts.push_back(at);
    }
    for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
        const std::size_t len = std::min<std::size_t>(11, total - *it);
        convertor_unpack(rebuilt.data(), rebuilt.size(), type, *it, whole.data() + *it, len);
    }
    for (std::size_t k = 0; k < data.size(); ++k) {
        EXPECT_EQ(rebuilt[k].d, data[k].d);
        EXPECT_EQ(rebuilt[k].i, data[k].i);
    }
}

TEST(PmlConvertor, ContiguousTypesNeedNoPacking)
{
    const Datatype &type = *datatype_lookup(MPI_INT);
    int values[3] = {1, 2, 3};
    EXPECT_EQ(ompi::convertor_contiguous(values, type), reinterpret_cast<const char *>(values));
    EXPECT_EQ(ompi::convertor_contiguous(values, *datatype_lookup(MPI_LONG_INT)) == nullptr,
              !datatype_lookup(MPI_LONG_INT)->contiguous);
    int out[3] = {0, 0, 0};
    convertor_unpack(out, 3, type, 4, reinterpret_cast<const char *>(values) + 4, 8);
    EXPECT_EQ(out[0], 0);
    EXPECT_EQ(out[1], 2);
    EXPECT_EQ(out[2], 3);
}

} // namespace
} // namespace tessera::test
