// The per-thread "inside the runtime" depth (frameworks/translator/base/reentry.h): what thunks,
// trampolines and the generated bindings rely on.
#include <gtest/gtest.h>

#include <thread>

#include "frameworks/translator/base/reentry.h"

namespace {

TEST(TranslatorReentry, StartsOutside)
{
    EXPECT_FALSE(tessera_translator_inside());
}

TEST(TranslatorReentry, EnterAndLeaveNest)
{
    tessera_translator_enter();
    EXPECT_TRUE(tessera_translator_inside());
    tessera_translator_enter(); // a runtime calling back into a thunk that calls the runtime again
    EXPECT_TRUE(tessera_translator_inside());
    tessera_translator_leave();
    EXPECT_TRUE(tessera_translator_inside()) << "the outer call is still inside";
    tessera_translator_leave();
    EXPECT_FALSE(tessera_translator_inside());
}

TEST(TranslatorReentry, SuspendClearsAndResumeRestores)
{
    tessera_translator_enter();
    tessera_translator_enter();
    const int saved = tessera_translator_suspend(); // a trampoline about to run the user's callback
    EXPECT_EQ(saved, 2);
    EXPECT_FALSE(tessera_translator_inside()) << "the callback's MPI calls carry application handles";
    tessera_translator_enter(); // the callback's own translated call
    tessera_translator_leave();
    EXPECT_FALSE(tessera_translator_inside());
    tessera_translator_resume(saved);
    EXPECT_TRUE(tessera_translator_inside());
    tessera_translator_leave();
    tessera_translator_leave();
    EXPECT_FALSE(tessera_translator_inside());
}

TEST(TranslatorReentry, SuspendOutsideIsHarmless)
{
    const int saved = tessera_translator_suspend(); // a callback run by a runtime's progress thread
    EXPECT_EQ(saved, 0);
    EXPECT_FALSE(tessera_translator_inside());
    tessera_translator_resume(saved);
    EXPECT_FALSE(tessera_translator_inside());
}

TEST(TranslatorReentry, EachThreadHasItsOwnDepth)
{
    tessera_translator_enter();
    bool other_inside_at_start = true;
    bool other_inside_after_enter = false;
    std::thread t([&] {
        other_inside_at_start = tessera_translator_inside();
        tessera_translator_enter();
        other_inside_after_enter = tessera_translator_inside();
        tessera_translator_leave();
    });
    t.join();
    EXPECT_FALSE(other_inside_at_start) << "another thread is not inside the runtime because this one is";
    EXPECT_TRUE(other_inside_after_enter);
    EXPECT_TRUE(tessera_translator_inside()) << "the other thread's leave does not touch this one";
    tessera_translator_leave();
}

} // namespace
