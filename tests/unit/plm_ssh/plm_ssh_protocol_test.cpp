// The launch agent protocol (plm base) and plm ssh's command building: what travels on the agent's
// stdin decodes to exactly what was encoded however it is cut into reads, a damaged or hostile stream
// is refused with a message instead of being half-applied, and the ssh command line holds no secret.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <climits>
#include <string>
#include <vector>

#include "components/plm/ssh/plm_ssh_agent_command.h"
#include "frameworks/plm/base/plm_base_agent_protocol.h"
#include "frameworks/plm/base/plm_base_exec.h"
#include "mca/constants.h"

namespace {

namespace agent = tessera::orte::plm::agent;
using agent::Decoder;
using tessera::orte::plm_ssh::host_is_usable;
using tessera::orte::plm_ssh::remote_command;
using tessera::orte::plm_ssh::shell_quote;
using tessera::orte::plm_ssh::split_command;

agent::LaunchSpec sample_spec()
{
    agent::LaunchSpec s;
    s.argv = {"/bin/prog", "two words", "", "line\nbreak", std::string("bin\x01\xff", 5)};
    s.env = {"TESSERA_JOB_KEY=0123abcd", "EMPTY=", "EQ=a=b=c", "NL=x\ny"};
    s.working_dir = "/some dir/with space";
    s.working_dir_required = false;
    s.kill_grace = 2.5;
    return s;
}

void expect_same(const agent::LaunchSpec &a, const agent::LaunchSpec &b)
{
    EXPECT_EQ(a.argv, b.argv);
    EXPECT_EQ(a.env, b.env);
    EXPECT_EQ(a.working_dir, b.working_dir);
    EXPECT_EQ(a.working_dir_required, b.working_dir_required);
    EXPECT_DOUBLE_EQ(a.kill_grace, b.kill_grace);
}

std::string rec(const std::string &name, const std::string &payload)
{
    return name + " " + std::to_string(payload.size()) + "\n" + payload + "\n";
}

// Decodes `bytes` fed in one piece; returns the first event that is not kNeedMore.
Decoder::Event decode_all(Decoder *d, const std::string &bytes)
{
    d->feed(bytes.data(), bytes.size());
    return d->next();
}

std::string spec_prefix() { return std::string(agent::kMagic) + rec("arg", "/bin/true"); }

TEST(AgentProtocol, SpecRoundTripsInOnePiece)
{
    agent::LaunchSpec s = sample_spec();
    Decoder d;
    ASSERT_EQ(decode_all(&d, agent::encode_spec(s)), Decoder::Event::kSpec) << d.error();
    expect_same(d.spec(), s);
    EXPECT_EQ(d.next(), Decoder::Event::kNeedMore);
}

TEST(AgentProtocol, SpecRoundTripsByteByByteFollowedBySignals)
{
    agent::LaunchSpec s = sample_spec();
    s.working_dir_required = true;
    std::string bytes = agent::encode_spec(s) + agent::encode_signal(SIGUSR1) + agent::encode_signal(SIGTERM);
    Decoder d;
    std::vector<Decoder::Event> events;
    std::vector<int> signals;
    for (char c : bytes) {
        d.feed(&c, 1);
        for (Decoder::Event e = d.next(); e != Decoder::Event::kNeedMore; e = d.next()) {
            ASSERT_NE(e, Decoder::Event::kError) << d.error();
            events.push_back(e);
            if (e == Decoder::Event::kSignal) {
                signals.push_back(d.signal());
            }
        }
    }
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0], Decoder::Event::kSpec);
    expect_same(d.spec(), s);
    EXPECT_EQ(signals, (std::vector<int>{SIGUSR1, SIGTERM}));
}

TEST(AgentProtocol, InputRecordsFollowAStdinSpecAmongSignals)
{
    agent::LaunchSpec s = sample_spec();
    s.forward_stdin = true;
    const std::string data("a\nb\0c\n", 6);
    std::string bytes = agent::encode_spec(s) + agent::encode_input(data) + agent::encode_signal(SIGUSR1) +
                        agent::encode_input("") + agent::encode_input_end();
    Decoder d;
    std::string got;
    std::vector<Decoder::Event> events;
    for (char c : bytes) {
        d.feed(&c, 1);
        for (Decoder::Event e = d.next(); e != Decoder::Event::kNeedMore; e = d.next()) {
            ASSERT_NE(e, Decoder::Event::kError) << d.error();
            events.push_back(e);
            if (e == Decoder::Event::kInput) {
                got.append(d.input());
            }
        }
    }
    EXPECT_TRUE(d.spec().forward_stdin);
    EXPECT_EQ(got, data);
    EXPECT_EQ(events, (std::vector<Decoder::Event>{Decoder::Event::kSpec, Decoder::Event::kInput,
                                                   Decoder::Event::kSignal, Decoder::Event::kInput,
                                                   Decoder::Event::kInputEnd}));
}

TEST(AgentProtocol, InputWithoutStdinOrAfterItsEndIsAnError)
{
    Decoder plain;
    ASSERT_EQ(decode_all(&plain, agent::encode_spec(sample_spec())), Decoder::Event::kSpec);
    std::string r = agent::encode_input("x");
    plain.feed(r.data(), r.size());
    EXPECT_EQ(plain.next(), Decoder::Event::kError);
    EXPECT_NE(plain.error().find("without a stdin record"), std::string::npos) << plain.error();

    agent::LaunchSpec s = sample_spec();
    s.forward_stdin = true;
    Decoder ended;
    ASSERT_EQ(decode_all(&ended, agent::encode_spec(s)), Decoder::Event::kSpec);
    r = agent::encode_input_end() + agent::encode_input("x");
    ended.feed(r.data(), r.size());
    EXPECT_EQ(ended.next(), Decoder::Event::kInputEnd);
    EXPECT_EQ(ended.next(), Decoder::Event::kError);
    EXPECT_NE(ended.error().find("after input-end"), std::string::npos) << ended.error();
}

TEST(AgentProtocol, ManySignalRecordsKeepTheBufferSmall)
{
    Decoder d;
    ASSERT_EQ(decode_all(&d, agent::encode_spec(sample_spec())), Decoder::Event::kSpec);
    for (int i = 0; i < 20000; ++i) {
        std::string r = agent::encode_signal(SIGCONT);
        d.feed(r.data(), r.size());
        ASSERT_EQ(d.next(), Decoder::Event::kSignal);
        ASSERT_EQ(d.next(), Decoder::Event::kNeedMore);
    }
}

TEST(AgentProtocol, WithoutWorkingDirectoryNoneIsSent)
{
    agent::LaunchSpec s;
    s.argv = {"prog"};
    Decoder d;
    ASSERT_EQ(decode_all(&d, agent::encode_spec(s)), Decoder::Event::kSpec);
    EXPECT_TRUE(d.spec().working_dir.empty());
    EXPECT_TRUE(d.spec().env.empty());
}

struct BadStream {
    const char *what;
    std::string bytes;
    const char *message_part;
};

TEST(AgentProtocol, DamagedStreamsAreRefusedWithAReason)
{
    const std::string magic(agent::kMagic);
    const std::vector<BadStream> cases = {
        {"other protocol", "SSH-2.0-OpenSSH\n", "not a Tessera launch spec"},
        {"newer version", "TESSERA-LAUNCH 2\n", "not a Tessera launch spec"},
        {"no length", magic + "arg\n", "malformed record header"},
        {"negative length", magic + "arg -1\nx\n", "malformed record header"},
        {"length with junk", magic + "arg 1x\nx\n", "malformed record header"},
        {"upper-case name", magic + "ARG 1\nx\n", "malformed record name"},
        {"endless header", magic + std::string(40, 'a'), "header too long"},
        {"huge record", magic + "arg 999999999\n", "exceeds the limit"},
        {"unterminated payload", magic + "arg 1\nxy", "not terminated by a newline"},
        {"unknown record", spec_prefix() + rec("exec", "x"), "unknown record 'exec'"},
        {"env without =", spec_prefix() + rec("env", "NOEQUALS"), "is not NAME=value"},
        {"env with empty name", spec_prefix() + rec("env", "=x"), "is not NAME=value"},
        {"NUL in argument", spec_prefix() + rec("arg", std::string("a\0b", 3)), "NUL"},
        {"two directories", spec_prefix() + rec("cwd", "/a") + rec("cwd-if-exists", "/b"), "given twice"},
        {"negative grace", spec_prefix() + rec("grace", "-1"), "grace"},
        {"grace not a number", spec_prefix() + rec("grace", "soon"), "grace"},
        {"start with payload", spec_prefix() + rec("start", "x"), "start record with a payload"},
        {"no program", magic + rec("env", "A=b") + rec("start", ""), "without a program"},
        {"empty program", magic + rec("arg", "") + rec("start", ""), "without a program"},
        {"signal zero", spec_prefix() + rec("start", "") + rec("signal", "0"), "bad signal number"},
        {"signal too large", spec_prefix() + rec("start", "") + rec("signal", "4096"), "bad signal number"},
        {"spec record after start", spec_prefix() + rec("start", "") + rec("arg", "x"), "after start"},
    };
    for (const BadStream &c : cases) {
        Decoder d;
        d.feed(c.bytes.data(), c.bytes.size());
        Decoder::Event e;
        do {
            e = d.next();
        } while (e == Decoder::Event::kSpec || e == Decoder::Event::kSignal);
        EXPECT_EQ(e, Decoder::Event::kError) << c.what;
        EXPECT_NE(d.error().find(c.message_part), std::string::npos) << c.what << ": " << d.error();
        // Errors are final: more input does not revive the stream.
        std::string more = agent::encode_signal(SIGTERM);
        d.feed(more.data(), more.size());
        EXPECT_EQ(d.next(), Decoder::Event::kError) << c.what;
    }
}

TEST(AgentProtocol, TooManyEntriesAreRefused)
{
    std::string bytes = spec_prefix();
    for (size_t i = 0; i <= agent::kMaxEntries; ++i) {
        bytes += rec("env", "A=1");
    }
    Decoder d;
    EXPECT_EQ(decode_all(&d, bytes), Decoder::Event::kError);
    EXPECT_NE(d.error().find("entries"), std::string::npos) << d.error();
}

TEST(AgentProtocol, OversizedSpecIsRefusedBeforeItIsBuffered)
{
    Decoder d;
    std::string head = spec_prefix();
    d.feed(head.data(), head.size());
    ASSERT_EQ(d.next(), Decoder::Event::kNeedMore);
    const std::string big = rec("env", "A=" + std::string(agent::kMaxRecordBytes - 2, 'x'));
    Decoder::Event e = Decoder::Event::kNeedMore;
    for (size_t fed = 0; fed <= agent::kMaxSpecBytes / big.size() + 1 && e == Decoder::Event::kNeedMore; ++fed) {
        d.feed(big.data(), big.size());
        e = d.next();
    }
    EXPECT_EQ(e, Decoder::Event::kError);
    EXPECT_NE(d.error().find("launch spec exceeds"), std::string::npos) << d.error();
}

TEST(AgentProtocol, StatusLines)
{
    std::string started = agent::encode_started(4242);
    ASSERT_EQ(started.back(), '\n');
    auto s = agent::parse_status_line(std::string_view(started).substr(0, started.size() - 1));
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->started);
    EXPECT_EQ(s->pid, 4242);

    std::string failed = agent::encode_failed(TESSERA_ERR_NOT_FOUND, "cannot start 'x':\nnot found");
    ASSERT_EQ(failed.find('\n'), failed.size() - 1) << "the message must stay on one line";
    auto f = agent::parse_status_line(std::string_view(failed).substr(0, failed.size() - 1));
    ASSERT_TRUE(f.has_value());
    EXPECT_FALSE(f->started);
    EXPECT_EQ(f->code, TESSERA_ERR_NOT_FOUND);
    EXPECT_EQ(f->message, "cannot start 'x': not found");

    for (const char *noise : {"", "Welcome to host", "TESSERA-LAUNCH-AGENT", "TESSERA-LAUNCH-AGENT started",
                              "TESSERA-LAUNCH-AGENT started -3", "TESSERA-LAUNCH-AGENT started 12x",
                              "TESSERA-LAUNCH-AGENT failed 3 positive code", "TESSERA-LAUNCH-AGENT failed -4",
                              "TESSERA-LAUNCH-AGENT exploded"}) {
        EXPECT_FALSE(agent::parse_status_line(noise).has_value()) << noise;
    }
}

TEST(AgentCommand, SplitsLikeAShell)
{
    std::string error;
    auto words = split_command("ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new", &error);
    ASSERT_TRUE(words.has_value()) << error;
    EXPECT_EQ(*words, (std::vector<std::string>{"ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new"}));

    words = split_command("  ssh\t-o 'ProxyCommand=ssh -W %h:%p gw'  -i \"/keys/my key\" a\\ b \"q\\\"x\\n\" '' ", &error);
    ASSERT_TRUE(words.has_value()) << error;
    EXPECT_EQ(*words, (std::vector<std::string>{"ssh", "-o", "ProxyCommand=ssh -W %h:%p gw", "-i", "/keys/my key",
                                                "a b", "q\"x\\n", ""}));

    words = split_command("pre'fix 'and\"more \"words", &error);
    ASSERT_TRUE(words.has_value()) << error;
    EXPECT_EQ(*words, (std::vector<std::string>{"prefix andmore words"}));

    words = split_command("   ", &error);
    ASSERT_TRUE(words.has_value());
    EXPECT_TRUE(words->empty());

    for (const char *bad : {"ssh 'open", "ssh \"open", "ssh trailing\\"}) {
        error.clear();
        EXPECT_FALSE(split_command(bad, &error).has_value()) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

TEST(AgentCommand, RemotePathIsQuotedForTheRemoteShell)
{
    EXPECT_EQ(shell_quote("/opt/tessera/bin/tessera_launch_agent"), "/opt/tessera/bin/tessera_launch_agent");
    EXPECT_EQ(shell_quote("/opt/my dir/agent"), "'/opt/my dir/agent'");
    EXPECT_EQ(shell_quote("/it's/$HOME;rm"), "'/it'\\''s/$HOME;rm'");
    EXPECT_EQ(shell_quote(""), "''");

    auto argv = remote_command({"ssh", "-p", "22"}, "n1", "/a b/agent");
    EXPECT_EQ(argv, (std::vector<std::string>{"ssh", "-p", "22", "n1", "'/a b/agent'"}));
}

TEST(AgentCommand, HostsThatWouldBeOptionsAreRefused)
{
    EXPECT_TRUE(host_is_usable("127.0.0.2"));
    EXPECT_TRUE(host_is_usable("user@node-1.example.org"));
    EXPECT_FALSE(host_is_usable(""));
    EXPECT_FALSE(host_is_usable("-oProxyCommand=evil"));
    EXPECT_FALSE(host_is_usable("two words"));
    EXPECT_FALSE(host_is_usable("line\nbreak"));
}

TEST(HostIsLocal, ThisHostAndItsLoopbackNamesOnly)
{
    using tessera::orte::plm::host_is_local;
    EXPECT_TRUE(host_is_local(nullptr));
    EXPECT_TRUE(host_is_local(""));
    EXPECT_TRUE(host_is_local("localhost"));
    EXPECT_TRUE(host_is_local("127.0.0.1"));
    EXPECT_TRUE(host_is_local("::1"));
    char name[HOST_NAME_MAX + 1] = {};
    ASSERT_EQ(gethostname(name, sizeof name - 1), 0);
    EXPECT_TRUE(host_is_local(name));
    // Other loopback addresses stand for other hosts in the tests.
    EXPECT_FALSE(host_is_local("127.0.0.2"));
    EXPECT_FALSE(host_is_local("tessera-elsewhere.example"));
}

} // namespace
