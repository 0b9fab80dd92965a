/*
 * The objects of a process under MPI_THREAD_MULTIPLE: 8 threads at once create keyvals, derived
 * datatypes with attributes, info objects and error handlers, use them and free them (user ops need
 * MPI_Init: the MPI-level tests make them). A delete
 * callback calls MPI itself (MPI-4.1 7.7.2 allows it), so no lock may be held while it runs. Each thread
 * must find its own values and every callback must run exactly once.
 */
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/native_api.h"
#include "mca/framework.h"
#include "mca/var_store.h"
#include "ompi/runtime/native_generated.h"
#include "opal/threads.h"
#include "tests/unit/start_together.h"

namespace {

namespace native = tessera::ompi::native;
namespace native_generated = tessera::ompi::native_generated;

constexpr int kThreads = 8;
constexpr int kRounds = 1500;

std::atomic<int> deletes{0};
std::atomic<int> wrong{0};
std::atomic<const char *> first_wrong{nullptr}; /* what went wrong first, for the message */

bool ok(bool fine, const char *what)
{
    if (!fine) {
        ++wrong;
        const char *none = nullptr;
        first_wrong.compare_exchange_strong(none, what);
    }
    return fine;
}

/* Runs when a thread frees its type: reads an attribute of MPI_INT under the same key, through MPI. */
int delete_cb(MPI_Datatype, int keyval, void *value, void *extra)
{
    void *got = nullptr;
    int flag = 0;
    ok(native::type_get_attr(MPI_INT, keyval, &got, &flag) == MPI_SUCCESS && flag == 0,
       "MPI_Type_get_attr in a delete callback");
    ok(value == extra, "the delete callback's value");
    ++deletes;
    return MPI_SUCCESS;
}

void handler_fn(MPI_Comm *, int *, ...) {}

std::atomic<int> handled{0};
void counting_fn(MPI_Comm *, int *, ...)
{
    ++handled;
}

class ObjectsThreads : public ::testing::Test {
protected:
    void SetUp() override
    {
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_RETURN;
        /* The interpreter commits the types: the jit's compiles would still be queued when this test
         * process exits without MPI_Finalize (DteJitPlan runs the jit from several threads). */
        tessera::mca::set_command_line("dte", "interp");
        tessera::opal::set_using_threads(true);
        deletes = 0;
        wrong = 0;
        first_wrong = nullptr;
    }
    void TearDown() override
    {
        tessera::opal::set_using_threads(false);
        tessera::ompi::comm_self().errhandler = MPI_ERRORS_ARE_FATAL;
        /* As MPI_Finalize would: the dte framework opened by the commits closes before the process
         * exits (its state and the parameters' are static objects, destroyed in no set order). */
        tessera::mca::frameworks_finalize();
        tessera::mca::vars_finalize();
    }
};

void worker(int t, testing_threads::StartTogether *together)
{
    together->arrive_and_wait();
    int marker = t;
    for (int round = 0; round < kRounds; ++round) {
        int key = MPI_KEYVAL_INVALID;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        if (!ok(native::type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_cb, &key, &marker) == MPI_SUCCESS,
                "MPI_Type_create_keyval") ||
            !ok(native_generated::type_vector(2 + t, 1 + round % 3, 4 + t, MPI_INT, &type) == MPI_SUCCESS,
                "MPI_Type_vector") ||
            !ok(native::type_commit(&type) == MPI_SUCCESS, "MPI_Type_commit") ||
            !ok(native::type_set_attr(type, key, &marker) == MPI_SUCCESS, "MPI_Type_set_attr")) {
            continue;
        }
        void *got = nullptr;
        int flag = 0;
        ok(native::type_get_attr(type, key, &got, &flag) == MPI_SUCCESS && flag == 1 && got == &marker,
           "MPI_Type_get_attr: another thread's value");

        MPI_Info info = MPI_INFO_NULL;
        char value[32], back[32] = {};
        std::snprintf(value, sizeof value, "%d-%d", t, round);
        ok(native::info_create(&info) == MPI_SUCCESS && native::info_set(info, "who", value) == MPI_SUCCESS,
           "MPI_Info_create/set");
        ok(native::info_get(info, "who", sizeof back - 1, back, &flag) == MPI_SUCCESS && flag == 1 &&
               std::strcmp(back, value) == 0,
           "MPI_Info_get: another thread's value");
        ok(native::info_free(&info) == MPI_SUCCESS, "MPI_Info_free");

        MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
        ok(native::comm_create_errhandler(handler_fn, &handler) == MPI_SUCCESS &&
               native::errhandler_free(&handler) == MPI_SUCCESS,
           "MPI_Comm_create_errhandler/MPI_Errhandler_free");

        ok(native::type_free(&type) == MPI_SUCCESS, "MPI_Type_free");
        ok(native::type_free_keyval(&key) == MPI_SUCCESS, "MPI_Type_free_keyval");
    }
}

TEST_F(ObjectsThreads, EightThreadsCreateUseAndFreeObjectsAtOnce)
{
    testing_threads::StartTogether together(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back(worker, t, &together);
    }
    for (std::thread &th : threads) {
        th.join();
    }
    const char *what = first_wrong.load();
    EXPECT_EQ(wrong.load(), 0) << "first: " << (what != nullptr ? what : "");
    EXPECT_EQ(deletes.load(), kThreads * kRounds) << "each attribute's delete callback runs once";
}

} // namespace

namespace {

/* Half the threads keep replacing MPI_COMM_SELF's handler with a new one (whose handle they free at once,
 * so the communicator holds its only reference) and reading it back; the other half raise errors on
 * MPI_COMM_SELF. A raise must call a handler that is alive, never the one just replaced. */
TEST_F(ObjectsThreads, ErrorsRaisedWhileOtherThreadsReplaceTheHandler)
{
    handled = 0;
    constexpr int kRaises = 20000;
    MPI_Errhandler first = MPI_ERRHANDLER_NULL;
    ASSERT_EQ(native::comm_create_errhandler(counting_fn, &first), MPI_SUCCESS);
    tessera::ompi::errhandler_assign(&tessera::ompi::comm_self().errhandler, first);
    ASSERT_EQ(native::errhandler_free(&first), MPI_SUCCESS);
    testing_threads::StartTogether together(kThreads);
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            together.arrive_and_wait();
            if (t % 2 == 0) {
                while (!stop.load()) {
                    /* What MPI_Comm_set_errhandler and MPI_Comm_get_errhandler do (they need MPI_Init). */
                    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
                    if (!ok(native::comm_create_errhandler(counting_fn, &h) == MPI_SUCCESS,
                            "MPI_Comm_create_errhandler")) {
                        continue;
                    }
                    tessera::ompi::errhandler_assign(&tessera::ompi::comm_self().errhandler, h);
                    ok(native::errhandler_free(&h) == MPI_SUCCESS, "MPI_Errhandler_free");
                    const MPI_Errhandler got = tessera::ompi::errhandler_get(&tessera::ompi::comm_self().errhandler);
                    tessera::ompi::errhandler_release(got);
                }
            } else {
                for (int i = 0; i < kRaises; ++i) {
                    ok(tessera::ompi::raise_on_comm(MPI_COMM_SELF, MPI_ERR_ARG, "test", "raised") == MPI_ERR_ARG,
                       "raise_on_comm");
                }
            }
        });
    }
    for (int t = 1; t < kThreads; t += 2) {
        threads[static_cast<std::size_t>(t)].join();
    }
    stop = true;
    for (int t = 0; t < kThreads; t += 2) {
        threads[static_cast<std::size_t>(t)].join();
    }
    tessera::ompi::errhandler_assign(&tessera::ompi::comm_self().errhandler, MPI_ERRORS_RETURN);
    const char *what = first_wrong.load();
    EXPECT_EQ(wrong.load(), 0) << "first: " << (what != nullptr ? what : "");
    EXPECT_EQ(handled.load(), kThreads / 2 * kRaises) << "every raise calls a live handler once";
}

} // namespace
