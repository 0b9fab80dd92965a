// Micro-benchmark of btl shm alone, between two forked ranks pinned to separate cores: fragment
// ping-pong latency, streaming bandwidth of 4 MiB messages cut into max_send_size fragments (the
// receiver copies each out of its slot into the destination, as the pml does), single copy of 4 MiB
// when the module offers it, and the anchor: memcpy of 4 MiB in one process.
//
//   shm_pingpong [--mca name value]... [--seconds s] [--rounds n]
//
// Prints medians over the rounds with min-max; the bandwidth line gives its ratio to memcpy.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "tests/unit/btl_shm/shm_job.h"

namespace {

using Clock = std::chrono::steady_clock;
using shmtest::kTag;
using shmtest::Rank;

constexpr size_t kMessage = size_t{4} << 20;
constexpr int kWindow = 8; // messages per acknowledgement in the streaming test

double seconds_per_round = 0.5;
int rounds = 5;

// The pml's data header is 40 bytes; the benchmark sends the same amount of header.
struct DataHeader {
    uint64_t offset;
    uint32_t message;
    uint32_t length;
    char pad[24];
};

struct Sink {
    char *dst = nullptr;
    uint64_t bytes = 0;
    uint64_t controls = 0;
};

constexpr mca_btl_base_tag_t kControlTag = kTag + 1;

// Data: copied out of the slot into the destination at its offset, as the pml unpacks.
void on_data(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *cbdata)
{
    auto *s = static_cast<Sink *>(cbdata);
    const auto *p = static_cast<const char *>(desc->segments[0].seg_addr);
    const size_t len = desc->segments[0].seg_len;
    DataHeader h;
    std::memcpy(&h, p, sizeof h);
    std::memcpy(s->dst + h.offset, p + sizeof h, len - sizeof h);
    s->bytes += len - sizeof h;
}

void on_control(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *, void *cbdata)
{
    ++static_cast<Sink *>(cbdata)->controls;
}

void pin(uint32_t rank)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<int>(rank % static_cast<uint32_t>(cpus > 0 ? cpus : 1)), &set);
    sched_setaffinity(0, sizeof set, &set);
}

void wait_controls(Rank &r, Sink &s, uint64_t n)
{
    while (s.controls < n) {
        r.progress();
    }
}

void send_control(Rank &r, uint32_t peer, size_t bytes)
{
    static const char zeros[64] = {};
    r.send(peer, zeros, bytes, nullptr, 0, kControlTag);
}

// One-way latency of fragments of `bytes` bytes, in microseconds.
double latency(Rank &r, Sink &s, size_t bytes)
{
    const uint32_t peer = 1 - r.rank;
    uint64_t iterations = 0;
    s.controls = 0;
    r.barrier();
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(seconds_per_round);
    bool more = true;
    while (more) {
        for (int i = 0; i < 1000; ++i, ++iterations) {
            if (r.rank == 0) {
                send_control(r, peer, bytes);
                wait_controls(r, s, iterations + 1);
            } else {
                wait_controls(r, s, iterations + 1);
                send_control(r, peer, bytes);
            }
        }
        if (r.rank == 0) {
            more = Clock::now() < end;
            r.board->words[0].store(more ? 1 : 0);
        }
        r.barrier();
        more = r.board->words[0].load() != 0;
        r.barrier();
    }
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    return us / (2.0 * static_cast<double>(iterations));
}

// Streaming bandwidth, GB/s: windows of kWindow messages of 4 MiB, one acknowledgement per window.
double streaming(Rank &r, Sink &s, const std::vector<char> &src)
{
    const size_t room = r.btl->btl_max_send_size - sizeof(DataHeader);
    uint64_t messages = 0;
    s.controls = 0;
    s.bytes = 0;
    r.barrier();
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(seconds_per_round);
    for (uint64_t window = 1;; ++window) {
        if (r.rank == 0) {
            for (int m = 0; m < kWindow; ++m, ++messages) {
                for (size_t off = 0; off < kMessage; off += room) {
                    const size_t n = std::min(room, kMessage - off);
                    DataHeader h{off, static_cast<uint32_t>(messages), static_cast<uint32_t>(n), {}};
                    r.send(1, &h, sizeof h, src.data() + off, n);
                }
            }
            wait_controls(r, s, window);
            r.board->words[0].store(Clock::now() < end ? 1 : 0);
        } else {
            while (s.bytes < window * kWindow * kMessage) {
                r.progress();
            }
            send_control(r, 0, 8);
        }
        r.barrier();
        const bool more = r.board->words[0].load() != 0;
        r.barrier();
        if (!more) {
            break;
        }
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    return static_cast<double>(messages) * kMessage / elapsed / 1e9;
}

double memcpy_rate(std::vector<char> &dst, const std::vector<char> &src)
{
    uint64_t copies = 0;
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(seconds_per_round);
    while (Clock::now() < end) {
        for (int i = 0; i < 16; ++i, ++copies) {
            std::memcpy(dst.data(), src.data(), kMessage);
            asm volatile("" : : "r"(dst.data()) : "memory");
        }
    }
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    return static_cast<double>(copies) * kMessage / s / 1e9;
}

// Single copy, GB/s: per message a request fragment, a 4 MiB get by the receiver, an answer fragment.
double single_copy(Rank &r, Sink &s, const std::vector<char> &src, std::vector<char> &dst)
{
    uint64_t messages = 0;
    s.controls = 0;
    if (r.rank == 0) {
        r.board->words[3].store(reinterpret_cast<uint64_t>(src.data()));
    }
    r.barrier();
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(seconds_per_round);
    bool more = true;
    while (more) {
        for (int i = 0; i < 16; ++i, ++messages) {
            if (r.rank == 0) {
                send_control(r, 1, 8);
                wait_controls(r, s, messages + 1);
            } else {
                wait_controls(r, s, messages + 1);
                const uint64_t address = r.board->words[3].load();
                const size_t piece = r.btl->btl_get_limit != 0 ? r.btl->btl_get_limit : kMessage;
                for (size_t off = 0; off < kMessage; off += piece) {
                    r.btl->btl_get(r.btl, r.endpoints[0], dst.data() + off, address + off, std::min(piece, kMessage - off));
                }
                send_control(r, 0, 8);
            }
        }
        if (r.rank == 0) {
            r.board->words[0].store(Clock::now() < end ? 1 : 0);
        }
        r.barrier();
        more = r.board->words[0].load() != 0;
        r.barrier();
    }
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    return static_cast<double>(messages) * kMessage / secs / 1e9;
}

struct Figure {
    std::vector<double> v;
    std::string text(const char *unit, int precision) const
    {
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        char buf[128];
        std::snprintf(buf, sizeof buf, "%.*f %s (min %.*f, max %.*f)", precision, sorted[sorted.size() / 2], unit,
                      precision, sorted.front(), precision, sorted.back());
        return buf;
    }
    double median() const
    {
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        return sorted[sorted.size() / 2];
    }
};

void benchmark(Rank &r)
{
    pin(r.rank);
    r.yield = false; // one rank per core: spin as the MPI benchmarks do
    r.start();
    std::vector<char> src(kMessage, 1);
    std::vector<char> dst(kMessage, 2); // first touch before timing
    Sink sink{dst.data(), 0, 0};
    mca_btl_base_register_recv(kTag, on_data, &sink);
    mca_btl_base_register_recv(kControlTag, on_control, &sink);
    Figure lat8, lat48, bw, copy, cma;
    for (int round = 0; round < rounds; ++round) {
        lat8.v.push_back(latency(r, sink, 8));
        lat48.v.push_back(latency(r, sink, 48));
        bw.v.push_back(streaming(r, sink, src));
        if (r.rank == 0) {
            copy.v.push_back(memcpy_rate(dst, src));
        }
        r.barrier();
        if ((r.btl->btl_flags & MCA_BTL_FLAG_GET) != 0) {
            cma.v.push_back(single_copy(r, sink, src, dst));
        }
    }
    if (r.rank == 0) {
        std::printf("btl shm: max_send_size %zu, eager_limit %zu, single copy %s\n", r.btl->btl_max_send_size,
                    r.btl->btl_eager_limit, (r.btl->btl_flags & MCA_BTL_FLAG_GET) != 0 ? "offered" : "off");
        std::printf("latency 8 B one-way       %s\n", lat8.text("us", 3).c_str());
        std::printf("latency 48 B one-way      %s\n", lat48.text("us", 3).c_str());
        std::printf("streaming 4 MiB           %s  = %.2f x memcpy\n", bw.text("GB/s", 2).c_str(),
                    bw.median() / copy.median());
        std::printf("memcpy 4 MiB (one core)   %s\n", copy.text("GB/s", 2).c_str());
        if (!cma.v.empty()) {
            std::printf("single copy 4 MiB (get)   %s  = %.2f x memcpy\n", cma.text("GB/s", 2).c_str(),
                        cma.median() / copy.median());
        }
        std::fflush(stdout);
    }
    mca_btl_base_register_recv(kTag, nullptr, nullptr);
    mca_btl_base_register_recv(kControlTag, nullptr, nullptr);
    r.barrier();
}

} // namespace

int main(int argc, char **argv)
{
    shmtest::Params params;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mca" && i + 2 < argc) {
            params.emplace_back(argv[i + 1], argv[i + 2]);
            i += 2;
        } else if (a == "--seconds" && i + 1 < argc) {
            seconds_per_round = std::stod(argv[++i]);
        } else if (a == "--rounds" && i + 1 < argc) {
            rounds = std::max(1, std::stoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--mca name value]... [--seconds s] [--rounds n]\n", argv[0]);
            return 2;
        }
    }
    shmtest::Job job(2, params);
    job.run(benchmark, 60 + 6.0 * rounds * seconds_per_round);
    if (!job.all_exited_ok() || !job.leftovers().empty()) {
        std::fprintf(stderr, "shm_pingpong: %s%s\n", job.describe().c_str(),
                     job.leftovers().empty() ? "" : " (segment left in /dev/shm)");
        return 1;
    }
    return 0;
}
