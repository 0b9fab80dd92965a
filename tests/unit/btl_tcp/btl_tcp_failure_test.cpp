// btl tcp when things go wrong: strangers that connect to a rank's listener are refused without an
// answer while the job goes on; a peer killed mid-stream, or gone before the first send, is reported
// once per module through the error callback, later sends answer TESSERA_ERR_UNREACH, every send
// that kept the caller's memory still gets its done, and nobody hangs or dies of SIGPIPE.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp_hdr.h"
#include "mca/report.h"
#include "ompi/proc/modex.h"
#include "tests/unit/btl_tcp/tcp_job.h"

namespace {

namespace wire = tessera::ompi::btl_tcp;
using tcptest::Options;
using tcptest::Rank;
using Clock = std::chrono::steady_clock;

void progress_for(double seconds)
{
    const auto until = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < until) {
        if (mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
}

// Connects to link 0 of `rank`, sends `bytes`, and waits for the other side to close. Returns "" when
// it closed without sending anything back.
std::string stranger(int rank, const std::vector<char> &bytes, double wait = 5)
{
    const void *data = nullptr;
    size_t len = 0;
    if (tessera_modex_get(static_cast<uint32_t>(rank), "btl.tcp", &data, &len) != TESSERA_SUCCESS) {
        return "no card";
    }
    wire::Card card{};
    std::memcpy(&card, data, std::min(len, sizeof card));
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = card.link[0].addr;
    to.sin_port = card.link[0].port;
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to) != 0) {
        close(fd);
        return std::string("cannot connect: ") + std::strerror(errno);
    }
    if (!bytes.empty() && send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(bytes.size())) {
        close(fd);
        return "cannot send";
    }
    pollfd p{fd, POLLIN, 0};
    std::string result = "the connection stayed open";
    if (poll(&p, 1, static_cast<int>(wait * 1000)) == 1) {
        char reply[64];
        const ssize_t n = recv(fd, reply, sizeof reply, 0);
        result = n > 0 ? "the stranger got an answer of " + std::to_string(n) + " bytes" : "";
    }
    close(fd);
    return result;
}

std::vector<char> hello(const char *key, uint32_t jobid, uint32_t rank)
{
    wire::Hello h{};
    h.magic = htonl(wire::kHelloMagic);
    h.version = htons(wire::kProtocolVersion);
    h.link = 0;
    h.jobid = htonl(jobid);
    h.rank = htonl(rank);
    h.max_frame = htonl(65536);
    std::memcpy(h.key, key, std::min(std::strlen(key), sizeof h.key));
    const auto *p = reinterpret_cast<const char *>(&h);
    return std::vector<char>(p, p + sizeof h);
}

struct Counter {
    long fragments = 0;
};

void count_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *, void *cbdata)
{
    ++static_cast<Counter *>(cbdata)->fragments;
}

// Both ranks send `n` fragments to each other and wait for the other's.
std::string ping(Rank &r, int n)
{
    Counter c;
    mca_btl_base_register_recv(tcptest::kTag, count_fragment, &c);
    mca_btl_base_peer_t *peer = r.peer(1 - r.rank);
    const char text[] = "still here";
    const mca_btl_base_segment_t seg{text, sizeof text};
    for (int i = 0; i < n; ++i) {
        const int rc = tcptest::send_retry(peer->modules[0].btl, peer->modules[0].endpoint, &seg, 1);
        if (rc != MCA_BTL_SEND_COMPLETE) {
            return "send failed: " + std::to_string(rc);
        }
    }
    const auto until = Clock::now() + std::chrono::seconds(10);
    while (c.fragments < n && Clock::now() < until) {
        if (mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
    mca_btl_base_register_recv(tcptest::kTag, nullptr, nullptr);
    return c.fragments == n ? "" : "received " + std::to_string(c.fragments) + " of " + std::to_string(n);
}

TEST(BtlTcpFailure, StrangersAreRefusedWithoutAnswerAndTheJobGoesOn)
{
    Options o;
    o.params = {{"btl_tcp_handshake_timeout", "0.5"}};
    const auto outcomes = tcptest::run_job(o, [](Rank &r) -> std::string {
        tessera::mca::report_clear();
        if (r.rank == 0) {
            // Each refusal happens while rank 1 waits in the barrier (which progresses).
            std::string key(tcptest::kJobKey);
            key[10] = key[10] == 'a' ? 'b' : 'a';
            const std::vector<std::pair<const char *, std::vector<char>>> cases = {
                {"wrong key", hello(key.c_str(), tcptest::kJobId, 0)},
                {"garbage", std::vector<char>(sizeof(wire::Hello), 'G')},
                {"another job", hello(tcptest::kJobKey, tcptest::kJobId + 1, 0)},
                {"silence", {}},
                {"posing as the acceptor", hello(tcptest::kJobKey, tcptest::kJobId, 1)},
            };
            for (const auto &[what, bytes] : cases) {
                if (std::string e = stranger(1, bytes); !e.empty()) {
                    r.barrier();
                    return std::string(what) + ": " + e;
                }
            }
        }
        if (!r.barrier(30)) {
            return "the barrier timed out";
        }
        if (std::string e = ping(r, 20); !e.empty()) {
            return "after the strangers: " + e;
        }
        if (r.rank == 1) {
            // The 1st, 2nd and 4th refusals are printed (then the 8th, 16th...), never the key.
            const std::vector<std::string> said = tessera::mca::reported(tessera::mca::Severity::Warning);
            const char *expected[] = {"does not know the job key (1 refused so far)",
                                      "does not speak the Tessera tcp protocol (2 refused so far)",
                                      "no complete hello within btl_tcp_handshake_timeout (4 refused so far)"};
            if (said.size() != 3) {
                std::string all;
                for (const std::string &s : said) {
                    all += s + "\n";
                }
                return std::to_string(said.size()) + " warnings, not 3:\n" + all;
            }
            for (size_t i = 0; i < 3; ++i) {
                if (said[i].find(expected[i]) == std::string::npos || said[i].find("btl tcp: refused") == std::string::npos) {
                    return "warning " + std::to_string(i) + ": " + said[i];
                }
                if (said[i].find(std::string(tcptest::kJobKey).substr(0, 12)) != std::string::npos) {
                    return "a warning shows the job key";
                }
            }
        }
        return "";
    });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

struct Failures {
    std::vector<mca_btl_base_module_t *> modules;
    std::vector<uint32_t> ranks;
    std::vector<int> statuses;
    std::string why;
};

void on_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int status, const char *why, void *cbdata)
{
    auto *f = static_cast<Failures *>(cbdata);
    f->modules.push_back(btl);
    f->ranks.push_back(proc != nullptr ? proc->proc_name.rank : 999);
    f->statuses.push_back(status);
    f->why = why;
}

struct Dones {
    long calls = 0;
    long unreach = 0;
};

void on_done(mca_btl_base_module_t *, mca_btl_base_endpoint_t *, void *data, int status)
{
    auto *d = static_cast<Dones *>(data);
    ++d->calls;
    d->unreach += status == TESSERA_ERR_UNREACH;
}

// After the peer is gone: one report per module, for that peer; sends then answer UNREACH; every
// send that kept our memory got its done.
std::string check_reported(Rank &r, Failures &f, const Dones &d, long taken)
{
    mca_btl_base_peer_t *peer = r.peer(1);
    const auto until = Clock::now() + std::chrono::seconds(20);
    while (f.modules.size() < peer->count && Clock::now() < until) {
        if (mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
    progress_for(0.2); // nothing more may be reported
    if (f.modules.size() != peer->count) {
        return std::to_string(f.modules.size()) + " reports for " + std::to_string(peer->count) + " modules";
    }
    for (size_t i = 0; i < f.modules.size(); ++i) {
        if (f.ranks[i] != 1 || f.statuses[i] != TESSERA_ERR_UNREACH) {
            return "a report for rank " + std::to_string(f.ranks[i]) + " with status " + std::to_string(f.statuses[i]);
        }
        for (size_t k = 0; k < i; ++k) {
            if (f.modules[k] == f.modules[i]) {
                return "a module reported the peer twice";
            }
        }
    }
    char byte = 0;
    const mca_btl_base_segment_t seg{&byte, 1};
    for (size_t i = 0; i < peer->count; ++i) {
        mca_btl_base_module_t *m = peer->modules[i].btl;
        const int rc = m->btl_send(m, peer->modules[i].endpoint, tcptest::kTag, &seg, 1, nullptr, nullptr);
        if (rc != TESSERA_ERR_UNREACH) {
            return "a send after the report answered " + std::to_string(rc);
        }
    }
    if (d.calls != taken) {
        return std::to_string(d.calls) + " done calls for " + std::to_string(taken) + " sends that kept our memory";
    }
    return "";
}

TEST(BtlTcpFailure, PeerKilledMidStreamIsReportedOncePerModule)
{
    Options o;
    o.params = {{"btl_tcp_links", "2"}};
    const auto outcomes = tcptest::run_job(o, [](Rank &r) -> std::string {
        signal(SIGPIPE, SIG_DFL); // a write to the dead peer must not kill us
        Counter c;
        Failures f;
        Dones d;
        mca_btl_base_register_recv(tcptest::kTag, count_fragment, &c);
        mca_btl_base_register_error(on_error, &f);
        mca_btl_base_peer_t *peer = r.peer(1 - r.rank);
        std::vector<char> payload(60000, 'x');
        const mca_btl_base_segment_t seg{payload.data(), payload.size()};
        long taken = 0;
        // Both stream; rank 1 dies with fragments in flight both ways.
        const auto until = Clock::now() + std::chrono::seconds(20);
        for (long i = 0; f.modules.empty() && Clock::now() < until; ++i) {
            mca_btl_base_module_t *m = peer->modules[i % peer->count].btl;
            const int rc = m->btl_send(m, peer->modules[i % peer->count].endpoint, tcptest::kTag, &seg, 1,
                                       r.rank == 0 ? on_done : nullptr, &d);
            taken += rc == TESSERA_SUCCESS;
            mca_btl_base_progress();
            if (r.rank == 1 && c.fragments >= 50) {
                raise(SIGKILL);
            }
        }
        r.final_barrier = false;
        return check_reported(r, f, d, taken);
    });
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_TRUE(outcomes[0].exited && outcomes[0].code == 0) << tcptest::describe_failures(outcomes);
    EXPECT_EQ(outcomes[1].signal, SIGKILL) << tcptest::describe_failures(outcomes);
}

TEST(BtlTcpFailure, PeerGoneBeforeTheFirstSendIsReported)
{
    const auto outcomes = tcptest::run_job(Options{}, [](Rank &r) -> std::string {
        r.final_barrier = false;
        if (r.rank == 1) {
            r.barrier();
            return ""; // leaves without a word: its listener and the framework close
        }
        Failures f;
        Dones d;
        mca_btl_base_register_error(on_error, &f);
        if (!r.barrier()) {
            return "the barrier timed out";
        }
        usleep(300000);
        mca_btl_base_peer_t *peer = r.peer(1);
        char byte = 1;
        const mca_btl_base_segment_t seg{&byte, 1};
        const int rc = peer->modules[0].btl->btl_send(peer->modules[0].btl, peer->modules[0].endpoint, tcptest::kTag,
                                                      &seg, 1, nullptr, nullptr);
        if (rc != MCA_BTL_SEND_COMPLETE && rc != TESSERA_ERR_UNREACH) {
            return "the first send answered " + std::to_string(rc);
        }
        if (std::string e = check_reported(r, f, d, 0); !e.empty()) {
            return e;
        }
        return f.why.find("rank 1") != std::string::npos ? "" : "the report does not name the peer: " + f.why;
    });
    // Rank 1 passes the barrier before it leaves.
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_TRUE(outcomes[0].exited && outcomes[0].code == 0) << tcptest::describe_failures(outcomes);
}

// A hello from a rank this process has not added (yet) is not refused: the connection waits, and
// add_procs adopts it with what was sent on it.
TEST(BtlTcpFailure, AHelloBeforeAddProcsWaitsForIt)
{
    const auto outcomes = tcptest::run_job(Options{}, [](Rank &r) -> std::string {
        tessera::mca::report_clear();
        Counter c;
        mca_btl_base_register_recv(tcptest::kTag, count_fragment, &c);
        tessera_proc_t *zero[] = {r.procs[0]};
        if (r.rank == 1 && mca_btl_base_del_procs(zero, 1) != TESSERA_SUCCESS) {
            return "del_procs failed";
        }
        if (!r.barrier()) {
            return "barrier";
        }
        if (r.rank == 0) {
            mca_btl_base_peer_t *peer = r.peer(1);
            const char text[] = "early";
            const mca_btl_base_segment_t seg{text, sizeof text};
            for (int i = 0; i < 5; ++i) {
                const int rc = tcptest::send_retry(peer->modules[0].btl, peer->modules[0].endpoint, &seg, 1);
                if (rc != MCA_BTL_SEND_COMPLETE) {
                    return "send answered " + std::to_string(rc);
                }
            }
        } else {
            progress_for(0.3); // the hello arrives and waits
            if (c.fragments != 0) {
                return "fragments arrived from a rank that was not added";
            }
            if (mca_btl_base_add_procs(zero, 1) != TESSERA_SUCCESS) {
                return "add_procs failed";
            }
            const auto until = Clock::now() + std::chrono::seconds(10);
            while (c.fragments < 5 && Clock::now() < until) {
                mca_btl_base_progress();
            }
            if (c.fragments != 5) {
                return "received " + std::to_string(c.fragments) + " of 5 after add_procs";
            }
            if (!tessera::mca::reported(tessera::mca::Severity::Warning).empty()) {
                return "the early connection was refused";
            }
        }
        mca_btl_base_register_recv(tcptest::kTag, nullptr, nullptr);
        return "";
    });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

} // namespace
