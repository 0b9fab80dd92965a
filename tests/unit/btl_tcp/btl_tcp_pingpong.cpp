// btl tcp micro-benchmark: 8-byte fragment ping-pong against a raw TCP socket ping-pong in the same
// program (both spinning on non-blocking reads, one rank per core), and 4 MiB streaming over
// btl_tcp_links 1 and 2, in alternating rounds. Prints medians, spreads and the ratios against the
// targets of docs/btl-tcp.md.
// Usage: btl_tcp_pingpong [--rounds N] [--iterations N] [--messages N] [--mca name value]...
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/btl_tcp/tcp_job.h"

namespace {

using Clock = std::chrono::steady_clock;
using tcptest::Options;
using tcptest::Rank;

constexpr size_t kMessage = 4u << 20;
constexpr int kWindow = 4;
constexpr int kBlocks = 10;

void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu % static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))), &set);
    sched_setaffinity(0, sizeof set, &set);
}

// A connected TCP pair over the loopback route, made before the fork: fds[0] for rank 0, fds[1] for
// rank 1.
bool tcp_pair(int fds[2])
{
    const int l = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(l, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || listen(l, 1) != 0 ||
        getsockname(l, reinterpret_cast<sockaddr *>(&a), &len) != 0) {
        return false;
    }
    fds[0] = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fds[0], reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        return false;
    }
    fds[1] = accept(l, nullptr, nullptr);
    close(l);
    const int one = 1;
    for (int i = 0; i < 2; ++i) {
        setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fds[1] >= 0;
}

// One-way latency in µs of `n` round trips on the raw socket, spinning on MSG_DONTWAIT reads.
double raw_pingpong(int fd, bool first, int n)
{
    char buf[8] = {};
    const auto wait8 = [&] {
        size_t got = 0;
        while (got < sizeof buf) {
            const ssize_t r = recv(fd, buf + got, sizeof buf - got, MSG_DONTWAIT);
            if (r > 0) {
                got += static_cast<size_t>(r);
            } else if (r == 0) {
                std::exit(3);
            }
        }
    };
    const auto start = Clock::now();
    for (int i = 0; i < n; ++i) {
        if (first) {
            send(fd, buf, sizeof buf, MSG_NOSIGNAL);
            wait8();
        } else {
            wait8();
            send(fd, buf, sizeof buf, MSG_NOSIGNAL);
        }
    }
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / (2.0 * n);
}

long arrived = 0;
size_t bytes_in = 0;
std::vector<char> *landing = nullptr;

void on_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *)
{
    ++arrived;
    if (landing != nullptr && desc->segments[0].seg_len > sizeof(uint64_t)) {
        // Where the pml would put it: at the offset the fragment carries.
        uint64_t offset = 0;
        std::memcpy(&offset, desc->segments[0].seg_addr, sizeof offset);
        const size_t n = desc->segments[0].seg_len - sizeof offset;
        std::memcpy(landing->data() + offset, static_cast<const char *>(desc->segments[0].seg_addr) + sizeof offset, n);
        bytes_in += n;
    }
}

void wait_arrived(long count)
{
    while (arrived < count) {
        mca_btl_base_progress();
    }
}

double btl_pingpong(Rank &r, int n)
{
    mca_btl_base_peer_t *peer = r.peer(1 - r.rank);
    mca_btl_base_module_t *m = peer->modules[0].btl;
    mca_btl_base_endpoint_t *ep = peer->modules[0].endpoint;
    char buf[8] = {};
    const mca_btl_base_segment_t seg{buf, sizeof buf};
    arrived = 0;
    const auto start = Clock::now();
    for (int i = 0; i < n; ++i) {
        if (r.rank == 0) {
            tcptest::send_retry(m, ep, &seg, 1);
            wait_arrived(i + 1);
        } else {
            wait_arrived(i + 1);
            tcptest::send_retry(m, ep, &seg, 1);
        }
    }
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / (2.0 * n);
}

long done_count = 0;
void on_done(mca_btl_base_module_t *, mca_btl_base_endpoint_t *, void *, int)
{
    ++done_count;
}

// GB/s of `count` 4 MiB messages, each cut into fragments of max_send_size handed round-robin to the
// peer's modules (as the pml stripes), at most kWindow messages unacknowledged.
double stream(Rank &r, int count)
{
    mca_btl_base_peer_t *peer = r.peer(1 - r.rank);
    std::vector<char> data(kMessage, 'd');
    std::vector<char> dest(kMessage);
    arrived = 0;
    bytes_in = 0;
    done_count = 0;
    landing = r.rank == 1 ? &dest : nullptr;
    const auto start = Clock::now();
    if (r.rank == 0) {
        long taken = 0;
        size_t next = 0;
        for (int msg = 0; msg < count; ++msg) {
            wait_arrived(msg - kWindow + 1);
            for (size_t off = 0; off < kMessage;) {
                const size_t k = next++ % peer->count;
                mca_btl_base_module_t *m = peer->modules[k].btl;
                const uint64_t offset = off;
                const size_t n = std::min(m->btl_max_send_size - sizeof offset, kMessage - off);
                const mca_btl_base_segment_t segs[2] = {{&offset, sizeof offset}, {data.data() + off, n}};
                const int rc = tcptest::send_retry(m, peer->modules[k].endpoint, segs, 2, on_done, nullptr);
                taken += rc == TESSERA_SUCCESS;
                off += n;
            }
        }
        wait_arrived(count);
        while (done_count < taken) {
            mca_btl_base_progress();
        }
    } else {
        char ack = 1;
        const mca_btl_base_segment_t seg{&ack, 1};
        for (int msg = 0; msg < count; ++msg) {
            while (bytes_in < kMessage * static_cast<size_t>(msg + 1)) {
                mca_btl_base_progress();
            }
            tcptest::send_retry(peer->modules[0].btl, peer->modules[0].endpoint, &seg, 1);
        }
    }
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    landing = nullptr;
    return static_cast<double>(kMessage) * count / s / 1e9;
}

struct Stats {
    double median, low, high;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

} // namespace

int main(int argc, char **argv)
{
    int rounds = 5, iterations = 20000, messages = 64;
    std::vector<std::pair<std::string, std::string>> extra; // --mca name value, for every job
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--mca" && i + 2 < argc) {
            extra.emplace_back(argv[i + 1], argv[i + 2]);
            ++i;
        } else if (a == "--rounds") {
            rounds = std::max(1, std::atoi(argv[i + 1]));
        } else if (a == "--iterations") {
            iterations = std::max(100, std::atoi(argv[i + 1]));
        } else if (a == "--messages") {
            messages = std::max(kWindow, std::atoi(argv[i + 1]));
        }
    }
    int fds[2];
    if (!tcp_pair(fds)) {
        std::perror("raw socket pair");
        return 1;
    }
    // Latency with the defaults, and with progress asking epoll on every pass (btl_tcp_direct_reads 0).
    std::vector<double> raw, btl, raw_epoll, btl_epoll, bw1, bw2;
    const auto latency_round = [&](const char *direct_reads, std::vector<double> &raw_out,
                                   std::vector<double> &btl_out) {
        Options o;
        o.timeout = 120;
        o.params = extra;
        o.params.emplace_back("btl_tcp_direct_reads", direct_reads);
        // Blocks of raw and btl ping-pongs in turn, so that the machine's noise falls on both alike.
        const auto lat = tcptest::run_job(o, [&](Rank &r) -> std::string {
            pin(r.rank);
            mca_btl_base_register_recv(tcptest::kTag, on_fragment, nullptr);
            btl_pingpong(r, 1000); // connect and warm up
            raw_pingpong(fds[r.rank], r.rank == 0, 1000);
            std::string note;
            for (int block = 0; block < kBlocks; ++block) {
                if (!r.barrier()) {
                    return "barrier";
                }
                const double a = raw_pingpong(fds[r.rank], r.rank == 0, iterations / kBlocks);
                const double b = btl_pingpong(r, iterations / kBlocks);
                note += std::to_string(a) + " " + std::to_string(b) + " ";
            }
            r.note(note);
            return "";
        });
        if (!tcptest::describe_failures(lat).empty()) {
            std::fprintf(stderr, "latency round failed:\n%s", tcptest::describe_failures(lat).c_str());
            return false;
        }
        std::istringstream in(lat[0].note);
        for (double a = 0, b = 0; in >> a >> b;) {
            raw_out.push_back(a);
            btl_out.push_back(b);
        }
        return true;
    };
    for (int round = 0; round < rounds; ++round) {
        if (!latency_round("1", raw, btl) || !latency_round("0", raw_epoll, btl_epoll)) {
            return 1;
        }
        for (const char *links : {"1", "2"}) {
            Options s;
            s.timeout = 120;
            s.params = extra;
            s.params.emplace_back("btl_tcp_links", links);
            const auto out = tcptest::run_job(s, [&](Rank &r) -> std::string {
                pin(r.rank);
                mca_btl_base_register_recv(tcptest::kTag, on_fragment, nullptr);
                stream(r, kWindow); // connect and warm up
                if (!r.barrier()) {
                    return "barrier";
                }
                r.note(std::to_string(stream(r, messages)));
                return "";
            });
            if (!tcptest::describe_failures(out).empty()) {
                std::fprintf(stderr, "bandwidth round failed:\n%s", tcptest::describe_failures(out).c_str());
                return 1;
            }
            (links[0] == '1' ? bw1 : bw2).push_back(std::atof(out[0].note.c_str()));
        }
    }
    close(fds[0]);
    close(fds[1]);
    const Stats r = stats(raw), b = stats(btl), re = stats(raw_epoll), be = stats(btl_epoll), s1 = stats(bw1),
                s2 = stats(bw2);
    std::printf("btl tcp micro-benchmark, %d rounds; latency in %d blocks per round, raw and btl in turn "
                "(median, min..max)\n", rounds, kBlocks);
    std::printf("  8 B one-way latency, raw socket (spinning): %6.2f us  (%.2f..%.2f)\n", r.median, r.low, r.high);
    std::printf("  8 B one-way latency, btl tcp fragment:      %6.2f us  (%.2f..%.2f)  ratio %.2f (target <= 1.2)\n",
                b.median, b.low, b.high, b.median / r.median);
    std::printf("  best blocks: btl %.2f us against raw %.2f us: ratio %.2f\n", b.low, r.low, b.low / r.low);
    std::printf("  the same, epoll on every pass (direct_reads 0): %6.2f us against raw %.2f us: ratio %.2f\n", be.median,
                re.median, be.median / re.median);
    std::printf("  4 MiB streaming, btl_tcp_links 1:           %6.2f GB/s (%.2f..%.2f)\n", s1.median, s1.low, s1.high);
    std::printf("  4 MiB streaming, btl_tcp_links 2:           %6.2f GB/s (%.2f..%.2f)  ratio %.2f (target >= 1.0)\n",
                s2.median, s2.low, s2.high, s2.median / s1.median);
    return 0;
}
