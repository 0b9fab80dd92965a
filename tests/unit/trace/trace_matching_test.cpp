// tessera-trace on archives without oddities: the messages it reconstructs (CSV, exact) and that no
// warning is raised. Times are in nanosecond ticks, so the CSV's seconds are exact.
#include <gtest/gtest.h>

#include "trace_archive.h"

using namespace trace_test;
using nlohmann::json;

namespace {

// Runs the tool and checks it finished cleanly; returns the JSON report.
json clean_run(TraceArchive &a, ToolRun &r)
{
    r = run_with_csv(a);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    json report = json::parse(r.out);
    EXPECT_EQ(warning_counts(report), (std::map<std::string, uint64_t>{})) << r.out;
    return report;
}

} // namespace

TEST(TraceMatching, BlockingPairs)
{
    TraceArchive a;
    a.send(0, 1000, 1, 5, 8).recv(0, 6000, 1, 6, 16);
    a.recv(1, 3000, 0, 5, 8).send(1, 4000, 0, 6, 16);
    ToolRun r;
    json report = clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,1,0,5,8,8,0.000001000,0.000003000,0.000002000\n"
                                               "1,0,0,6,16,16,0.000004000,0.000006000,0.000002000\n");
    EXPECT_EQ(report["summary"]["messages"], 2);
    EXPECT_EQ(report["summary"]["records"]["MpiSend"], 2);
    EXPECT_EQ(report["summary"]["records"]["MpiRecv"], 2);
}

// Matching follows the order in which operations were issued, not completed (seed: an Isend blocks
// later sends until it completes; receives match in posting order).
TEST(TraceMatching, NonBlockingCompletedOutOfOrder)
{
    TraceArchive a;
    a.isend(0, 100, 1, 1, 10, 1)
        .isend(0, 200, 1, 1, 20, 2)
        .send(0, 300, 1, 1, 30)
        .isend_complete(0, 400, 2)
        .isend_complete(0, 500, 1);
    a.irecv_request(1, 150, 10)
        .irecv_request(1, 160, 11)
        .irecv(1, 600, 0, 1, 20, 11)
        .irecv(1, 700, 0, 1, 10, 10)
        .recv(1, 900, 0, 1, 30);
    ToolRun r;
    json report = clean_run(a, r);
    // Send time is the Isend's, receive time the completion's.
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,1,0,1,10,10,0.000000100,0.000000700,0.000000600\n"
                                               "0,1,0,1,20,20,0.000000200,0.000000600,0.000000400\n"
                                               "0,1,0,1,30,30,0.000000300,0.000000900,0.000000600\n");
    // Isends A, B and C and both Irecv requests were outstanding at once.
    EXPECT_EQ(report["summary"]["max_held"], 5);
}

// A wildcard receive's completion record names the source and tag it actually matched.
TEST(TraceMatching, WildcardReceiveUsesTheActualSource)
{
    Layout l;
    l.ranks = 3;
    TraceArchive a(l);
    a.send(0, 100, 2, 3, 1);
    a.send(1, 200, 2, 4, 2);
    a.irecv_request(2, 50, 7).irecv(2, 300, 1, 4, 2, 7).recv(2, 400, 0, 3, 1);
    ToolRun r;
    clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "1,2,0,4,2,2,0.000000200,0.000000300,0.000000100\n"
                                               "0,2,0,3,1,1,0.000000100,0.000000400,0.000000300\n");
}

// Cancelled requests are dropped; the operations behind them go on in order; cancelling a request
// the trace does not know is not an error (seed: "It should never be both, but can be neither").
TEST(TraceMatching, CancelledRequestsAreDropped)
{
    TraceArchive a;
    a.isend(0, 100, 1, 9, 64, 1).send(0, 200, 1, 9, 4).cancelled(0, 300, 1).cancelled(0, 310, 99);
    a.irecv_request(1, 100, 5).recv(1, 400, 0, 9, 4).cancelled(1, 500, 5);
    ToolRun r;
    json report = clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,1,0,9,4,4,0.000000200,0.000000400,0.000000200\n");
    EXPECT_EQ(report["summary"]["records"]["MpiRequestCancelled"], 3);
}

// Ranks local to communicators whose members are not the world in order, on locations that are not
// numbered like the ranks: a reversed world, a split half, self, an inter-communicator, a group with
// global members, and a thread of a process recording MPI calls.
TEST(TraceMatching, CommunicatorRanksMapToLocations)
{
    Layout l;
    l.ranks = 4;
    l.rank_locations = {13, 12, 11, 10}; // world rank 0 is location 13
    l.threads = {{500, 1}};              // a second thread of world rank 1
    l.comms = {
        {0, "MPI_COMM_WORLD", CommSpec::Kind::Group, {0, 1, 2, 3}, {}},
        {1, "reversed", CommSpec::Kind::Group, {3, 2, 1, 0}, {}},
        {2, "odd", CommSpec::Kind::Group, {1, 3}, {}},
        {3, "MPI_COMM_SELF", CommSpec::Kind::Self, {}, {}},
        {4, "inter", CommSpec::Kind::Inter, {0, 1}, {2, 3}},
        {5, "global", CommSpec::Kind::GlobalMembers, {0, 1, 2, 3}, {}},
        {6, "locations", CommSpec::Kind::Locations, {}, {}},
    };
    TraceArchive a(l);
    a.send(0, 100, 0, 1, 1, 1);         // reversed: local 0 is world 3
    a.recv(3, 200, 3, 1, 1, 1);         // reversed: local 3 is world 0
    a.send(1, 100, 1, 2, 2, 2);         // odd: local 1 is world 3
    a.recv(3, 300, 0, 2, 2, 2);         // odd: local 0 is world 1
    a.send(2, 100, 0, 3, 3, 3);         // self
    a.recv(2, 250, 0, 3, 3, 3);         //
    a.send(1, 400, 0, 4, 4, 4);         // inter: from group A, remote rank 0 is world 2
    a.recv(2, 500, 1, 4, 4, 4);         // inter: from group B, remote rank 1 is world 1
    a.send(3, 600, 2, 5, 5, 5);         // global members: ranks are world ranks
    a.recv(2, 700, 3, 5, 5, 5);         //
    a.send_on(500, 800, 0, 6, 6, 6);    // thread of world rank 1, on the COMM_LOCATIONS comm
    a.recv(0, 900, 1, 6, 6, 6);         //
    ToolRun r;
    json report = clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,3,1,1,1,1,0.000000100,0.000000200,0.000000100\n"
                                               "2,2,3,3,3,3,0.000000100,0.000000250,0.000000150\n"
                                               "1,3,2,2,2,2,0.000000100,0.000000300,0.000000200\n"
                                               "1,2,4,4,4,4,0.000000400,0.000000500,0.000000100\n"
                                               "3,2,5,5,5,5,0.000000600,0.000000700,0.000000100\n"
                                               "1,0,6,6,6,6,0.000000800,0.000000900,0.000000100\n");
    EXPECT_EQ(report["summary"]["processes"], 4);
    EXPECT_EQ(report["summary"]["locations"], 5);
}

// One FIFO per (sender, receiver, communicator, tag): receives in another order across keys still
// pair first with first within each key.
TEST(TraceMatching, SeveralTagsAndCommunicatorsKeepFifoOrder)
{
    Layout l;
    l.comms = {{0, "MPI_COMM_WORLD", CommSpec::Kind::Group, {0, 1}, {}},
               {1, "dup", CommSpec::Kind::Group, {0, 1}, {}}};
    TraceArchive a(l);
    a.send(0, 10, 1, 1, 1, 0).send(0, 20, 1, 2, 2, 0).send(0, 30, 1, 1, 3, 1).send(0, 40, 1, 1, 4, 0).send(0, 50, 1, 2, 5, 0);
    a.recv(1, 100, 0, 1, 3, 1).recv(1, 110, 0, 2, 2, 0).recv(1, 120, 0, 1, 1, 0).recv(1, 130, 0, 2, 5, 0).recv(1, 140, 0, 1, 4, 0);
    ToolRun r;
    json report = clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,1,1,1,3,3,0.000000030,0.000000100,0.000000070\n"
                                               "0,1,0,2,2,2,0.000000020,0.000000110,0.000000090\n"
                                               "0,1,0,1,1,1,0.000000010,0.000000120,0.000000110\n"
                                               "0,1,0,2,5,5,0.000000050,0.000000130,0.000000080\n"
                                               "0,1,0,1,4,4,0.000000040,0.000000140,0.000000100\n");
    EXPECT_EQ(report["matrix"]["messages"], json::parse("[[0, 5], [0, 0]]"));
    EXPECT_EQ(report["matrix"]["bytes"], json::parse("[[0, 15], [0, 0]]"));
}

// A timer in microseconds with an offset: times are seconds from the offset.
TEST(TraceMatching, ClockResolutionAndOffset)
{
    Layout l;
    l.resolution = 1000000;
    l.offset = 5000000;
    TraceArchive a(l);
    a.send(0, 5000010, 1, 0, 100);
    a.recv(1, 7500010, 0, 0, 100);
    ToolRun r;
    json report = clean_run(a, r);
    EXPECT_EQ(r.csv, std::string(csv_header) + "0,1,0,0,100,100,0.000010000,2.500010000,2.500000000\n");
    EXPECT_DOUBLE_EQ(report["pairs"][0]["bandwidth"].get<double>(), 40.0);
}
