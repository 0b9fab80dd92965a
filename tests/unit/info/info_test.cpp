/* The MPI_Info calls of the native engine in one process, without MPI_Init (none needs it). Errors
 * are returned: MPI_COMM_SELF's handler is MPI_ERRORS_RETURN here. */
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <string>

#include "ompi/communicator/communicator.h"
#include "ompi/runtime/native_api.h"

namespace {

namespace native = tessera::ompi::native;

class Info : public ::testing::Test {
protected:
    void SetUp() override
    {
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_RETURN;
        ASSERT_EQ(native::info_create(&info_), MPI_SUCCESS);
    }
    void TearDown() override
    {
        if (info_ != MPI_INFO_NULL) {
            EXPECT_EQ(native::info_free(&info_), MPI_SUCCESS);
        }
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_ARE_FATAL;
    }

    std::string nthkey(MPI_Info info, int n)
    {
        char key[MPI_MAX_INFO_KEY];
        EXPECT_EQ(native::info_get_nthkey(info, n, key), MPI_SUCCESS);
        return key;
    }

    /* The value through MPI_Info_get_string with a buffer as large as needed, or "(absent)". */
    std::string value(MPI_Info info, const char *key)
    {
        int flag = 0, len = 0;
        EXPECT_EQ(native::info_get_string(info, key, &len, nullptr, &flag), MPI_SUCCESS);
        if (!flag) {
            return "(absent)";
        }
        std::string v(static_cast<std::size_t>(len), '?');
        EXPECT_EQ(native::info_get_string(info, key, &len, v.data(), &flag), MPI_SUCCESS);
        v.resize(static_cast<std::size_t>(len - 1));
        return v;
    }

    MPI_Info info_ = MPI_INFO_NULL;
};

TEST_F(Info, KeysKeepTheirFirstInsertionOrder)
{
    for (const char *k : {"zeta", "alpha", "mid", "beta"}) {
        ASSERT_EQ(native::info_set(info_, k, (std::string("v-") + k).c_str()), MPI_SUCCESS);
    }
    ASSERT_EQ(native::info_set(info_, "alpha", "replaced"), MPI_SUCCESS); /* stays second */
    int n = 0;
    ASSERT_EQ(native::info_get_nkeys(info_, &n), MPI_SUCCESS);
    ASSERT_EQ(n, 4);
    EXPECT_EQ(nthkey(info_, 0), "zeta");
    EXPECT_EQ(nthkey(info_, 1), "alpha");
    EXPECT_EQ(nthkey(info_, 3), "beta");
    EXPECT_EQ(value(info_, "alpha"), "replaced");

    ASSERT_EQ(native::info_delete(info_, "mid"), MPI_SUCCESS);
    EXPECT_EQ(nthkey(info_, 2), "beta");
    EXPECT_EQ(native::info_delete(info_, "mid"), MPI_ERR_INFO_NOKEY);
    char key[MPI_MAX_INFO_KEY];
    EXPECT_EQ(native::info_get_nthkey(info_, 3, key), MPI_ERR_ARG);
    EXPECT_EQ(native::info_get_nthkey(info_, -1, key), MPI_ERR_ARG);

    /* A duplicate is independent of its original. */
    MPI_Info dup = MPI_INFO_NULL;
    ASSERT_EQ(native::info_dup(info_, &dup), MPI_SUCCESS);
    ASSERT_EQ(native::info_set(dup, "zeta", "only in dup"), MPI_SUCCESS);
    EXPECT_EQ(value(info_, "zeta"), "v-zeta");
    EXPECT_EQ(value(dup, "zeta"), "only in dup");
    EXPECT_EQ(nthkey(dup, 1), "alpha");
    EXPECT_EQ(native::info_free(&dup), MPI_SUCCESS);
    EXPECT_EQ(dup, MPI_INFO_NULL);
}

TEST_F(Info, KeyAndValueLimits)
{
    const std::string longest_key(MPI_MAX_INFO_KEY - 1, 'k'), longest_value(MPI_MAX_INFO_VAL, 'v');
    EXPECT_EQ(native::info_set(info_, longest_key.c_str(), longest_value.c_str()), MPI_SUCCESS);
    EXPECT_EQ(nthkey(info_, 0), longest_key);
    EXPECT_EQ(value(info_, longest_key.c_str()), longest_value);
    const std::string long_key = longest_key + "k", long_value = longest_value + "v";
    EXPECT_EQ(native::info_set(info_, long_key.c_str(), "x"), MPI_ERR_INFO_KEY);
    EXPECT_EQ(native::info_set(info_, "", "x"), MPI_ERR_INFO_KEY);
    EXPECT_EQ(native::info_set(info_, "k", long_value.c_str()), MPI_ERR_INFO_VALUE);
    int flag = 1, len = 0;
    EXPECT_EQ(native::info_get_valuelen(info_, long_key.c_str(), &len, &flag), MPI_ERR_INFO_KEY);
    EXPECT_EQ(native::info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    int made_up = 0;
    EXPECT_EQ(native::info_set(reinterpret_cast<MPI_Info>(&made_up), "k", "v"), MPI_ERR_INFO);
}

TEST_F(Info, GetStringTruncatesAndReportsTheFullSize)
{
    ASSERT_EQ(native::info_set(info_, "key", "0123456789"), MPI_SUCCESS);
    char buf[16];
    int flag = 0, len = 4;
    std::fill(std::begin(buf), std::end(buf), '#');
    ASSERT_EQ(native::info_get_string(info_, "key", &len, buf, &flag), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_EQ(len, 11); /* the value's size with its terminator */
    EXPECT_STREQ(buf, "012");
    EXPECT_EQ(buf[4], '#'); /* nothing written beyond the buffer given */

    len = 0;
    ASSERT_EQ(native::info_get_string(info_, "key", &len, nullptr, &flag), MPI_SUCCESS);
    EXPECT_EQ(len, 11);

    len = 7;
    ASSERT_EQ(native::info_get_string(info_, "nokey", &len, buf, &flag), MPI_SUCCESS);
    EXPECT_FALSE(flag);
    EXPECT_EQ(len, 7); /* unchanged */

    /* The deprecated MPI_Info_get: valuelen counts no terminator. */
    std::fill(std::begin(buf), std::end(buf), '#');
    ASSERT_EQ(native::info_get(info_, "key", 5, buf, &flag), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_STREQ(buf, "01234");
    EXPECT_EQ(buf[6], '#');
    ASSERT_EQ(native::info_get_valuelen(info_, "key", &len, &flag), MPI_SUCCESS);
    EXPECT_EQ(len, 10);
    EXPECT_EQ(native::info_get(info_, "key", -1, buf, &flag), MPI_ERR_ARG);
}

TEST_F(Info, EnvironmentInfo)
{
    int n = 0;
    ASSERT_EQ(native::info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS);
    EXPECT_GE(n, 4);
    EXPECT_NE(value(MPI_INFO_ENV, "command").find("info_test"), std::string::npos);
    EXPECT_EQ(value(MPI_INFO_ENV, "maxprocs"), "1"); /* a singleton */
    char cwd[PATH_MAX];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    EXPECT_EQ(value(MPI_INFO_ENV, "wdir"), cwd);
    EXPECT_FALSE(value(MPI_INFO_ENV, "arch").empty());
    EXPECT_EQ(value(MPI_INFO_ENV, "thread_level"), "(absent)"); /* MPI_Init has not asked for one */

    /* The application reads it only. */
    EXPECT_EQ(native::info_set(MPI_INFO_ENV, "command", "x"), MPI_ERR_INFO);
    MPI_Info env = MPI_INFO_ENV;
    EXPECT_EQ(native::info_free(&env), MPI_ERR_INFO);

    /* MPI_Info_create_env takes the command line it is given. */
    char prog[] = "/bin/app", a1[] = "-x", a2[] = "y z";
    char *argv[] = {prog, a1, a2, nullptr};
    MPI_Info made = MPI_INFO_NULL;
    ASSERT_EQ(native::info_create_env(3, argv, &made), MPI_SUCCESS);
    EXPECT_EQ(value(made, "command"), "/bin/app");
    EXPECT_EQ(value(made, "argv"), "-x y z");
    EXPECT_EQ(value(made, "maxprocs"), "1");
    EXPECT_EQ(native::info_set(made, "command", "x"), MPI_SUCCESS); /* a copy the application owns */
    EXPECT_EQ(native::info_free(&made), MPI_SUCCESS);
}

} // namespace
