/*
 * Ops on derived datatypes (reduced element by element along the type map, gaps untouched; refused
 * when the elements mix predefined types or their one type does not fit the op), and user ops: the
 * argument order inout = in op inout, the datatype handle and count they are given, their lifetime.
 */
#include <gtest/gtest.h>

#include <vector>

#include "mca/framework.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/datatype/datatype.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/native_generated.h"
#include "ompi/op/op.h"

namespace tessera::test::op {
namespace {

namespace native = tessera::ompi::native;
/* The int-count forms are generated from the MPI_Count ones (native_glue.cpp). */
namespace native_generated = tessera::ompi::native_generated;
using ompi::Op;

class OpDerived : public ::testing::Test {
protected:
    void SetUp() override
    {
        tessera::mca::report_set_print(false);
#ifdef DTE_COMPONENT_DIR
        tessera::mca::set_command_line("mca_component_path", DTE_COMPONENT_DIR);
#endif
        tessera::mca::set_command_line("dte", "interp");
    }
    void TearDown() override
    {
        for (MPI_Datatype &t : made) {
            native::type_free(&t);
        }
        tessera::mca::frameworks_finalize();
        tessera::mca::vars_finalize();
    }
    const ompi::Datatype *commit(MPI_Datatype t)
    {
        EXPECT_EQ(native::type_commit(&t), MPI_SUCCESS);
        made.push_back(t);
        return ompi::datatype_lookup(t);
    }
    std::vector<MPI_Datatype> made;
};

TEST_F(OpDerived, VectorOfDoublesIsReducedAlongItsTypeMapAndItsGapsStayUntouched)
{
    MPI_Datatype vec;
    ASSERT_EQ(native_generated::type_vector(3, 2, 4, MPI_DOUBLE, &vec), MPI_SUCCESS);
    const ompi::Datatype *type = commit(vec);
    /* Two elements of extent 10 doubles; data at 0,1,4,5,8,9 of each. */
    std::vector<double> in(20), inout(20);
    for (int i = 0; i < 20; ++i) {
        in[static_cast<std::size_t>(i)] = i;
        inout[static_cast<std::size_t>(i)] = 100.0 * i;
    }
    const std::vector<double> before = inout;
    ASSERT_EQ(ompi::op_check(ompi::op_lookup(MPI_SUM), type), "");
    ompi::op_reduce(ompi::op_lookup(MPI_SUM), in.data(), inout.data(), 2, type);
    for (int i = 0; i < 20; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const bool data = (i % 10) % 4 < 2;
        EXPECT_EQ(inout[k], data ? in[k] + before[k] : before[k]) << "double " << i;
    }
    /* MPI_REPLACE moves the data only. */
    std::vector<double> target(20, -1.0);
    ompi::op_reduce(ompi::op_lookup(MPI_REPLACE), in.data(), target.data(), 2, type);
    for (int i = 0; i < 20; ++i) {
        EXPECT_EQ(target[static_cast<std::size_t>(i)], (i % 10) % 4 < 2 ? in[static_cast<std::size_t>(i)] : -1.0);
    }
}

TEST_F(OpDerived, ContiguousPairTypeTakesMinloc)
{
    MPI_Datatype three;
    ASSERT_EQ(native_generated::type_contiguous(3, MPI_DOUBLE_INT, &three), MPI_SUCCESS);
    const ompi::Datatype *type = commit(three);
    struct DoubleInt {
        double value;
        int index;
    };
    DoubleInt in[6] = {{1, 0}, {5, 0}, {2, 7}, {3, 1}, {0, 4}, {2, 2}};
    DoubleInt io[6] = {{2, 1}, {4, 1}, {2, 3}, {3, 0}, {9, 9}, {1, 5}};
    ASSERT_EQ(ompi::op_check(ompi::op_lookup(MPI_MINLOC), type), "");
    ompi::op_reduce(ompi::op_lookup(MPI_MINLOC), in, io, 2, type);
    const DoubleInt want[6] = {{1, 0}, {4, 1}, {2, 3}, {3, 0}, {0, 4}, {1, 5}};
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(io[i].value, want[i].value) << i;
        EXPECT_EQ(io[i].index, want[i].index) << i;
    }
}

TEST_F(OpDerived, MixedOrUnfitElementsAreRefused)
{
    const int lengths[2] = {1, 1};
    const MPI_Aint displs[2] = {0, 8};
    const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype mixed;
    ASSERT_EQ(native_generated::type_create_struct(2, lengths, displs, types, &mixed), MPI_SUCCESS);
    const std::string why = ompi::op_check(ompi::op_lookup(MPI_SUM), commit(mixed));
    EXPECT_NE(why.find("MPI_SUM cannot reduce"), std::string::npos) << why;
    EXPECT_NE(why.find("mix several predefined datatypes"), std::string::npos) << why;

    MPI_Datatype chars;
    ASSERT_EQ(native_generated::type_vector(2, 1, 2, MPI_WCHAR, &chars), MPI_SUCCESS);
    const std::string unfit = ompi::op_check(ompi::op_lookup(MPI_MAX), commit(chars));
    EXPECT_NE(unfit.find("MPI_MAX is not defined for MPI_WCHAR (the elements of"), std::string::npos) << unfit;
    /* A user op takes any type. */
    Op *user = ompi::op_create_user([](void *, void *, int *, MPI_Datatype *) {}, nullptr, true);
    EXPECT_EQ(ompi::op_check(user, ompi::datatype_lookup(mixed)), "");
    ompi::op_release(user);
}

/* What the user function saw. */
int calls = 0;
int last_len = 0;
MPI_Count last_len_c = 0;
MPI_Datatype last_type = MPI_DATATYPE_NULL;

/* Not commutative: inout = in * 10 + inout. */
void shift_add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    ++calls;
    last_len = *len;
    last_type = *type;
    for (int i = 0; i < *len; ++i) {
        static_cast<int *>(inout)[i] = static_cast<int *>(in)[i] * 10 + static_cast<int *>(inout)[i];
    }
}

void shift_add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    ++calls;
    last_len_c = *len;
    last_type = *type;
    for (MPI_Count i = 0; i < *len; ++i) {
        static_cast<int *>(inout)[i] = static_cast<int *>(in)[i] * 10 + static_cast<int *>(inout)[i];
    }
}

TEST(OpUser, TheFunctionComputesInoutFromInAndInoutInThatOrder)
{
    Op *op = ompi::op_create_user(shift_add, nullptr, false);
    EXPECT_FALSE(op->commutative);
    EXPECT_EQ(ompi::op_lookup(ompi::op_handle(op)), op);
    const int in[3] = {1, 2, 3};
    int inout[3] = {4, 5, 6};
    calls = 0;
    ompi::op_reduce(op, in, inout, 3, ompi::datatype_lookup(MPI_INT));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(last_len, 3);
    EXPECT_EQ(last_type, MPI_INT);
    EXPECT_EQ(inout[0], 14);
    EXPECT_EQ(inout[1], 25);
    EXPECT_EQ(inout[2], 36);
    ompi::op_release(op);
}

TEST_F(OpDerived, UserFunctionGetsTheApplicationsDerivedTypeHandleAndElementCount)
{
    MPI_Datatype pairs;
    ASSERT_EQ(native_generated::type_contiguous(2, MPI_INT, &pairs), MPI_SUCCESS);
    commit(pairs);
    Op *op = ompi::op_create_user(nullptr, shift_add_c, false);
    const int in[4] = {1, 2, 3, 4};
    int inout[4] = {0, 0, 0, 0};
    calls = 0;
    ompi::op_reduce(op, in, inout, 2, ompi::datatype_lookup(pairs));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(last_len_c, 2);
    EXPECT_EQ(last_type, pairs);
    /* shift_add_c treats the buffers as ints: it sees the first two of the four. */
    EXPECT_EQ(inout[0], 10);
    EXPECT_EQ(inout[1], 20);
    ompi::op_release(op);
}

TEST(OpUser, AnOpInUseOutlivesItsHandle)
{
    Op *op = ompi::op_create_user(shift_add, nullptr, true);
    ompi::op_retain(op);  /* a collective in flight */
    ompi::op_release(op); /* MPI_Op_free */
    EXPECT_EQ(op->refs.load(), 1);
    EXPECT_EQ(ompi::op_lookup(ompi::op_handle(op)), op);
    ompi::op_release(op); /* the collective completes */
}

} // namespace
} // namespace tessera::test::op
