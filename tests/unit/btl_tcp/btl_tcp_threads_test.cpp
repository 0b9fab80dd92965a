// btl tcp with enable_mpi_threads: several threads of a rank send on the modules and progress at
// the same time; each thread's fragments arrive whole and in its order.
#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/btl_tcp/tcp_job.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kThreads = 3;
constexpr uint32_t kCount = 3000;

struct ThreadFrag {
    uint32_t thread;
    uint32_t seq;
};

size_t size_of(uint32_t seq)
{
    return (seq * 37) % 2000;
}

struct Seen {
    std::mutex lock;
    std::map<uint32_t, uint32_t> next; // thread -> expected seq
    long received = 0;
    std::string error;
};

void on_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *cbdata)
{
    auto *s = static_cast<Seen *>(cbdata);
    std::vector<unsigned char> bytes;
    for (size_t i = 0; i < desc->segment_count; ++i) {
        const auto *p = static_cast<const unsigned char *>(desc->segments[i].seg_addr);
        bytes.insert(bytes.end(), p, p + desc->segments[i].seg_len);
    }
    std::lock_guard<std::mutex> g(s->lock);
    ++s->received;
    ThreadFrag h{};
    if (bytes.size() < sizeof h) {
        s->error = "a fragment without its header";
        return;
    }
    std::memcpy(&h, bytes.data(), sizeof h);
    uint32_t &expected = s->next[h.thread];
    if (s->error.empty() && h.seq != expected) {
        s->error = "thread " + std::to_string(h.thread) + ": fragment " + std::to_string(h.seq) + " arrived when " +
                   std::to_string(expected) + " was due";
    }
    expected = h.seq + 1;
    if (s->error.empty() && bytes.size() != sizeof h + size_of(h.seq)) {
        s->error = "fragment " + std::to_string(h.seq) + " has the wrong size";
    }
    for (size_t i = sizeof h; s->error.empty() && i < bytes.size(); ++i) {
        if (bytes[i] != static_cast<unsigned char>(h.thread + h.seq + i)) {
            s->error = "fragment " + std::to_string(h.seq) + " differs at byte " + std::to_string(i);
        }
    }
}

TEST(BtlTcpThreads, ThreadsSendAndProgressAtOnce)
{
    tcptest::Options o;
    o.mpi_threads = true;
    o.params = {{"btl_tcp_links", "2"}};
    o.timeout = 60;
    const auto outcomes = tcptest::run_job(o, [](tcptest::Rank &r) -> std::string {
        Seen seen;
        mca_btl_base_register_recv(tcptest::kTag, on_fragment, &seen);
        mca_btl_base_peer_t *peer = r.peer(1 - r.rank);
        std::atomic<int> failed{0};
        std::vector<std::thread> threads;
        for (uint32_t t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                const size_t k = t % peer->count;
                std::vector<unsigned char> payload(2000);
                for (uint32_t seq = 0; seq < kCount; ++seq) {
                    const ThreadFrag h{t, seq};
                    for (size_t i = 0; i < payload.size(); ++i) {
                        payload[i] = static_cast<unsigned char>(t + seq + sizeof h + i);
                    }
                    const mca_btl_base_segment_t segs[2] = {{&h, sizeof h}, {payload.data(), size_of(seq)}};
                    // Without a done callback: the payload buffer is rewritten at once.
                    if (tcptest::send_retry(peer->modules[k].btl, peer->modules[k].endpoint, segs, 2) !=
                        MCA_BTL_SEND_COMPLETE) {
                        ++failed;
                        return;
                    }
                    mca_btl_base_progress();
                }
            });
        }
        const long expected = static_cast<long>(kThreads) * kCount;
        const auto until = Clock::now() + std::chrono::seconds(40);
        for (;;) {
            {
                std::lock_guard<std::mutex> g(seen.lock);
                if (seen.received >= expected || !seen.error.empty()) {
                    break;
                }
            }
            if (Clock::now() > until || failed.load() != 0) {
                break;
            }
            if (mca_btl_base_progress() == 0) {
                sched_yield();
            }
        }
        for (std::thread &t : threads) {
            t.join();
        }
        mca_btl_base_register_recv(tcptest::kTag, nullptr, nullptr);
        if (failed.load() != 0) {
            return "a send failed";
        }
        std::lock_guard<std::mutex> g(seen.lock);
        if (!seen.error.empty()) {
            return seen.error;
        }
        return seen.received == expected ? "" : "received " + std::to_string(seen.received) + " of " + std::to_string(expected);
    });
    EXPECT_EQ(tcptest::describe_failures(outcomes), "");
}

} // namespace
