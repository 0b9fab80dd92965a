/*
 * The schedule engine: rounds run in order and a round waits for every send and receive of the one
 * before; local steps run when reached; each schedule has its own tag, so two in flight at once never
 * take each other's messages; a non-blocking collective's request completes through MPI_Test/Testall
 * with point-to-point requests; errors of steps reach the result.
 */
#include <memory>
#include <vector>

#include "ompi/coll/coll_schedule.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/pml/p2p_functions.h"
#include "ompi/pml/pml_internal.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

using ompi::coll::Schedule;

class CollSchedule : public PmlTest {
protected:
    void SetUp() override
    {
        ompi::pml::progress_hook_add(ompi::coll::progress_requests);
    }
    void TearDown() override
    {
        ompi::pml::progress_hook_remove(ompi::coll::progress_requests);
        PmlTest::TearDown();
    }
    const ompi::Datatype *int_type = ompi::datatype_lookup(MPI_INT);
    const ompi::Op *sum = ompi::op_lookup(MPI_SUM);
};

TEST_F(CollSchedule, ARoundWaitsForTheCommunicationOfThePreviousOne)
{
    start(3, {{}});
    std::vector<int> a{1, 2, 3}, b(3, 0), acc{10, 20, 30}, echo(3, 0);
    Schedule s(&ompi::comm_world());
    /* Round 1: a goes to rank 1 and comes back into b. Round 2: acc += b, then acc goes to rank 2
     * and comes back into echo. */
    s.send(a.data(), 3, int_type, 1);
    s.recv(b.data(), 3, int_type, 1);
    s.round();
    s.reduce(b.data(), acc.data(), 3, int_type, sum);
    s.send(acc.data(), 3, int_type, 2);
    s.recv(echo.data(), 3, int_type, 2);
    s.start();
    EXPECT_FALSE(s.progress());
    EXPECT_EQ(acc, (std::vector<int>{10, 20, 30})) << "the reduction ran before its operand arrived";
    EXPECT_EQ(btl->wire.size(), 1u) << "round 2 started early";
    btl->deliver(0);
    EXPECT_FALSE(s.progress());
    EXPECT_EQ(acc, (std::vector<int>{11, 22, 33}));
    EXPECT_EQ(btl->wire.size(), 1u);
    btl->deliver_all();
    EXPECT_TRUE(s.progress());
    EXPECT_EQ(echo, (std::vector<int>{11, 22, 33}));
    EXPECT_EQ(s.error(), MPI_SUCCESS);
}

TEST_F(CollSchedule, TwoSchedulesInFlightKeepTheirOwnMessages)
{
    start(2, {{}});
    ompi::Communicator &world = ompi::comm_world();
    const uint32_t first = world.coll_seq;
    int x = 1, y = 2, got_x = 0, got_y = 0;
    Schedule one(&world), two(&world);
    EXPECT_EQ(world.coll_seq, first + 2);
    EXPECT_NE(one.tag(), two.tag());
    EXPECT_LT(one.tag(), MPI_ANY_TAG);
    /* The second posts its receive first; each still gets the message of its own collective. */
    two.recv(&got_y, 1, int_type, 1);
    two.round();
    two.send(&y, 1, int_type, 1);
    one.send(&x, 1, int_type, 1);
    one.recv(&got_x, 1, int_type, 1);
    two.start();
    one.start();
    btl->deliver_all();
    EXPECT_TRUE(one.progress());
    EXPECT_EQ(got_x, 1);
    EXPECT_FALSE(two.progress()) << "the second collective took the first one's message";
    EXPECT_EQ(got_y, 0);
    /* Its receive waits for rank 1's message under its own tag (here: ours, sent with that tag). */
    int from_rank_one = 2;
    ompi::pml::Request *peer = ompi::pml::isend(&from_rank_one, 1, int_type, 1, two.tag(), &world);
    btl->deliver_all();
    EXPECT_TRUE(two.progress());
    EXPECT_EQ(got_y, 2);
    release(peer);
}

TEST_F(CollSchedule, ANonBlockingCollectiveCompletesThroughMpiTestWithPointToPoint)
{
    start(2, {{}});
    std::vector<int> a{4, 5}, b(2, 0);
    ompi::pml::Request *request = nullptr;
    ASSERT_EQ(ompi::coll::run_nonblocking(&ompi::comm_world(), &request,
                                          [&](Schedule &s) {
                                              s.send(a.data(), 2, int_type, 1);
                                              s.recv(b.data(), 2, int_type, 1);
                                          }),
              MPI_SUCCESS);
    ASSERT_NE(request, nullptr);
    EXPECT_EQ(request->kind, ompi::pml::Kind::Coll);
    MPI_Request handles[2] = {ompi::pml::to_handle(request), MPI_REQUEST_NULL};
    int value = 8, got = 0;
    MPI_Request recv;
    ASSERT_EQ(ompi::native::irecv_c(&got, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &recv), MPI_SUCCESS);
    handles[1] = recv;
    MPI_Request send;
    ASSERT_EQ(ompi::native::isend_c(&value, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &send), MPI_SUCCESS);
    int flag = 1;
    ASSERT_EQ(ompi::native::test(&handles[0], &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_FALSE(flag);
    btl->deliver_all();
    ASSERT_EQ(ompi::native::testall(2, handles, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_EQ(handles[0], MPI_REQUEST_NULL);
    EXPECT_EQ(handles[1], MPI_REQUEST_NULL);
    EXPECT_EQ(b, a);
    EXPECT_EQ(got, 8);
    ASSERT_EQ(ompi::native::wait(&send, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

TEST_F(CollSchedule, ACollectiveRequestFreedWhileRunningIsReleasedWhenItCompletes)
{
    start(2, {{}});
    int a = 3, b = 0;
    ompi::pml::Request *request = nullptr;
    ompi::coll::run_nonblocking(&ompi::comm_world(), &request, [&](Schedule &s) {
        s.send(&a, 1, int_type, 1);
        s.recv(&b, 1, int_type, 1);
    });
    MPI_Request handle = ompi::pml::to_handle(request);
    ASSERT_EQ(ompi::native::request_free(&handle), MPI_SUCCESS);
    EXPECT_EQ(handle, MPI_REQUEST_NULL);
    btl->deliver_all();
    ompi::pml::progress();
    EXPECT_EQ(b, 3);
}

TEST_F(CollSchedule, LocalStepsCopyAndCheckTheirLengths)
{
    start(1, {{}});
    std::vector<int> src{1, 2, 3, 4}, dst(4, 0), small(2, 0);
    Schedule s(&ompi::comm_world());
    s.copy(src.data(), 4, int_type, dst.data(), 4, int_type);
    s.copy(src.data(), 4, int_type, small.data(), 2, int_type); /* longer than its destination */
    EXPECT_EQ(ompi::coll::run(s), MPI_ERR_TRUNCATE);
    EXPECT_EQ(dst, src);
    EXPECT_EQ(small, (std::vector<int>{1, 2}));
}

TEST_F(CollSchedule, ScratchIsAlignedForTheType)
{
    start(1, {{}});
    Schedule s(&ompi::comm_world());
    for (std::size_t count : {0u, 1u, 3u, 1000u}) {
        auto *p = static_cast<double *>(s.scratch(count, ompi::datatype_lookup(MPI_DOUBLE)));
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 16, 0u);
        for (std::size_t i = 0; i < count; ++i) {
            p[i] = static_cast<double>(i); /* writable, as ASan would say */
        }
    }
}

TEST_F(CollSchedule, TheNextScheduleGetsTheMemoryOfTheLastOne)
{
    start(1, {{}});
    ompi::coll::clear_cache();
    const ompi::Datatype *dbl = ompi::datatype_lookup(MPI_DOUBLE);
    void *first = nullptr;
    {
        Schedule s(&ompi::comm_world(), Schedule::Uses::None);
        first = s.scratch(1000, dbl);
        s.send(first, 0, dbl, MPI_PROC_NULL);
        EXPECT_EQ(ompi::coll::run(s), MPI_SUCCESS);
    }
    Schedule again(&ompi::comm_world(), Schedule::Uses::None);
    EXPECT_EQ(again.scratch(1000, dbl), first) << "a finished schedule's scratch buffer was not reused";
    EXPECT_NE(again.scratch(10, dbl), first) << "one buffer handed out twice";
    EXPECT_EQ(ompi::coll::run(again), MPI_SUCCESS);
}

} // namespace
} // namespace tessera::test
