/* Error classes, user-defined errors and user error handlers of the native engine, in one process
 * without MPI_Init. */
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/user_errors.h"

namespace {

namespace native = tessera::ompi::native;

/* Every MPI_SUCCESS, MPI_ERR_* and MPI_T_ERR_* constant of the ABI (MPI_ERR_LASTCODE is a bound). */
std::map<std::string, int> abi_error_classes()
{
    std::ifstream in(TESSERA_CONSTANTS_TSV);
    std::map<std::string, int> out;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name, value;
        std::getline(fields, name, '\t');
        std::getline(fields, value);
        const bool error = name == "MPI_SUCCESS" || name.rfind("MPI_ERR_", 0) == 0 || name.rfind("MPI_T_ERR_", 0) == 0;
        if (error && name != "MPI_ERR_LASTCODE") {
            out[name] = std::stoi(value, nullptr, 0);
        }
    }
    return out;
}

class Errors : public ::testing::Test {
protected:
    void SetUp() override { tessera::ompi::comm_self().errhandler = MPI_ERRORS_RETURN; }
    void TearDown() override { tessera::ompi::comm_self().errhandler = MPI_ERRORS_ARE_FATAL; }

    static std::string text(int code)
    {
        char s[MPI_MAX_ERROR_STRING];
        int len = -1;
        EXPECT_EQ(native::error_string(code, s, &len), MPI_SUCCESS) << code;
        EXPECT_EQ(static_cast<std::size_t>(len), std::string(s).size());
        return s;
    }
};

TEST_F(Errors, EveryClassOfTheAbiSaysWhatWentWrong)
{
    const auto classes = abi_error_classes();
    ASSERT_GE(classes.size(), 80u);
    std::set<std::string> explanations;
    for (const auto &[name, code] : classes) {
        SCOPED_TRACE(name);
        const std::string s = text(code);
        ASSERT_EQ(s.rfind(name + ": ", 0), 0u) << s; /* "MPI_ERR_COMM: invalid communicator ..." */
        const std::string why = s.substr(name.size() + 2);
        EXPECT_GE(why.size(), 7u) << s;
        EXPECT_TRUE(explanations.insert(why).second) << "another class says the same: " << why;
        int cls = -1;
        EXPECT_EQ(native::error_class(code, &cls), MPI_SUCCESS);
        EXPECT_EQ(cls, code);
    }
    int cls = 0;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    EXPECT_EQ(native::error_class(MPI_ERR_LASTCODE + 4321, &cls), MPI_ERR_ARG);
    EXPECT_EQ(native::error_string(-3, s, &len), MPI_ERR_ARG);
}

TEST_F(Errors, UserClassesCodesAndStrings)
{
    const int last_before = *tessera::ompi::last_used_code();
    EXPECT_GE(last_before, MPI_ERR_LASTCODE);
    int cls = 0, code = 0, code2 = 0, got = 0;
    ASSERT_EQ(native::add_error_class(&cls), MPI_SUCCESS);
    EXPECT_GT(cls, last_before);
    ASSERT_EQ(native::add_error_code(cls, &code), MPI_SUCCESS);
    ASSERT_EQ(native::add_error_code(MPI_ERR_ARG, &code2), MPI_SUCCESS);
    EXPECT_EQ(*tessera::ompi::last_used_code(), code2); /* what MPI_LASTUSEDCODE points to */
    EXPECT_EQ(native::error_class(code, &got), MPI_SUCCESS);
    EXPECT_EQ(got, cls);
    EXPECT_EQ(native::error_class(code2, &got), MPI_SUCCESS);
    EXPECT_EQ(got, MPI_ERR_ARG);
    EXPECT_EQ(native::error_class(cls, &got), MPI_SUCCESS);
    EXPECT_EQ(got, cls);

    EXPECT_EQ(text(code), ""); /* no string yet */
    ASSERT_EQ(native::add_error_string(code, "the frobnicator jammed"), MPI_SUCCESS);
    ASSERT_EQ(native::add_error_string(cls, "frobnication errors"), MPI_SUCCESS);
    EXPECT_EQ(text(code), "the frobnicator jammed");
    EXPECT_EQ(text(cls), "frobnication errors");
    ASSERT_EQ(native::add_error_string(code, "replaced"), MPI_SUCCESS);
    EXPECT_EQ(text(code), "replaced");

    /* What may not be done. */
    int unused = 0;
    EXPECT_EQ(native::add_error_code(code, &unused), MPI_ERR_ARG);          /* a code is no class */
    EXPECT_EQ(native::add_error_code(MPI_ERR_LASTCODE + 999, &unused), MPI_ERR_ARG);
    EXPECT_EQ(native::add_error_string(MPI_ERR_COMM, "mine"), MPI_ERR_ARG); /* predefined */
    EXPECT_EQ(native::add_error_string(code, std::string(MPI_MAX_ERROR_STRING, 'x').c_str()), MPI_ERR_ARG);
    EXPECT_EQ(native::remove_error_class(cls), MPI_ERR_ARG);  /* it still has a code */
    EXPECT_EQ(native::remove_error_class(code), MPI_ERR_ARG); /* a code */
    EXPECT_EQ(native::remove_error_code(cls), MPI_ERR_ARG);   /* a class */
    EXPECT_EQ(native::remove_error_class(MPI_ERR_OTHER), MPI_ERR_ARG);

    ASSERT_EQ(native::remove_error_string(code), MPI_SUCCESS);
    EXPECT_EQ(text(code), "");
    ASSERT_EQ(native::remove_error_code(code), MPI_SUCCESS);
    EXPECT_EQ(native::error_class(code, &got), MPI_ERR_ARG);
    ASSERT_EQ(native::remove_error_class(cls), MPI_SUCCESS);
    EXPECT_EQ(*tessera::ompi::last_used_code(), code2);
    ASSERT_EQ(native::remove_error_code(code2), MPI_SUCCESS);
    EXPECT_EQ(*tessera::ompi::last_used_code(), last_before);
}

int handler_calls = 0;
MPI_Comm handler_comm = MPI_COMM_NULL;
int handler_code = 0;

void comm_handler(MPI_Comm *comm, int *code, ...)
{
    ++handler_calls;
    handler_comm = *comm;
    handler_code = *code;
}

// The file handler is a function of the file handler's type: a call through a pointer of another
// function type is undefined behaviour (UBSan's -fsanitize=function stops it).
MPI_File handler_file = MPI_FILE_NULL;

void file_handler(MPI_File *file, int *code, ...)
{
    ++handler_calls;
    handler_file = *file;
    handler_code = *code;
}

TEST_F(Errors, UserHandlersAreCalledAndCounted)
{
    using namespace tessera::ompi;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    ASSERT_EQ(native::comm_create_errhandler(comm_handler, &eh), MPI_SUCCESS);
    EXPECT_TRUE(errhandler_valid(eh));
    EXPECT_TRUE(errhandler_fits(eh, ObjectKind::Comm));
    EXPECT_FALSE(errhandler_fits(eh, ObjectKind::File));

    /* Set on MPI_COMM_SELF as MPI_Comm_set_errhandler does, then the application's handle freed: the
     * communicator's reference keeps the handler. */
    errhandler_assign(&comm_self().errhandler, eh);
    MPI_Errhandler mine = eh;
    ASSERT_EQ(native::errhandler_free(&mine), MPI_SUCCESS);
    EXPECT_EQ(mine, MPI_ERRHANDLER_NULL);
    EXPECT_TRUE(errhandler_valid(eh));

    handler_calls = 0;
    EXPECT_EQ(raise_on_comm(MPI_COMM_SELF, MPI_ERR_TAG, "MPI_Test", "a test"), MPI_ERR_TAG);
    EXPECT_EQ(handler_calls, 1);
    EXPECT_EQ(handler_comm, MPI_COMM_SELF);
    EXPECT_EQ(handler_code, MPI_ERR_TAG);
    /* Errors of the calls that name no object go to MPI_COMM_SELF's handler too. */
    int unused = 0;
    EXPECT_EQ(native::add_error_code(MPI_ERR_LASTCODE + 77, &unused), MPI_ERR_ARG);
    EXPECT_EQ(handler_calls, 2);
    EXPECT_EQ(handler_code, MPI_ERR_ARG);

    /* A file handler may not go on a communicator; MPI_FILE_NULL takes it. */
    MPI_Errhandler fh = MPI_ERRHANDLER_NULL;
    ASSERT_EQ(native::file_create_errhandler(file_handler, &fh), MPI_SUCCESS);
    EXPECT_FALSE(errhandler_fits(fh, ObjectKind::Comm));
    ASSERT_EQ(native::file_set_errhandler(MPI_FILE_NULL, fh), MPI_SUCCESS);
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    ASSERT_EQ(native::file_get_errhandler(MPI_FILE_NULL, &got), MPI_SUCCESS);
    EXPECT_EQ(got, fh);
    ASSERT_EQ(native::errhandler_free(&got), MPI_SUCCESS);
    ASSERT_EQ(native::file_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO), MPI_SUCCESS);
    EXPECT_EQ(handler_calls, 3);
    EXPECT_EQ(handler_code, MPI_ERR_IO);
    EXPECT_EQ(handler_file, MPI_FILE_NULL);
    ASSERT_EQ(native::file_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN), MPI_SUCCESS);
    EXPECT_TRUE(errhandler_valid(fh)); /* the handle's own reference */
    ASSERT_EQ(native::errhandler_free(&fh), MPI_SUCCESS);

    /* Taking the handler off the communicator drops the last reference. */
    errhandler_assign(&comm_self().errhandler, MPI_ERRORS_RETURN);
    EXPECT_FALSE(errhandler_valid(eh));
    MPI_Errhandler stale = eh;
    EXPECT_EQ(native::errhandler_free(&stale), MPI_ERR_ERRHANDLER);
}

} // namespace
