/* Requests through the native MPI functions on the fake btl: completion calls, persistent requests,
 * cancel, matched probes, MPI_PROC_NULL, errors returned through MPI_ERRORS_RETURN. */
#include <vector>

#include "ompi/runtime/native_api.h"
#include "ompi/pml/p2p_functions.h"
#include "pml_fixture.h"

namespace tessera::test {
namespace {

namespace native = ompi::native;

class PmlRequests : public PmlTest {};

TEST_F(PmlRequests, IsendIrecvWaitall)
{
    start(3, {{}});
    int out[2] = {3, 4}, in[2] = {0, 0};
    MPI_Request reqs[4];
    ASSERT_EQ(native::irecv_c(&in[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(native::irecv_c(&in[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[1]), MPI_SUCCESS);
    ASSERT_EQ(native::isend_c(&out[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[2]), MPI_SUCCESS);
    ASSERT_EQ(native::isend_c(&out[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[3]), MPI_SUCCESS);
    int flag = 1;
    ASSERT_EQ(native::testall(4, reqs, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    EXPECT_FALSE(flag);
    btl->deliver_all();
    MPI_Status statuses[4];
    ASSERT_EQ(native::waitall(4, reqs, statuses), MPI_SUCCESS);
    EXPECT_EQ(in[0], 3);
    EXPECT_EQ(in[1], 4);
    EXPECT_EQ(statuses[1].MPI_SOURCE, 2);
    for (MPI_Request r : reqs) {
        EXPECT_EQ(r, MPI_REQUEST_NULL);
    }
}

TEST_F(PmlRequests, WaitanyAndWaitsomeSkipNullAndReportUndefined)
{
    start(2, {{}});
    int value = 8, got = 0;
    MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    ASSERT_EQ(native::irecv_c(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[1]), MPI_SUCCESS);
    ASSERT_EQ(native::isend_c(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[2]), MPI_SUCCESS);
    btl->deliver_all();
    int index = -1;
    MPI_Status status;
    ASSERT_EQ(native::waitany(3, reqs, &index, &status), MPI_SUCCESS);
    EXPECT_EQ(index, 1);
    EXPECT_EQ(got, 8);
    int outcount = 0, indices[3];
    ASSERT_EQ(native::waitsome(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(outcount, 1);
    EXPECT_EQ(indices[0], 2);
    ASSERT_EQ(native::waitsome(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(outcount, MPI_UNDEFINED);
    ASSERT_EQ(native::waitany(3, reqs, &index, &status), MPI_SUCCESS);
    EXPECT_EQ(index, MPI_UNDEFINED);
    int flag = 0;
    ASSERT_EQ(native::testany(3, reqs, &index, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(flag);
    EXPECT_EQ(index, MPI_UNDEFINED);
}

TEST_F(PmlRequests, PersistentRequestsRestart)
{
    start(2, {{.eager_limit = 256, .max_send_size = 256}});
    std::vector<int> out(100), in(100);
    MPI_Request reqs[2];
    ASSERT_EQ(native::send_init_c(out.data(), 100, MPI_INT, 1, 6, MPI_COMM_WORLD, &reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(native::recv_init_c(in.data(), 100, MPI_INT, 1, 6, MPI_COMM_WORLD, &reqs[1]), MPI_SUCCESS);
    int flag = 0;
    ASSERT_EQ(native::test(&reqs[0], &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_TRUE(flag); /* inactive: complete with an empty status */
    EXPECT_NE(reqs[0], MPI_REQUEST_NULL);
    for (int round = 0; round < 3; ++round) {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = round * 1000 + static_cast<int>(i);
        }
        ASSERT_EQ(native::startall(2, reqs), MPI_SUCCESS);
        EXPECT_NE(native::start(&reqs[0]), MPI_SUCCESS); /* already active */
        btl->deliver_all();
        MPI_Status statuses[2];
        ASSERT_EQ(native::waitall(2, reqs, statuses), MPI_SUCCESS);
        EXPECT_EQ(in, out);
        EXPECT_NE(reqs[0], MPI_REQUEST_NULL);
        EXPECT_NE(reqs[1], MPI_REQUEST_NULL);
    }
    ASSERT_EQ(native::request_free(&reqs[0]), MPI_SUCCESS);
    ASSERT_EQ(native::request_free(&reqs[1]), MPI_SUCCESS);
    EXPECT_EQ(reqs[0], MPI_REQUEST_NULL);
}

TEST_F(PmlRequests, CancelWithdrawsAnUnmatchedReceiveOnly)
{
    start(2, {{}});
    int got = 0, value = 12;
    MPI_Request pending, matched, send;
    ASSERT_EQ(native::irecv_c(&got, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &pending), MPI_SUCCESS);
    ASSERT_EQ(native::cancel(&pending), MPI_SUCCESS);
    MPI_Status status;
    ASSERT_EQ(native::wait(&pending, &status), MPI_SUCCESS);
    int cancelled = 0;
    native::test_cancelled(&status, &cancelled);
    EXPECT_TRUE(cancelled);

    /* A message for tag 99 now goes to the next receive, not the cancelled one. */
    ASSERT_EQ(native::irecv_c(&got, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &matched), MPI_SUCCESS);
    ASSERT_EQ(native::isend_c(&value, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &send), MPI_SUCCESS);
    btl->deliver_all();
    ASSERT_EQ(native::cancel(&matched), MPI_SUCCESS);
    ASSERT_EQ(native::wait(&matched, &status), MPI_SUCCESS);
    native::test_cancelled(&status, &cancelled);
    EXPECT_FALSE(cancelled);
    EXPECT_EQ(got, 12);
    /* A send is not recalled: it completes normally. */
    ASSERT_EQ(native::cancel(&send), MPI_SUCCESS);
    ASSERT_EQ(native::wait(&send, &status), MPI_SUCCESS);
    native::test_cancelled(&status, &cancelled);
    EXPECT_FALSE(cancelled);
}

TEST_F(PmlRequests, MatchedProbeTakesTheMessageOutOfMatching)
{
    start(2, {{}});
    int a = 1, b = 2;
    MPI_Request s[2];
    native::isend_c(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &s[0]);
    native::isend_c(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &s[1]);
    int flag = 1;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    ASSERT_EQ(native::improbe(1, 5, MPI_COMM_WORLD, &flag, &message, &status), MPI_SUCCESS);
    EXPECT_FALSE(flag);
    btl->deliver_all();
    ASSERT_EQ(native::improbe(1, 5, MPI_COMM_WORLD, &flag, &message, &status), MPI_SUCCESS);
    ASSERT_TRUE(flag);
    /* The second message is now the first one a receive or probe sees. */
    int got = 0;
    ASSERT_EQ(native::recv_c(&got, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &status), MPI_SUCCESS);
    EXPECT_EQ(got, 2);
    ASSERT_EQ(native::mrecv_c(&got, 1, MPI_INT, &message, &status), MPI_SUCCESS);
    EXPECT_EQ(got, 1);
    EXPECT_EQ(message, MPI_MESSAGE_NULL);
    EXPECT_EQ(status.MPI_SOURCE, 1);
    ASSERT_EQ(native::waitall(2, s, MPI_STATUSES_IGNORE), MPI_SUCCESS);

    ASSERT_EQ(native::mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status), MPI_SUCCESS);
    EXPECT_EQ(message, MPI_MESSAGE_NO_PROC);
    MPI_Request r;
    ASSERT_EQ(native::imrecv_c(&got, 1, MPI_INT, &message, &r), MPI_SUCCESS);
    ASSERT_EQ(native::wait(&r, &status), MPI_SUCCESS);
    EXPECT_EQ(status.MPI_SOURCE, MPI_PROC_NULL);
}

TEST_F(PmlRequests, ProcNullCompletesAtOnce)
{
    start(2, {{}});
    int x = 0;
    MPI_Status status;
    ASSERT_EQ(native::send_c(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    ASSERT_EQ(native::recv_c(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status), MPI_SUCCESS);
    EXPECT_EQ(status.MPI_SOURCE, MPI_PROC_NULL);
    EXPECT_EQ(status.MPI_TAG, MPI_ANY_TAG);
    MPI_Count count = -1;
    native::get_count_c(&status, MPI_INT, &count);
    EXPECT_EQ(count, 0);
    ASSERT_EQ(native::sendrecv_c(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                               &status),
              MPI_SUCCESS);
    EXPECT_TRUE(btl->wire.empty());
}

TEST_F(PmlRequests, BlockingReceiveReportsTruncation)
{
    start(2, {{}});
    int values[4] = {1, 2, 3, 4}, got[3] = {0, 0, 0};
    MPI_Request s;
    native::isend_c(values, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &s);
    btl->deliver_all();
    MPI_Status status;
    status.MPI_ERROR = -77;
    EXPECT_EQ(native::recv_c(got, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &status), MPI_ERR_TRUNCATE);
    EXPECT_EQ(status.MPI_ERROR, -77); /* the call's error is its return code; a single status keeps its field */
    EXPECT_EQ(got[1], 2);
    EXPECT_EQ(got[2], 0);
    MPI_Count count = 0;
    native::get_count_c(&status, MPI_INT, &count);
    EXPECT_EQ(count, 2);
    EXPECT_EQ(native::wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

TEST_F(PmlRequests, ArgumentErrorsAreReturnedThroughTheHandler)
{
    start(3, {{}});
    int x = 0;
    EXPECT_EQ(native::send_c(&x, 1, MPI_INT, 3, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT_EQ(native::send_c(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT_EQ(native::send_c(&x, 1, MPI_INT, 1, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT_EQ(native::send_c(&x, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT_EQ(native::send_c(&x, 1, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT_EQ(native::send_c(nullptr, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_EQ(native::send_c(&x, 1, MPI_INT, 1, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    MPI_Request r = MPI_REQUEST_NULL;
    EXPECT_EQ(native::irecv_c(&x, 1, MPI_INT, 7, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    EXPECT_EQ(r, MPI_REQUEST_NULL);
    EXPECT_EQ(native::irecv_c(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &r), MPI_SUCCESS);
    ASSERT_EQ(native::cancel(&r), MPI_SUCCESS);
    EXPECT_EQ(native::wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(native::start(&r), MPI_ERR_REQUEST);
    EXPECT_TRUE(btl->wire.empty());
}

TEST_F(PmlRequests, IsendrecvReplaceSwapsThroughOneBuffer)
{
    start(2, {{.eager_limit = 512, .max_send_size = 512}});
    std::vector<int> buf(1000), incoming(1000);
    for (int i = 0; i < 1000; ++i) {
        buf[static_cast<std::size_t>(i)] = i;
        incoming[static_cast<std::size_t>(i)] = -i;
    }
    MPI_Request peer_send, r;
    /* What "rank 1" sends us; our own outgoing copy goes to rank 1 and comes back unexpected. */
    native::isend_c(incoming.data(), 1000, MPI_INT, 1, 1, MPI_COMM_WORLD, &peer_send);
    ASSERT_EQ(native::isendrecv_replace_c(buf.data(), 1000, MPI_INT, 1, 2, 1, 1, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    /* Rank 1 is this process: the outgoing copy completes once this receive takes it. */
    std::vector<int> echoed(1000);
    MPI_Request echo;
    ASSERT_EQ(native::irecv_c(echoed.data(), 1000, MPI_INT, 1, 2, MPI_COMM_WORLD, &echo), MPI_SUCCESS);
    btl->deliver_all();
    MPI_Status status;
    ASSERT_EQ(native::wait(&r, &status), MPI_SUCCESS);
    EXPECT_EQ(buf, incoming);
    EXPECT_EQ(status.MPI_TAG, 1);
    ASSERT_EQ(native::wait(&echo, &status), MPI_SUCCESS);
    EXPECT_EQ(echoed[999], 999);
    EXPECT_EQ(echoed[1], 1);
    EXPECT_EQ(native::wait(&peer_send, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

TEST_F(PmlRequests, PeerFailureFailsItsRequests)
{
    start(3, {{.eager_limit = 256, .max_send_size = 256}});
    std::vector<char> big(10000, 'z');
    int got = 0;
    MPI_Request send, recv, other;
    ASSERT_EQ(native::isend_c(big.data(), 10000, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &send), MPI_SUCCESS);
    ASSERT_EQ(native::irecv_c(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &recv), MPI_SUCCESS);
    ASSERT_EQ(native::irecv_c(&got, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &other), MPI_SUCCESS);
    btl->wire.clear(); /* rank 1 never answers */
    mca_btl_base_report_error(nullptr, btl->procs()[1], TESSERA_ERR_UNREACH, "the fake peer left");
    EXPECT_NE(native::wait(&send, MPI_STATUS_IGNORE), MPI_SUCCESS);
    MPI_Request both[2] = {recv, MPI_REQUEST_NULL};
    MPI_Status statuses[2];
    EXPECT_EQ(native::waitall(2, both, statuses), MPI_ERR_IN_STATUS);
    EXPECT_NE(statuses[0].MPI_ERROR, MPI_SUCCESS);
    EXPECT_EQ(statuses[1].MPI_ERROR, MPI_SUCCESS);
    int flag = 1;
    ASSERT_EQ(native::test(&other, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_FALSE(flag); /* rank 2 is still there */
    ASSERT_EQ(native::cancel(&other), MPI_SUCCESS);
    EXPECT_EQ(native::wait(&other, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

TEST_F(PmlRequests, LargeCountForms)
{
    start(2, {{.eager_limit = 256, .max_send_size = 256}});
    std::vector<double> out(300), in(300);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = static_cast<double>(i) / 4;
    }
    MPI_Request s, r;
    ASSERT_EQ(native::isend_c(out.data(), MPI_Count{300}, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &s), MPI_SUCCESS);
    ASSERT_EQ(native::irecv_c(in.data(), MPI_Count{300}, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    btl->deliver_all();
    MPI_Status status;
    ASSERT_EQ(native::wait(&r, &status), MPI_SUCCESS);
    ASSERT_EQ(native::wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(in, out);
    MPI_Count count = 0;
    native::get_count_c(&status, MPI_DOUBLE, &count);
    EXPECT_EQ(count, 300);
    /* A blocking receive of an eager message that is already here. */
    ASSERT_EQ(native::isend_c(out.data(), MPI_Count{2}, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &s), MPI_SUCCESS);
    btl->deliver_all();
    ASSERT_EQ(native::recv_c(in.data(), MPI_Count{2}, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &status), MPI_SUCCESS);
    ASSERT_EQ(native::wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);
    native::get_count_c(&status, MPI_DOUBLE, &count);
    EXPECT_EQ(count, 2);
    MPI_Count lb = -1, extent = 0;
    ASSERT_EQ(native::type_get_extent_c(MPI_DOUBLE_INT, &lb, &extent), MPI_SUCCESS);
    EXPECT_EQ(lb, 0);
    EXPECT_EQ(extent, 16);
}

TEST_F(PmlRequests, PersistentBufferedSendCopiesAtEachStart)
{
    start(2, {{}});
    std::vector<char> pool(4 * (64 + MPI_BSEND_OVERHEAD));
    ASSERT_EQ(native::buffer_attach(pool.data(), static_cast<int>(pool.size())), MPI_SUCCESS);
    int value = 0;
    MPI_Request b;
    ASSERT_EQ(native::bsend_init_c(&value, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &b), MPI_SUCCESS);
    for (int round = 1; round <= 3; ++round) {
        value = round * 11;
        ASSERT_EQ(native::start(&b), MPI_SUCCESS);
        value = -1; /* the message left from the attached buffer's copy */
        int flag = 0;
        ASSERT_EQ(native::test(&b, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_TRUE(flag);
        btl->deliver_all();
        int got = 0;
        ASSERT_EQ(native::recv_c(&got, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(got, round * 11);
    }
    ASSERT_EQ(native::request_free(&b), MPI_SUCCESS);
    void *detached = nullptr;
    int size = 0;
    ASSERT_EQ(native::buffer_detach(&detached, &size), MPI_SUCCESS);
    EXPECT_EQ(detached, pool.data());
    EXPECT_EQ(size, static_cast<int>(pool.size()));
}

} // namespace
} // namespace tessera::test
