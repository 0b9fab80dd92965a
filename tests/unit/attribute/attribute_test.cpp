/* Attributes on datatypes through the native MPI functions (no MPI_Init needed), and on
 * communicators through the internal calls that MPI_Comm_dup and MPI_Comm_free will make. */
#include <gtest/gtest.h>

#include <climits>
#include <vector>

#include "ompi/runtime/native_api.h"
#include "ompi/runtime/native_generated.h"
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/communicator.h"

namespace {

namespace native = tessera::ompi::native;
/* The int-count forms are generated from the MPI_Count ones (native_glue.cpp). */
namespace native_generated = tessera::ompi::native_generated;
using tessera::ompi::AttrKind;

struct Call {
    char what; /* 'c'opy or 'd'elete */
    MPI_Datatype type;
    int keyval;
    void *value;
    void *extra;
};
std::vector<Call> calls;
int fail_copy = 0; /* a copy callback's error to return */

int copy_cb(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    calls.push_back({'c', old, keyval, in, extra});
    if (fail_copy != 0) {
        return fail_copy;
    }
    *static_cast<void **>(out) = static_cast<char *>(in) + 1; /* a visibly new value */
    *flag = 1;
    return MPI_SUCCESS;
}

int delete_cb(MPI_Datatype type, int keyval, void *value, void *extra)
{
    calls.push_back({'d', type, keyval, value, extra});
    return MPI_SUCCESS;
}

class Attributes : public ::testing::Test {
protected:
    void SetUp() override
    {
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_RETURN;
        calls.clear();
        fail_copy = 0;
    }
    void TearDown() override { tessera::ompi::comm_self().errhandler = MPI_ERRORS_ARE_FATAL; }

    char values_[8] = {};
    int extra_ = 0;
};

TEST_F(Attributes, CallbacksSeeTheirArguments)
{
    int key = MPI_KEYVAL_INVALID;
    ASSERT_EQ(native::type_create_keyval(copy_cb, delete_cb, &key, &extra_), MPI_SUCCESS);
    MPI_Datatype t = MPI_DATATYPE_NULL, dup = MPI_DATATYPE_NULL;
    ASSERT_EQ(native_generated::type_contiguous(3, MPI_INT, &t), MPI_SUCCESS);
    ASSERT_EQ(native::type_set_attr(t, key, &values_[0]), MPI_SUCCESS);
    EXPECT_TRUE(calls.empty());

    void *got = nullptr;
    int flag = 0;
    ASSERT_EQ(native::type_get_attr(t, key, &got, &flag), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_EQ(got, &values_[0]);

    /* Replacing a value deletes the old one first. */
    ASSERT_EQ(native::type_set_attr(t, key, &values_[2]), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].what, 'd');
    EXPECT_EQ(calls[0].type, t);
    EXPECT_EQ(calls[0].keyval, key);
    EXPECT_EQ(calls[0].value, &values_[0]);
    EXPECT_EQ(calls[0].extra, &extra_);

    /* MPI_Type_dup: the copy callback sees the old type; the duplicate gets what it returned. */
    ASSERT_EQ(native::type_dup(t, &dup), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1].what, 'c');
    EXPECT_EQ(calls[1].type, t);
    EXPECT_EQ(calls[1].value, &values_[2]);
    EXPECT_EQ(calls[1].extra, &extra_);
    ASSERT_EQ(native::type_get_attr(dup, key, &got, &flag), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_EQ(got, &values_[3]);

    /* MPI_Type_free deletes the attributes of the handle freed, and only those. */
    MPI_Datatype dup_handle = dup;
    ASSERT_EQ(native::type_free(&dup), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[2].what, 'd');
    EXPECT_EQ(calls[2].type, dup_handle);
    EXPECT_EQ(calls[2].value, &values_[3]);
    ASSERT_EQ(native::type_delete_attr(t, key), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 4u);
    EXPECT_EQ(calls[3].value, &values_[2]);
    ASSERT_EQ(native::type_get_attr(t, key, &got, &flag), MPI_SUCCESS);
    EXPECT_FALSE(flag);
    ASSERT_EQ(native::type_free(&t), MPI_SUCCESS);
    EXPECT_EQ(calls.size(), 4u);
    ASSERT_EQ(native::type_free_keyval(&key), MPI_SUCCESS);
    EXPECT_EQ(key, MPI_KEYVAL_INVALID);
}

TEST_F(Attributes, AFreedKeyvalLivesWhileAttributesUseIt)
{
    const std::size_t before = tessera::ompi::keyval_count();
    int key = MPI_KEYVAL_INVALID;
    ASSERT_EQ(native::type_create_keyval(MPI_TYPE_DUP_FN, delete_cb, &key, &extra_), MPI_SUCCESS);
    const int saved = key;
    MPI_Datatype a = MPI_DATATYPE_NULL, b = MPI_DATATYPE_NULL;
    ASSERT_EQ(native_generated::type_contiguous(2, MPI_DOUBLE, &a), MPI_SUCCESS);
    ASSERT_EQ(native::type_set_attr(a, key, &values_[1]), MPI_SUCCESS);
    ASSERT_EQ(native::type_set_attr(MPI_INT, key, &values_[4]), MPI_SUCCESS); /* predefined types too */
    ASSERT_EQ(native::type_dup(a, &b), MPI_SUCCESS);                          /* MPI_TYPE_DUP_FN */

    ASSERT_EQ(native::type_free_keyval(&key), MPI_SUCCESS);
    EXPECT_EQ(key, MPI_KEYVAL_INVALID);
    EXPECT_EQ(tessera::ompi::keyval_count(), before + 1); /* three attributes still use it */
    void *got = nullptr;
    int flag = 0;
    /* Its attributes can still be read through the old number (as in Open MPI and MPICH); freeing it
     * again is an error. */
    EXPECT_EQ(native::type_get_attr(a, saved, &got, &flag), MPI_SUCCESS);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(got, &values_[1]);
    int again = saved;
    EXPECT_EQ(native::type_free_keyval(&again), MPI_ERR_KEYVAL);

    ASSERT_EQ(native::type_free(&a), MPI_SUCCESS); /* the delete callback still runs */
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].value, &values_[1]);
    EXPECT_EQ(calls[0].extra, &extra_);
    ASSERT_EQ(native::type_free(&b), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1].value, &values_[1]); /* MPI_TYPE_DUP_FN copied the value as it was */
    EXPECT_EQ(tessera::ompi::keyval_count(), before + 1);
    std::string error;
    ASSERT_EQ(tessera::ompi::attr_delete_all(AttrKind::Type, MPI_INT, &error), MPI_SUCCESS);
    EXPECT_EQ(calls.size(), 3u);
    EXPECT_EQ(tessera::ompi::keyval_count(), before); /* gone with its last attribute */
    EXPECT_EQ(native::type_get_attr(MPI_INT, saved, &got, &flag), MPI_ERR_KEYVAL);
}

TEST_F(Attributes, ACopyErrorMeansNoDuplicate)
{
    int k1 = 0, k2 = 0;
    ASSERT_EQ(native::type_create_keyval(MPI_TYPE_DUP_FN, delete_cb, &k1, nullptr), MPI_SUCCESS);
    ASSERT_EQ(native::type_create_keyval(copy_cb, delete_cb, &k2, nullptr), MPI_SUCCESS);
    MPI_Datatype t = MPI_DATATYPE_NULL, dup = MPI_DATATYPE_NULL;
    ASSERT_EQ(native_generated::type_contiguous(2, MPI_CHAR, &t), MPI_SUCCESS);
    ASSERT_EQ(native::type_set_attr(t, k1, &values_[0]), MPI_SUCCESS);
    ASSERT_EQ(native::type_set_attr(t, k2, &values_[5]), MPI_SUCCESS);
    fail_copy = MPI_ERR_OTHER;
    EXPECT_EQ(native::type_dup(t, &dup), MPI_ERR_OTHER);
    EXPECT_EQ(dup, MPI_DATATYPE_NULL);
    /* k1's value was copied before k2's callback failed, and deleted again. */
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].what, 'c');
    EXPECT_EQ(calls[1].what, 'd');
    EXPECT_EQ(calls[1].value, &values_[0]);
    EXPECT_NE(calls[1].type, t);
    /* Deleted in reverse order of setting when the type goes. */
    ASSERT_EQ(native::type_free(&t), MPI_SUCCESS);
    ASSERT_EQ(calls.size(), 4u);
    EXPECT_EQ(calls[2].keyval, k2);
    EXPECT_EQ(calls[3].keyval, k1);
    native::type_free_keyval(&k1);
    native::type_free_keyval(&k2);
}

TEST_F(Attributes, PredefinedKeysAreReadOnly)
{
    std::string error;
    void *value = nullptr;
    int flag = 0;
    ASSERT_EQ(tessera::ompi::attr_get(AttrKind::Comm, MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag, &error), MPI_SUCCESS);
    ASSERT_TRUE(flag);
    EXPECT_EQ(*static_cast<int *>(value), INT_MAX);
    ASSERT_EQ(tessera::ompi::attr_get(AttrKind::Comm, MPI_COMM_SELF, MPI_HOST, &value, &flag, &error), MPI_SUCCESS);
    EXPECT_EQ(*static_cast<int *>(value), MPI_PROC_NULL);
    ASSERT_EQ(tessera::ompi::attr_get(AttrKind::Comm, MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag, &error),
              MPI_SUCCESS);
    EXPECT_GE(*static_cast<int *>(value), MPI_ERR_LASTCODE);
    EXPECT_EQ(tessera::ompi::attr_set(AttrKind::Comm, MPI_COMM_WORLD, MPI_TAG_UB, &flag, &error), MPI_ERR_KEYVAL);
    EXPECT_EQ(error, "MPI_TAG_UB is predefined: it cannot be set");
    EXPECT_EQ(tessera::ompi::attr_delete(AttrKind::Comm, MPI_COMM_WORLD, MPI_APPNUM, &error), MPI_ERR_KEYVAL);
    EXPECT_EQ(tessera::ompi::attr_get(AttrKind::Type, MPI_INT, MPI_TAG_UB, &value, &flag, &error), MPI_ERR_KEYVAL);
    EXPECT_EQ(error, "MPI_TAG_UB is a communicator key, not a datatype key");
    int key = MPI_UNIVERSE_SIZE;
    EXPECT_EQ(native::comm_free_keyval(&key), MPI_ERR_KEYVAL);
    /* A window key is no datatype key. */
    int wkey = 0;
    ASSERT_EQ(native::win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, nullptr), MPI_SUCCESS);
    EXPECT_EQ(native::type_set_attr(MPI_INT, wkey, nullptr), MPI_ERR_KEYVAL);
    EXPECT_EQ(native::win_free_keyval(&wkey), MPI_SUCCESS);
}

} // namespace
