// btl tcp between forked ranks: fragments of every size up to max_send_size arrive whole and in the
// order sent on each module, over 1 and 4 links, between 2 and 4 ranks; every send that kept the
// caller's memory calls its done once; a pair of ranks ends up with exactly one connection per link;
// ranks on loopback "hosts" listen on and connect from their own addresses.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <sched.h>

#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp_hdr.h"
#include "ompi/proc/modex.h"
#include "tests/unit/btl_tcp/tcp_job.h"

namespace {

using tcptest::Options;
using tcptest::Rank;
using Clock = std::chrono::steady_clock;

// Identifies a fragment: the payload that follows is fill(sender, link, seq) for payload_size(seq).
struct FragHeader {
    uint32_t seq;
    uint16_t sender;
    uint8_t link;
    uint8_t reserved;
};

size_t payload_size(uint32_t seq, size_t max_payload)
{
    static const size_t sizes[] = {0, 1, 7, 100, 4096, 65535};
    const size_t n = sizeof sizes / sizeof sizes[0];
    return seq % (n + 1) == n ? max_payload : std::min(sizes[seq % (n + 1)], max_payload);
}

unsigned char fill(int sender, int link, size_t i)
{
    return static_cast<unsigned char>(sender * 31 + link * 7 + i * 13 + (i >> 8));
}

struct Receiver {
    int rank = 0;
    std::vector<mca_btl_base_module_t *> modules; // index: link
    std::map<std::pair<int, int>, uint32_t> next;  // (sender, link) -> expected seq
    size_t max_payload = 0;
    long received = 0;
    std::string error;
};

void on_fragment(mca_btl_base_module_t *btl, const mca_btl_base_recv_desc_t *desc, void *cbdata)
{
    auto *r = static_cast<Receiver *>(cbdata);
    std::vector<unsigned char> bytes;
    for (size_t i = 0; i < desc->segment_count; ++i) {
        const auto *p = static_cast<const unsigned char *>(desc->segments[i].seg_addr);
        bytes.insert(bytes.end(), p, p + desc->segments[i].seg_len);
    }
    ++r->received;
    if (!r->error.empty()) {
        return;
    }
    FragHeader h{};
    if (bytes.size() < sizeof h || desc->proc == nullptr || desc->tag != tcptest::kTag) {
        r->error = "a fragment without its header, sender or tag";
        return;
    }
    std::memcpy(&h, bytes.data(), sizeof h);
    const int link = static_cast<int>(std::find(r->modules.begin(), r->modules.end(), btl) - r->modules.begin());
    if (h.sender != desc->proc->proc_name.rank || h.link != link) {
        r->error = "fragment from rank " + std::to_string(h.sender) + " link " + std::to_string(h.link) +
                   " arrived as rank " + std::to_string(desc->proc->proc_name.rank) + " link " + std::to_string(link);
        return;
    }
    uint32_t &expected = r->next[{h.sender, link}];
    if (h.seq != expected) {
        r->error = "from rank " + std::to_string(h.sender) + " link " + std::to_string(link) + ": fragment " +
                   std::to_string(h.seq) + " arrived when " + std::to_string(expected) + " was due";
        return;
    }
    ++expected;
    const size_t size = payload_size(h.seq, r->max_payload);
    if (bytes.size() != sizeof h + size) {
        r->error = "fragment " + std::to_string(h.seq) + " has " + std::to_string(bytes.size() - sizeof h) +
                   " payload bytes, not " + std::to_string(size);
        return;
    }
    for (size_t i = 0; i < size; ++i) {
        if (bytes[sizeof h + i] != fill(h.sender, link, i)) {
            r->error = "fragment " + std::to_string(h.seq) + " differs at byte " + std::to_string(i);
            return;
        }
    }
}

struct DoneCount {
    long calls = 0;
    long failures = 0;
};

void on_done(mca_btl_base_module_t *, mca_btl_base_endpoint_t *, void *data, int status)
{
    auto *d = static_cast<DoneCount *>(data);
    ++d->calls;
    d->failures += status != TESSERA_SUCCESS;
}

// Every rank sends `count` fragments to every other rank on each of its modules, interleaved, and
// checks what it receives (payloads of up to payload_cap bytes). Half the sends pass a done callback (large payloads are then written
// from this rank's memory), half do not (they are copied when queued).
std::string exchange(Rank &r, uint32_t count, size_t payload_cap = SIZE_MAX)
{
    Receiver recv;
    recv.rank = r.rank;
    DoneCount done;
    int links = 0;
    for (int p = 0; p < r.size; ++p) {
        if (p != r.rank) {
            mca_btl_base_peer_t *peer = r.peer(p);
            if (peer == nullptr) {
                return "no modules reach rank " + std::to_string(p);
            }
            links = static_cast<int>(peer->count);
        }
    }
    // Modules by link: the peer sets list them fastest first, links are in the name's last field.
    for (size_t i = 0; i < mca_btl_base_module_count(); ++i) {
        mca_btl_base_module_t *m = mca_btl_base_module_at(i);
        if (std::strncmp(m->btl_name, "tcp:", 4) == 0) {
            const int link = std::stoi(std::strrchr(m->btl_name, ':') + 1);
            recv.modules.resize(std::max<size_t>(recv.modules.size(), static_cast<size_t>(link) + 1));
            recv.modules[static_cast<size_t>(link)] = m;
        }
    }
    if (static_cast<int>(recv.modules.size()) != links) {
        return "expected " + std::to_string(links) + " tcp modules, found " + std::to_string(recv.modules.size());
    }
    recv.max_payload = std::min(recv.modules[0]->btl_max_send_size - sizeof(FragHeader), payload_cap);
    std::vector<std::vector<unsigned char>> payload(static_cast<size_t>(links));
    for (int l = 0; l < links; ++l) {
        for (size_t i = 0; i < recv.max_payload; ++i) {
            payload[static_cast<size_t>(l)].push_back(fill(r.rank, l, i));
        }
    }
    if (mca_btl_base_register_recv(tcptest::kTag, on_fragment, &recv) != TESSERA_SUCCESS) {
        return "cannot register the receive callback";
    }
    long taken_with_done = 0;
    for (uint32_t seq = 0; seq < count; ++seq) {
        for (int p = 0; p < r.size; ++p) {
            if (p == r.rank) {
                continue;
            }
            mca_btl_base_peer_t *peer = r.peer(p);
            for (int l = 0; l < links; ++l) {
                mca_btl_base_module_t *m = recv.modules[static_cast<size_t>(l)];
                mca_btl_base_endpoint_t *ep = nullptr;
                for (size_t k = 0; k < peer->count; ++k) {
                    if (peer->modules[k].btl == m) {
                        ep = peer->modules[k].endpoint;
                    }
                }
                const FragHeader h{seq, static_cast<uint16_t>(r.rank), static_cast<uint8_t>(l), 0};
                const size_t size = payload_size(seq, recv.max_payload);
                const mca_btl_base_segment_t segs[2] = {{&h, sizeof h}, {payload[static_cast<size_t>(l)].data(), size}};
                const bool with_done = seq % 2 == 0;
                const int rc = tcptest::send_retry(m, ep, segs, size != 0 ? 2 : 1, with_done ? on_done : nullptr,
                                                   with_done ? &done : nullptr);
                if (rc == TESSERA_SUCCESS) {
                    if (!with_done) {
                        return "a send without done callback kept the caller's memory";
                    }
                    ++taken_with_done;
                } else if (rc != MCA_BTL_SEND_COMPLETE) {
                    return "send " + std::to_string(seq) + " to rank " + std::to_string(p) + " failed: " + std::to_string(rc);
                }
            }
        }
        mca_btl_base_progress();
    }
    const long expected = static_cast<long>(count) * links * (r.size - 1);
    const auto until = Clock::now() + std::chrono::seconds(60);
    while ((recv.received < expected || done.calls < taken_with_done) && recv.error.empty() && Clock::now() < until) {
        if (mca_btl_base_progress() == 0) {
            sched_yield();
        }
    }
    std::string result = recv.error;
    if (result.empty() && recv.received != expected) {
        result = "received " + std::to_string(recv.received) + " of " + std::to_string(expected) + " fragments";
    }
    if (result.empty() && (done.calls != taken_with_done || done.failures != 0)) {
        result = std::to_string(done.calls) + " done calls (" + std::to_string(done.failures) + " failed) for " +
                 std::to_string(taken_with_done) + " sends that kept the caller's memory";
    }
    if (result.empty() && !r.barrier()) {
        result = "the barrier after the exchange timed out";
    }
    // Exactly one connection per (link, peer), whoever opened it and however the connects raced.
    const auto sockets = tcptest::established_sockets();
    if (result.empty() && sockets.size() != static_cast<size_t>(links * (r.size - 1))) {
        result = std::to_string(sockets.size()) + " connections are established, not one per link and peer (" +
                 std::to_string(links * (r.size - 1)) + "):";
        for (const auto &[local, remote] : sockets) {
            result += " " + local + "-" + remote;
        }
    }
    mca_btl_base_register_recv(tcptest::kTag, nullptr, nullptr);
    return result;
}

struct JobShape {
    int size;
    int links;
    uint32_t count;
};

class BtlTcpExchange : public ::testing::TestWithParam<JobShape> {};

TEST_P(BtlTcpExchange, FragmentsArriveWholeAndInOrder)
{
    const JobShape s = GetParam();
    Options o;
    o.size = s.size;
    o.params = {{"btl_tcp_links", std::to_string(s.links)}};
    o.timeout = 90;
    const auto outcomes = tcptest::run_job(o, [&](Rank &r) { return exchange(r, s.count); });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, BtlTcpExchange,
                         ::testing::Values(JobShape{2, 1, 400}, JobShape{2, 4, 200}, JobShape{4, 1, 150},
                                           JobShape{4, 4, 60}),
                         [](const ::testing::TestParamInfo<JobShape> &i) {
                             return std::to_string(i.param.size) + "ranks_" + std::to_string(i.param.links) + "links";
                         });

// Small fragments make the sender queue behind a full socket while the peer is still busy: the
// queue is written in order, many fragments per system call.
TEST(BtlTcp, SmallFragmentsBehindAFullSocketKeepTheirOrder)
{
    Options o;
    o.params = {{"btl_tcp_sndbuf", "16k"}, {"btl_tcp_rcvbuf", "16k"}};
    const auto outcomes = tcptest::run_job(o, [](Rank &r) { return exchange(r, 20000, 200); });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

// Ranks on the loopback "hosts" 127.0.0.2 and 127.0.0.3 (as `mpirun --host 127.0.0.2,127.0.0.3`
// gives them) publish those addresses and talk from one to the other.
TEST(BtlTcp, LoopbackHostsUseTheirOwnAddresses)
{
    Options o;
    o.hosts = {"127.0.0.2", "127.0.0.3"};
    const auto outcomes = tcptest::run_job(o, [](Rank &r) -> std::string {
        const char *mine = r.rank == 0 ? "127.0.0.2" : "127.0.0.3";
        const char *theirs = r.rank == 0 ? "127.0.0.3" : "127.0.0.2";
        const void *data = nullptr;
        size_t len = 0;
        if (tessera_modex_get(static_cast<uint32_t>(r.rank), "btl.tcp", &data, &len) != TESSERA_SUCCESS) {
            return "no card btl.tcp";
        }
        tessera::ompi::btl_tcp::Card card{};
        std::memcpy(&card, data, std::min(len, sizeof card));
        char addr[INET_ADDRSTRLEN] = {};
        inet_ntop(AF_INET, &card.link[0].addr, addr, sizeof addr);
        if (std::string(addr) != mine) {
            return std::string("the card gives ") + addr + ", not " + mine;
        }
        if (std::string e = exchange(r, 50); !e.empty()) {
            return e;
        }
        for (const auto &[local, remote] : tcptest::established_sockets()) {
            if (local.rfind(std::string(mine) + ":", 0) != 0 || remote.rfind(std::string(theirs) + ":", 0) != 0) {
                return "a connection from " + local + " to " + remote;
            }
        }
        return "";
    });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

} // namespace
