// tessera-trace over a synthetic archive of moderate size (synthetic_traffic.h): every message found,
// no warning, and the figures printed. Speed is reported, not asserted (the machine is shared).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "synthetic_traffic.h"
#include "trace_archive.h"

using namespace trace_test;
using nlohmann::json;

TEST(TraceThroughput, TwoHundredThousandEvents)
{
    TempDir dir;
    tessera::trace::synth::TrafficSpec spec;
    spec.ranks = 8;
    spec.events = 200000;
    tessera::trace::synth::TrafficResult expected;
    std::string error;
    ASSERT_TRUE(write_synthetic_traffic(dir.path() + "/archive", spec, expected, error)) << error;
    ASSERT_GE(expected.events, spec.events);

    std::string csv = dir.path() + "/messages.csv";
    auto start = std::chrono::steady_clock::now();
    ToolRun r = run_tool({"--json", "--csv", csv, dir.path() + "/archive/traces.otf2"});
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.status, 0) << r.err;
    json doc = json::parse(r.out);
    EXPECT_EQ(doc["summary"]["events"], expected.events);
    EXPECT_EQ(doc["summary"]["messages"], expected.messages);
    EXPECT_EQ(doc["summary"]["bytes_sent"], expected.bytes);
    EXPECT_EQ(doc["warnings"]["total"], 0) << doc["warnings"].dump(2);
    // The ring: each rank sends only to the next.
    for (uint32_t s = 0; s < spec.ranks; ++s) {
        for (uint32_t t = 0; t < spec.ranks; ++t) {
            EXPECT_EQ(doc["matrix"]["messages"][s][t] != 0, t == (s + 1) % spec.ranks) << s << " -> " << t;
        }
    }
    std::ifstream in(csv);
    uint64_t lines = 0;
    for (std::string line; std::getline(in, line);) {
        ++lines;
    }
    EXPECT_EQ(lines, expected.messages + 1);
    std::printf("tessera-trace: %llu events, %llu messages in %.3f s (%.2f M events/s)\n",
                static_cast<unsigned long long>(expected.events), static_cast<unsigned long long>(expected.messages),
                seconds, static_cast<double>(expected.events) / seconds / 1e6);
}
