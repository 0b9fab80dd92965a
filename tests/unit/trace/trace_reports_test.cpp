// tessera-trace's reports as a user reads them: the text summary, matrix and pairs tables, the JSON
// document (with and without the message list), the PNG heat map, and the command line's errors.
#include <gtest/gtest.h>
#include <png.h>

#include "trace_archive.h"

using namespace trace_test;
using nlohmann::json;

namespace {

// Three ranks: 0 -> 1 twice (8 and 24 bytes), 1 -> 2 once (1000 bytes), 2 -> 0 once (0 bytes).
TraceArchive &three_ranks(TraceArchive &a)
{
    a.send(0, 1000, 1, 0, 8).send(0, 2000, 1, 0, 24).recv(0, 9000, 2, 0, 0);
    a.recv(1, 3000, 0, 0, 8).recv(1, 6000, 0, 0, 24).send(1, 6500, 2, 1, 1000);
    a.recv(2, 7000, 1, 1, 1000).send(2, 8000, 0, 0, 0);
    return a;
}

Layout ranks(uint32_t n)
{
    Layout l;
    l.ranks = n;
    return l;
}

} // namespace

TEST(TraceReports, TextSummaryMatrixAndPairs)
{
    TraceArchive a(ranks(3));
    three_ranks(a);
    std::string anchor = a.anchor();
    ToolRun r = run_tool({"--matrix", "--pairs", anchor});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "archive " + anchor +
                         "\n"
                         "processes 3, locations 3, communicators 1, timer 1000000000 ticks/s\n"
                         "events 8: MpiSend 4, MpiIsend 0, MpiIsendComplete 0, MpiIrecvRequest 0, MpiIrecv 0, "
                         "MpiRecv 4, MpiRequestCancelled 0, other 0\n"
                         "messages 4, 1032 bytes sent, first sent at 0.000001000 s, last received at 0.000009000 s\n"
                         "held at most 0 operations for ordering and 2 unmatched sides\n"
                         "warnings: none\n"
                         "\n"
                         "messages (row: sender, column: receiver)\n"
                         "   0 1 2\n"
                         "0: 0 2 0\n"
                         "1: 0 0 1\n"
                         "2: 1 0 0\n"
                         "\n"
                         "bytes (row: sender, column: receiver)\n"
                         "         0    1    2\n"
                         "   0:    0   32    0\n"
                         "   1:    0    0 1000\n"
                         "   2:    0    0    0\n"
                         "\n"
                         "sender receiver   messages     bytes_sent    bytes_recvd  latency_min_s latency_mean_s  "
                         "latency_max_s bandwidth_MB/s\n"
                         "     0        1          2             32             32    0.000002000    0.000003000    "
                         "0.000004000          5.333\n"
                         "     1        2          1           1000           1000    0.000000500    0.000000500    "
                         "0.000000500       2000.000\n"
                         "     2        0          1              0              0    0.000001000    0.000001000    "
                         "0.000001000          0.000\n");
}

TEST(TraceReports, JsonDocument)
{
    TraceArchive a(ranks(3));
    three_ranks(a);
    ToolRun r = run_tool({"--json", a.anchor()});
    ASSERT_EQ(r.status, 0) << r.err;
    json doc = json::parse(r.out);
    EXPECT_FALSE(doc.contains("messages"));
    EXPECT_EQ(doc["summary"]["messages"], 4);
    EXPECT_EQ(doc["summary"]["bytes_sent"], 1032);
    EXPECT_EQ(doc["summary"]["events"], 8);
    EXPECT_DOUBLE_EQ(doc["summary"]["first_send"].get<double>(), 1e-6);
    EXPECT_DOUBLE_EQ(doc["summary"]["last_receive"].get<double>(), 9e-6);
    EXPECT_EQ(doc["communicators"], json::parse(R"([{"id": 0, "name": "MPI_COMM_WORLD", "inter": false}])"));
    EXPECT_EQ(doc["warnings"]["total"], 0);
    EXPECT_EQ(doc["matrix"]["processes"], 3);
    EXPECT_EQ(doc["matrix"]["messages"], json::parse("[[0,2,0],[0,0,1],[1,0,0]]"));
    EXPECT_EQ(doc["matrix"]["bytes"], json::parse("[[0,32,0],[0,0,1000],[0,0,0]]"));
    ASSERT_EQ(doc["pairs"].size(), 3u);
    const json &p = doc["pairs"][0];
    EXPECT_EQ(p["sender"], 0);
    EXPECT_EQ(p["receiver"], 1);
    EXPECT_EQ(p["messages"], 2);
    EXPECT_EQ(p["bytes_sent"], 32);
    EXPECT_DOUBLE_EQ(p["latency_min"].get<double>(), 2e-6);
    EXPECT_DOUBLE_EQ(p["latency_mean"].get<double>(), 3e-6);
    EXPECT_DOUBLE_EQ(p["latency_max"].get<double>(), 4e-6);
    EXPECT_DOUBLE_EQ(p["bandwidth"].get<double>(), 32 / 6e-6);
}

TEST(TraceReports, JsonWithMessages)
{
    TraceArchive a;
    a.send(0, 1000, 1, 5, 8);
    a.recv(1, 3000, 0, 5, 8);
    ToolRun r = run_tool({"--json", "--messages", a.anchor()});
    ASSERT_EQ(r.status, 0) << r.err;
    json doc = json::parse(r.out);
    EXPECT_EQ(doc["messages"], json::parse(R"([{"sender": 0, "receiver": 1, "comm": 0, "tag": 5, "bytes_sent": 8,
        "bytes_received": 8, "send_time": 0.000001, "recv_time": 0.000003, "latency": 0.000002}])"));
    EXPECT_EQ(doc["summary"]["messages"], 1);
}

TEST(TraceReports, JsonWithoutAnyMessage)
{
    TraceArchive a;
    ToolRun r = run_tool({"--json", "--messages", a.anchor()});
    ASSERT_EQ(r.status, 0) << r.err;
    json doc = json::parse(r.out);
    EXPECT_EQ(doc["messages"], json::array());
    EXPECT_EQ(doc["summary"]["events"], 0);
}

TEST(TraceReports, CsvOnStandardOutput)
{
    TraceArchive a;
    a.send(0, 1000, 1, 5, 8);
    a.recv(1, 3000, 0, 5, 8);
    ToolRun r = run_tool({"--csv", "-", a.anchor()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind(std::string(csv_header) + "0,1,0,5,8,8,0.000001000,0.000003000,0.000002000\narchive ", 0), 0u)
        << r.out;
}

TEST(TraceReports, PngHeatMap)
{
    TraceArchive a(ranks(3));
    three_ranks(a);
    std::string png = a.dir() + "/matrix.png";
    ToolRun r = run_tool({"--png", png, "--png-metric", "messages", a.anchor()});
    ASSERT_EQ(r.status, 0) << r.err;

    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    ASSERT_TRUE(png_image_begin_read_from_file(&image, png.c_str())) << image.message;
    image.format = PNG_FORMAT_RGB;
    std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
    ASSERT_TRUE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) << image.message;
    // 3 processes: cells of 32 pixels.
    ASSERT_EQ(image.width, 96u);
    ASSERT_EQ(image.height, 96u);
    auto cell = [&](unsigned row, unsigned col) {
        size_t at = ((row * 32 + 16) * image.width + col * 32 + 16) * 3;
        return std::vector<int>{pixels[at], pixels[at + 1], pixels[at + 2]};
    };
    EXPECT_EQ(cell(0, 0), (std::vector<int>{235, 235, 235})); // no traffic
    EXPECT_EQ(cell(0, 1), (std::vector<int>{37, 52, 148}));   // the most messages: the scale's end
    EXPECT_NE(cell(1, 2), cell(0, 0));                         // one message: coloured
    EXPECT_NE(cell(1, 2), cell(0, 1));
    EXPECT_EQ(cell(1, 2), cell(2, 0));
}

TEST(TraceReports, CommandLineErrors)
{
    ToolRun r = run_tool({"--matirx", "x.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera-trace: unknown option '--matirx'; did you mean --matrix? (see --help)\n");

    r = run_tool({});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no archive given"), std::string::npos) << r.err;

    r = run_tool({"--csv"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera-trace: --csv needs a file name\n");

    r = run_tool({"--png-metric", "colours", "x.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera-trace: --png-metric takes bytes or messages, not 'colours'\n");

    r = run_tool({"--examples", "many", "x.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera-trace: --examples takes a number, not 'many'\n");

    r = run_tool({"--messages", "x.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("use it with --json"), std::string::npos) << r.err;

    r = run_tool({"--json", "--csv", "-", "x.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("both write to standard output"), std::string::npos) << r.err;

    r = run_tool({"a.otf2", "b.otf2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera-trace: one archive at a time: 'a.otf2' and 'b.otf2'\n");

    r = run_tool({"--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("Usage: tessera-trace", 0), 0u);
}

TEST(TraceReports, UnreadableArchive)
{
    TempDir dir;
    ToolRun r = run_tool({dir.path() + "/none/traces.otf2"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("tessera-trace: cannot open OTF2 archive '" + dir.path() + "/none/traces.otf2'", 0), 0u)
        << r.err;
    EXPECT_EQ(r.out, "");

    TraceArchive a;
    ToolRun w = run_tool({"--csv", dir.path() + "/no/such/dir/m.csv", a.anchor()});
    EXPECT_EQ(w.status, 1);
    EXPECT_NE(w.err.find("cannot write '" + dir.path() + "/no/such/dir/m.csv'"), std::string::npos) << w.err;
}
