/* A stale handle stays refused however many objects come and go through its slot: the 16-bit
 * generation would come round again after 65535 of them, so the slot is retired instead. */
#include <gtest/gtest.h>

#include <mpi.h>

#include "ompi/info/info.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/user_handle.h"

namespace ompi = tessera::ompi;

namespace {

/* More than a slot has generations: the loops below end long before, when the slot is retired. */
constexpr int kMaxReuses = 70000;

TEST(UserHandleWrap, StaleInfoHandleIsRefusedAfterItsSlotUsedEveryGeneration)
{
    ompi::Info *first = new ompi::Info{};
    void *const slot = first;
    const MPI_Info stale = ompi::user_handle<MPI_Info>(first);
    ASSERT_EQ(ompi::user_object<ompi::Info>(stale), first);
    delete first;

    const std::size_t retired_before = ompi::handle_pool<ompi::Info>().retired();
    MPI_Info last = stale;
    int reuses = 0;
    for (; reuses < kMaxReuses; ++reuses) {
        auto *info = new ompi::Info{};
        if (info != static_cast<void *>(slot)) {
            delete info;
            break;
        }
        /* The slot holds a new object: the first object's handle must not name it. */
        ASSERT_EQ(ompi::user_object<ompi::Info>(stale), nullptr) << "after " << reuses << " reuses of the slot";
        last = ompi::user_handle<MPI_Info>(info);
        ASSERT_EQ(ompi::user_object<ompi::Info>(last), info);
        delete info;
    }
    /* Generations 2 to 65535 went to the reuses; then the slot was retired, not handed out again. */
    EXPECT_EQ(reuses, 65534);
    EXPECT_EQ(ompi::handle_pool<ompi::Info>().retired(), retired_before + 1);
    EXPECT_EQ(ompi::user_object<ompi::Info>(stale), nullptr);
    EXPECT_EQ(ompi::user_object<ompi::Info>(last), nullptr);
}

TEST(UserHandleWrap, StaleRequestHandleIsRefusedAfterItsSlotUsedEveryGeneration)
{
    /* Requests go back to the engine's free list rather than to the pool; the same rule holds there. */
    ompi::pml::Request *first = ompi::pml::request_alloc();
    void *const slot = first;
    const MPI_Request stale = ompi::pml::to_handle(first);
    ASSERT_EQ(ompi::pml::request_lookup(stale), first);
    ompi::pml::request_release(first);

    int reuses = 0;
    for (; reuses < kMaxReuses; ++reuses) {
        ompi::pml::Request *r = ompi::pml::request_alloc();
        if (r != slot) {
            ompi::pml::request_release(r);
            break;
        }
        ASSERT_EQ(ompi::pml::request_lookup(stale), nullptr) << "after " << reuses << " reuses of the slot";
        ompi::pml::request_release(r);
    }
    EXPECT_EQ(reuses, 65534);
    EXPECT_EQ(ompi::pml::request_lookup(stale), nullptr);
}

} // namespace
