// trace monitor, selected through the MCA core: it counts the messages and bytes this process sends
// to each peer of each communicator (blocking sends when they returned, nonblocking ones when they begin) — also from several threads — and writes them at finalize.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "frameworks/trace/base/base.h"
#include "mca/report.h"
#include "mca/var_store.h"

namespace {

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The lines that are not comments.
std::vector<std::string> data_lines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] != '#') {
            lines.push_back(line);
        }
    }
    return lines;
}

class TraceMonitor : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        char tmpl[] = "/tmp/tessera-trace-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        tessera::mca::set_command_line("trace", "monitor");
        ASSERT_EQ(tessera::mca::framework_register(&mca_trace_base_framework), TESSERA_SUCCESS);
        ASSERT_EQ(tessera::mca::framework_open(&mca_trace_base_framework), TESSERA_SUCCESS);
    }
    static void TearDownTestSuite()
    {
        tessera::mca::framework_close(&mca_trace_base_framework);
        std::string cmd = "rm -rf '" + dir_ + "'";
        EXPECT_EQ(system(cmd.c_str()), 0);
    }
    void SetUp() override { tessera::mca::report_clear(); }
    void TearDown() override
    {
        mca_trace_base_finalize();
        tessera::mca::set_command_line("trace", "monitor");
    }

    static int select(int rank, int size)
    {
        mca_trace_base_job_info_t job{};
        job.jobid = 42;
        job.world_rank = rank;
        job.world_size = size;
        job.hostname = "nodeA";
        job.thread_level = MPI_THREAD_MULTIPLE; /* the test counts from several threads at once */
        return mca_trace_base_select(&job);
    }

    static std::string dir_;
};
std::string TraceMonitor::dir_;

TEST_F(TraceMonitor, CountsSendsPerCommunicatorAndPeerAndWritesTheMatrixRow)
{
    tessera::mca::set_command_line("trace_monitor_filename", dir_ + "/counts.%r");
    ASSERT_EQ(select(2, 4), TESSERA_SUCCESS);
    ASSERT_EQ(mca_trace_base_module_count, 1u);

    const int world[] = {0, 1, 2, 3};
    mca_trace_comm_create(0, "MPI_COMM_WORLD", 4, 2, world);
    const int row[] = {0, 2}; // a split communicator: its rank 0 is world rank 0, we are its rank 1
    mca_trace_comm_create(5, "row", 2, 1, row);

    for (int i = 0; i < 3; ++i) {
        mca_trace_send(0, 1, 10, 100); // a blocking send begins: counted when it returned
        mca_trace_send_done(0, 1, 10, 100);
    }
    mca_trace_isend(0, 3, 11, 50, 1001);
    mca_trace_isend(0, 3, 11, 50, 1002);
    mca_trace_isend_complete(1001);
    mca_trace_send_done(5, 0, 0, 8);
    mca_trace_recv(0, 1, 10, 999);       // receives are not sends
    mca_trace_irecv_request(77);
    mca_trace_irecv(0, 1, 10, 999, 77);
    mca_trace_collective_begin();
    mca_trace_collective_end(MCA_TRACE_COLL_BCAST, 0, 0, 64, 0);
    // Two more threads count into the same cells.
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
        threads.emplace_back([] {
            for (int i = 0; i < 1000; ++i) {
                mca_trace_send_done(0, 1, 10, 1);
            }
        });
    }
    for (auto &t : threads) {
        t.join();
    }

    ASSERT_EQ(mca_trace_base_finalize(), TESSERA_SUCCESS);
    EXPECT_EQ(mca_trace_base_module_count, 0u);
    mca_trace_send_done(0, 1, 10, 100); // after finalize: ignored, no crash

    std::string text = read_file(dir_ + "/counts.2");
    EXPECT_NE(text.find("world rank 2 of 4 (job 42, host nodeA)"), std::string::npos) << text;
    EXPECT_EQ(data_lines(text), (std::vector<std::string>{
                                    "comm 0 1 1 2003 2300 MPI_COMM_WORLD",
                                    "comm 0 3 3 2 100 MPI_COMM_WORLD",
                                    "comm 5 0 0 1 8 row",
                                    "world 0 1 8",
                                    "world 1 2003 2300",
                                    "world 3 2 100",
                                }))
        << text;
}

TEST_F(TraceMonitor, UnknownCommunicatorStillCounts)
{
    tessera::mca::set_command_line("trace_monitor_filename", dir_ + "/unknown");
    ASSERT_EQ(select(0, 1), TESSERA_SUCCESS);
    mca_trace_send_done(9, 4, 0, 16);
    ASSERT_EQ(mca_trace_base_finalize(), TESSERA_SUCCESS);
    // One rank: the name is used as given. The peer's world rank is unknown, so no world line.
    EXPECT_EQ(data_lines(read_file(dir_ + "/unknown")), (std::vector<std::string>{"comm 9 4 -1 1 16 -"}));
}

TEST_F(TraceMonitor, RanksOfALargerJobNeverShareAFile)
{
    tessera::mca::set_command_line("trace_monitor_filename", dir_ + "/shared");
    ASSERT_EQ(select(3, 8), TESSERA_SUCCESS);
    mca_trace_send_done(0, 0, 0, 1);
    ASSERT_EQ(mca_trace_base_finalize(), TESSERA_SUCCESS);
    EXPECT_EQ(access((dir_ + "/shared").c_str(), F_OK), -1);
    EXPECT_EQ(data_lines(read_file(dir_ + "/shared.3")), (std::vector<std::string>{"comm 0 0 -1 1 1 -"}));
}

TEST_F(TraceMonitor, EmptyFilenameWritesToStderr)
{
    tessera::mca::set_command_line("trace_monitor_filename", "");
    ASSERT_EQ(select(0, 1), TESSERA_SUCCESS);
    mca_trace_send_done(0, 1, 0, 5);
    testing::internal::CaptureStderr();
    ASSERT_EQ(mca_trace_base_finalize(), TESSERA_SUCCESS);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("comm 0 1 -1 1 5 -"), std::string::npos) << err;
}

TEST_F(TraceMonitor, UnwritableFileIsReportedAndTheRunGoesOn)
{
    tessera::mca::set_command_line("trace_monitor_filename", dir_ + "/no-such-dir/counts");
    ASSERT_EQ(select(0, 1), TESSERA_SUCCESS);
    mca_trace_send_done(0, 1, 0, 5);
    EXPECT_EQ(mca_trace_base_finalize(), TESSERA_ERR_IO);
    auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
    ASSERT_FALSE(errors.empty());
    EXPECT_NE(errors.back().find("no-such-dir/counts"), std::string::npos) << errors.back();
    EXPECT_NE(errors.back().find("trace_monitor_filename"), std::string::npos) << errors.back();
}

TEST_F(TraceMonitor, TracingIsOptIn)
{
    tessera::mca::set_command_line("trace", "");
    ASSERT_EQ(select(0, 1), TESSERA_SUCCESS);
    EXPECT_EQ(mca_trace_base_module_count, 0u);
    mca_trace_send_done(0, 1, 0, 5); // one branch, nothing else
}

TEST_F(TraceMonitor, SelectingTwiceIsRefused)
{
    tessera::mca::set_command_line("trace_monitor_filename", dir_ + "/twice");
    ASSERT_EQ(select(0, 1), TESSERA_SUCCESS);
    EXPECT_EQ(select(0, 1), TESSERA_ERR_EXISTS);
    EXPECT_EQ(mca_trace_base_module_count, 1u);
}

} // namespace
