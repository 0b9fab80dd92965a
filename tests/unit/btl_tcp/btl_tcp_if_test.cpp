// btl tcp's interface rules: the lists btl_tcp_if_include / btl_tcp_if_exclude (names and subnets,
// bad entries named in the error), which address a rank listens on for a given set of interfaces,
// and the component's parameter checks as a process meets them (an error naming the parameter; the
// component is then not used).
#include <gtest/gtest.h>

#include <arpa/inet.h>

#include <cstring>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp_hdr.h"
#include "components/btl/tcp/btl_tcp_if.h"
#include "mca/report.h"
#include "mca/var_store.h"
#include "ompi/proc/modex.h"
#include "tests/unit/btl_tcp/tcp_job.h"

namespace {

using namespace tessera::ompi::btl_tcp;

in_addr_t ip(const char *text)
{
    in_addr a{};
    inet_pton(AF_INET, text, &a);
    return a.s_addr;
}

Interface itf(const char *name, const char *addr, const char *mask, bool loopback, bool up = true)
{
    return Interface{.name = name, .addr = ip(addr), .netmask = ip(mask), .loopback = loopback, .up = up};
}

const std::vector<Interface> kLoOnly = {itf("lo", "127.0.0.1", "255.0.0.0", true)};
const std::vector<Interface> kLoEth = {itf("lo", "127.0.0.1", "255.0.0.0", true),
                                       itf("ifb0", "10.9.9.9", "255.255.255.0", false, false),
                                       itf("eth0", "192.0.2.2", "255.255.255.0", false),
                                       itf("eth1", "10.1.0.7", "255.255.0.0", false)};

IfList list(const char *param, const char *value)
{
    IfList l;
    EXPECT_EQ(parse_if_list(param, value, &l), "") << value;
    return l;
}

std::string choose(const char *host, const char *include, const char *exclude, const std::vector<Interface> &ifs,
                   std::string *error = nullptr)
{
    std::string e;
    const in_addr_t a = choose_address(host, list("btl_tcp_if_include", include), list("btl_tcp_if_exclude", exclude),
                                       ifs, &e);
    if (error != nullptr) {
        *error = e;
    }
    return a == 0 ? "" : address_text(a);
}

TEST(BtlTcpIf, ListsHoldNamesAndSubnets)
{
    const IfList l = list("btl_tcp_if_include", " eth0, 10.1.0.0/16 ,,lo");
    EXPECT_EQ(l.names, (std::vector<std::string>{"eth0", "lo"}));
    ASSERT_EQ(l.subnets.size(), 1u);
    EXPECT_TRUE(l.matches(itf("eth1", "10.1.200.3", "255.255.0.0", false)));
    EXPECT_FALSE(l.matches(itf("eth1", "10.2.0.1", "255.255.0.0", false)));
    EXPECT_TRUE(list("x", "0.0.0.0/0").matches_addr(ip("8.8.8.8")));
    EXPECT_TRUE(list("x", "").empty());
    EXPECT_TRUE(list("x", nullptr).empty());
}

TEST(BtlTcpIf, BadEntriesAreNamed)
{
    IfList l;
    EXPECT_EQ(parse_if_list("btl_tcp_if_include", "eth0,10.0.0.0/33", &l),
              "btl_tcp_if_include: value \"eth0,10.0.0.0/33\" from default has an entry \"10.0.0.0/33\" that is not a "
              "subnet a.b.c.d/n: the prefix length must be 0..32");
    EXPECT_EQ(parse_if_list("btl_tcp_if_exclude", "10.0/8", &l),
              "btl_tcp_if_exclude: value \"10.0/8\" from default has an entry \"10.0/8\" that is not a subnet "
              "a.b.c.d/n: \"10.0\" is not an IPv4 address");
    EXPECT_NE(parse_if_list("btl_tcp_if_exclude", "10.0.0.0/", &l).find("prefix length"), std::string::npos);
    EXPECT_NE(parse_if_list("btl_tcp_if_exclude", "10.0.0.0/8x", &l).find("prefix length"), std::string::npos);
    EXPECT_NE(parse_if_list("btl_tcp_if_exclude", "averyveryverylonginterfacename", &l).find("longer than"),
              std::string::npos);
}

TEST(BtlTcpIf, DefaultPrefersAnInterfaceThatIsNotLoopback)
{
    EXPECT_EQ(choose("node7", nullptr, nullptr, kLoEth), "192.0.2.2"); // ifb0 is down
    EXPECT_EQ(choose("node7", nullptr, nullptr, kLoOnly), "127.0.0.1");
}

TEST(BtlTcpIf, IncludeAndExcludeChoose)
{
    EXPECT_EQ(choose("node7", "lo", nullptr, kLoEth), "127.0.0.1");
    EXPECT_EQ(choose("node7", "10.1.0.0/16", nullptr, kLoEth), "10.1.0.7");
    EXPECT_EQ(choose("node7", nullptr, "eth0", kLoEth), "10.1.0.7");
    EXPECT_EQ(choose("node7", nullptr, "eth0,eth1", kLoEth), "127.0.0.1"); // loopback when nothing else is left
    std::string error;
    EXPECT_EQ(choose("node7", "nosuchif0", nullptr, kLoEth, &error), "");
    EXPECT_EQ(error, "no IPv4 interface is allowed by btl_tcp_if_include/btl_tcp_if_exclude");
    EXPECT_EQ(choose("node7", nullptr, "lo,127.0.0.0/8", kLoOnly, &error), "");
}

TEST(BtlTcpIf, ALoopbackHostIsItsOwnAddress)
{
    EXPECT_EQ(choose("127.0.0.3", nullptr, nullptr, kLoEth), "127.0.0.3");
    EXPECT_EQ(choose("127.0.0.3", "lo", nullptr, kLoEth), "127.0.0.3");
    EXPECT_EQ(choose("127.0.0.3", "127.0.0.0/24", nullptr, kLoEth), "127.0.0.3");
    std::string error;
    EXPECT_EQ(choose("127.0.0.3", "eth0", nullptr, kLoEth, &error), "");
    EXPECT_EQ(error, "the host 127.0.0.3 is a loopback address, which btl_tcp_if_include does not allow");
    EXPECT_EQ(choose("127.0.0.3", nullptr, "lo", kLoEth, &error), "");
    EXPECT_EQ(error, "the host 127.0.0.3 is a loopback address, which btl_tcp_if_exclude excludes");
    // Another literal is not special: the interfaces decide.
    EXPECT_EQ(choose("10.1.0.7", nullptr, "eth1", kLoEth), "192.0.2.2");
}

// What a process sees when the framework opens with these settings: the errors reported.
std::string open_errors(const std::vector<std::pair<const char *, const char *>> &settings)
{
    return tcptest::in_child([&] {
        tessera::mca::report_set_print(false);
        tessera::mca::set_command_line("btl", "self,tcp");
        for (const auto &[name, value] : settings) {
            tessera::mca::set_command_line(name, value);
        }
        tessera::mca::framework_register(&mca_btl_base_framework);
        tessera::mca::framework_open(&mca_btl_base_framework);
        std::string all;
        for (const std::string &e : tessera::mca::reported(tessera::mca::Severity::Error)) {
            all += e + "\n";
        }
        tessera::mca::framework_close(&mca_btl_base_framework);
        return all;
    });
}

TEST(BtlTcpParams, BadValuesAreErrorsNamingTheParameter)
{
    EXPECT_EQ(open_errors({{"btl_tcp_if_include", "lo"}, {"btl_tcp_if_exclude", "eth0"}}),
              "btl_tcp_if_include (\"lo\") and btl_tcp_if_exclude (\"eth0\") are both set; set one of them\n");
    EXPECT_EQ(open_errors({{"btl_tcp_if_include", "192.0.2.0/40"}}),
              "btl_tcp_if_include: value \"192.0.2.0/40\" from command line (--mca btl_tcp_if_include) has an entry "
              "\"192.0.2.0/40\" that is not a subnet a.b.c.d/n: the prefix length must be 0..32\n");
    EXPECT_EQ(open_errors({{"btl_tcp_links", "0"}}), "btl_tcp_links: value 0 from command line (--mca btl_tcp_links) is not in 1..16\n");
    EXPECT_EQ(open_errors({{"btl_tcp_links", "17"}}), "btl_tcp_links: value 17 from command line (--mca btl_tcp_links) is not in 1..16\n");
    EXPECT_EQ(open_errors({{"btl_tcp_eager_limit", "256k"}}),
              "btl_tcp_eager_limit: value 262144 from command line (--mca btl_tcp_eager_limit) is not in "
              "64..btl_tcp_max_send_size (131072)\n");
    EXPECT_EQ(open_errors({{"btl_tcp_max_send_size", "100"}}),
              "btl_tcp_max_send_size: value 100 from command line (--mca btl_tcp_max_send_size) is not in 1k..64M\n");
    EXPECT_EQ(open_errors({{"btl_tcp_handshake_timeout", "0"}}),
              "btl_tcp_handshake_timeout: value 0.000000 from command line (--mca btl_tcp_handshake_timeout) must be "
              "positive (seconds)\n");
    EXPECT_EQ(open_errors({{"btl_tcp_if_include", "lo,192.0.2.0/24"}, {"btl_tcp_links", "16"}}), "");
}

// The same rules in a running job: every rank's card carries the address the rules choose.
std::string listens_on(const std::vector<std::pair<std::string, std::string>> &params, const std::string &expected)
{
    tcptest::Options o;
    o.params = params;
    return tcptest::describe_failures(tcptest::run_job(o, [&](tcptest::Rank &r) -> std::string {
        const void *data = nullptr;
        size_t len = 0;
        if (tessera_modex_get(static_cast<uint32_t>(r.rank), "btl.tcp", &data, &len) != TESSERA_SUCCESS) {
            return "no card";
        }
        Card card{};
        std::memcpy(&card, data, std::min(len, sizeof card));
        const std::string got = address_text(card.link[0].addr);
        return got == expected ? "" : "listens on " + got + ", not " + expected;
    }));
}

TEST(BtlTcpIf, AJobListensWhereTheRulesSay)
{
    EXPECT_EQ(listens_on({{"btl_tcp_if_include", "lo"}}, "127.0.0.1"), "");
    EXPECT_EQ(listens_on({{"btl_tcp_if_include", "127.0.0.0/8"}}, "127.0.0.1"), "");
    std::string error;
    const std::vector<Interface> here = system_interfaces(&error);
    ASSERT_EQ(error, "");
    const in_addr_t chosen = choose_address("not-an-address", IfList{}, IfList{}, here, &error);
    ASSERT_NE(chosen, 0u) << error;
    EXPECT_EQ(listens_on({}, address_text(chosen)), "");
}

} // namespace
