// Each oddity a trace can hold gives exactly its warning (and no other), with a readable example, and
// never stops the analysis: the messages that can be matched still are.
#include <gtest/gtest.h>

#include "trace_archive.h"

using namespace trace_test;
using nlohmann::json;
using Counts = std::map<std::string, uint64_t>;

namespace {

struct Outcome {
    Counts warnings;
    std::string csv;
    json report;
};

Outcome analyse(TraceArchive &a)
{
    ToolRun r = run_with_csv(a);
    EXPECT_EQ(r.status, 0) << r.err;
    Outcome o;
    o.report = json::parse(r.out);
    o.warnings = warning_counts(o.report);
    o.csv = r.csv;
    return o;
}

std::string first_example(const json &report, const char *kind)
{
    return report["warnings"]["kinds"][kind]["examples"][0].get<std::string>();
}

} // namespace

TEST(TraceWarnings, MissingReceive)
{
    TraceArchive a;
    a.send(0, 1000, 1, 7, 8).send(0, 2000, 1, 7, 8);
    a.recv(1, 3000, 0, 7, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"missing-receive", 1}}));
    EXPECT_EQ(first_example(o.report, "missing-receive"), "send 0 -> 1, comm 0, tag 7, 8 bytes at 0.000002000 s");
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,7,8,8,0.000001000,0.000003000,0.000002000\n");
}

TEST(TraceWarnings, ReceiveWithoutSend)
{
    TraceArchive a;
    a.recv(1, 3000, 0, 7, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"receive-without-send", 1}}));
    EXPECT_EQ(first_example(o.report, "receive-without-send"),
              "receive 0 -> 1, comm 0, tag 7, 8 bytes at 0.000003000 s");
    EXPECT_EQ(o.csv, csv_header);
}

// Received at the very tick it was sent, and received before it was sent (clocks of two processes).
TEST(TraceWarnings, NonPositiveDuration)
{
    TraceArchive a;
    a.send(0, 5000, 1, 1, 8).send(0, 6000, 1, 2, 8);
    a.recv(1, 5000, 0, 1, 8).recv(1, 5500, 0, 2, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"non-positive-duration", 2}}));
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,1,8,8,0.000005000,0.000005000,0.000000000\n"
                                               "0,1,0,2,8,8,0.000006000,0.000005500,-0.000000500\n");
    EXPECT_EQ(first_example(o.report, "non-positive-duration"),
              "0 -> 1, comm 0, tag 1: sent 8 bytes at 0.000005000 s, received 8 bytes at 0.000005000 s");
    // Such messages say nothing about speed: no bandwidth for the pair.
    EXPECT_TRUE(o.report["pairs"][0]["bandwidth"].is_null());
}

TEST(TraceWarnings, SendLargerThanReceive)
{
    TraceArchive a;
    a.send(0, 100, 1, 0, 16);
    a.recv(1, 200, 0, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"send-larger-than-receive", 1}}));
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,16,8,0.000000100,0.000000200,0.000000100\n");
}

TEST(TraceWarnings, UnknownCommunicator)
{
    TraceArchive a;
    a.send(0, 100, 1, 0, 8, 7).send(0, 200, 1, 0, 8);
    a.recv(1, 300, 0, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"unknown-communicator", 1}}));
    EXPECT_EQ(first_example(o.report, "unknown-communicator"),
              "MpiSend on process 0 to rank 1 of comm 7, tag 0 at 0.000000100 s");
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000200,0.000000300,0.000000100\n");
}

TEST(TraceWarnings, UnusableCommunicator)
{
    Layout l;
    l.comms = {{0, "MPI_COMM_WORLD", CommSpec::Kind::Group, {0, 1}, {}}, {1, "broken", CommSpec::Kind::Broken, {}, {}}};
    TraceArchive a(l);
    a.send(0, 100, 1, 0, 8, 1);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"unusable-communicator", 1}}));
}

TEST(TraceWarnings, RankOutOfRange)
{
    TraceArchive a;
    a.send(0, 100, 5, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"rank-out-of-range", 1}}));
    EXPECT_EQ(first_example(o.report, "rank-out-of-range"),
              "MpiSend on process 0 to rank 5 of comm 0, tag 0 at 0.000000100 s");
}

TEST(TraceWarnings, NotInInterCommunicator)
{
    Layout l;
    l.ranks = 3;
    l.comms = {{0, "MPI_COMM_WORLD", CommSpec::Kind::Group, {0, 1, 2}, {}}, {1, "inter", CommSpec::Kind::Inter, {0}, {1}}};
    TraceArchive a(l);
    a.send(2, 100, 0, 0, 8, 1);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"not-in-communicator", 1}}));
}

TEST(TraceWarnings, UnknownLocation)
{
    Layout l;
    l.outsiders = {900};
    TraceArchive a(l);
    a.send_on(900, 100, 1, 0, 8);
    a.send(0, 200, 1, 0, 8);
    a.recv(1, 300, 0, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"unknown-location", 1}}));
    EXPECT_EQ(first_example(o.report, "unknown-location"), "MpiSend on location 900 at 0.000000100 s");
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000200,0.000000300,0.000000100\n");
}

// Never completed, never cancelled: counted as sent (a freed request), so its receive matches.
TEST(TraceWarnings, IsendNeverCompleted)
{
    TraceArchive a;
    a.isend(0, 100, 1, 0, 8, 1).send(0, 200, 1, 0, 4);
    a.recv(1, 300, 0, 0, 8).recv(1, 400, 0, 0, 4);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"isend-never-completed", 1}}));
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000100,0.000000300,0.000000200\n"
                                               "0,1,0,0,4,4,0.000000200,0.000000400,0.000000200\n");
}

// Nothing is known of what it would have received; the receive behind it still counts.
TEST(TraceWarnings, IrecvNeverCompleted)
{
    TraceArchive a;
    a.send(0, 100, 1, 0, 8);
    a.irecv_request(1, 50, 3).recv(1, 300, 0, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"irecv-never-completed", 1}}));
    EXPECT_EQ(first_example(o.report, "irecv-never-completed"), "process 1, request 3 posted at 0.000000050 s");
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000100,0.000000300,0.000000200\n");
}

TEST(TraceWarnings, CompletionWithoutIsend)
{
    TraceArchive a;
    a.isend_complete(0, 100, 42);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"completion-without-isend", 1}}));
}

// Posted before tracing started: the completion stands for the receive.
TEST(TraceWarnings, IrecvWithoutRequest)
{
    TraceArchive a;
    a.send(0, 100, 1, 0, 8);
    a.irecv(1, 300, 0, 0, 8, 7);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"irecv-without-request", 1}}));
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000100,0.000000300,0.000000200\n");
}

// The first Isend under a reused id can no longer be completed: it counts as sent.
TEST(TraceWarnings, DuplicateRequest)
{
    TraceArchive a;
    a.isend(0, 100, 1, 0, 8, 1).isend(0, 200, 1, 0, 4, 1).isend_complete(0, 300, 1);
    a.recv(1, 400, 0, 0, 8).recv(1, 500, 0, 0, 4);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"duplicate-request", 1}}));
    EXPECT_EQ(first_example(o.report, "duplicate-request"), "process 0 started request 1 again at 0.000000200 s");
    EXPECT_EQ(o.csv, std::string(csv_header) + "0,1,0,0,8,8,0.000000100,0.000000400,0.000000300\n"
                                               "0,1,0,0,4,4,0.000000200,0.000000500,0.000000300\n");
}

// Without the MPI COMM_LOCATIONS group no record can be placed: one warning for the archive and one
// per record, and still a report.
TEST(TraceWarnings, NoMpiLocations)
{
    Layout l;
    l.without_mpi_locations = true;
    TraceArchive a(l);
    a.send(0, 100, 1, 0, 8);
    a.recv(1, 200, 0, 0, 8);
    Outcome o = analyse(a);
    EXPECT_EQ(o.warnings, (Counts{{"no-mpi-locations", 1}, {"unknown-location", 2}}));
    EXPECT_EQ(o.report["summary"]["processes"], 0);
    EXPECT_EQ(o.csv, csv_header);
}

// Several kinds at once, many of one kind: counts are complete, examples are the first few.
TEST(TraceWarnings, CondensedSummary)
{
    TraceArchive a;
    for (uint64_t i = 0; i < 10; ++i) {
        a.send(0, 100 + i, 1, 3, 8);
    }
    a.send(0, 200, 1, 4, 16);
    a.recv(1, 300, 0, 4, 8);
    ToolRun r = run_with_csv(a, {"--examples", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("warnings: 11 of 2 kinds\n"
                         "  missing-receive: 10 (sends never received)\n"
                         "    send 0 -> 1, comm 0, tag 3, 8 bytes at 0.000000100 s\n"
                         "    send 0 -> 1, comm 0, tag 3, 8 bytes at 0.000000101 s\n"
                         "    ... and 8 more\n"
                         "  send-larger-than-receive: 1 (sends of more bytes than their receive took)\n"
                         "    0 -> 1, comm 0, tag 4: sent 16 bytes at 0.000000200 s, received 8 bytes at "
                         "0.000000300 s\n"),
              std::string::npos)
        << r.out;
}
