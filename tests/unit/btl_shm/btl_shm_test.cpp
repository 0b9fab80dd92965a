// btl shm between forked ranks of one host, opened through the MCA core as MPI_Init does: fragments
// arrive complete and in order per sender (also with 16 and 32 ranks on two cores), a full queue pushes
// back, the host segment grows linearly with the ranks and is gone from /dev/shm as soon as every rank
// mapped it, a /dev/shm too small for it is reported once, single copy reads a peer's memory where the
// kernel allows it and falls back where it does not, and a peer that dies is reported once.
#include <gtest/gtest.h>

#include <linux/capability.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "tests/unit/btl_shm/shm_job.h"

namespace {

using shmtest::Job;
using shmtest::kTag;
using shmtest::Rank;

// Every fragment of the traffic tests: who sent it, its number in the sender's stream to this
// receiver, and its length; the payload is a ramp starting at a byte derived from both.
struct FragHeader {
    uint32_t sender;
    uint32_t stream;
    uint32_t seq;
    uint32_t length; // header included
};

constexpr size_t kMaxStreams = shmtest::kMaxRanks * 4;

const unsigned char *ramp()
{
    static const auto bytes = [] {
        static std::array<unsigned char, (size_t{1} << 17) + 256> r;
        for (size_t i = 0; i < r.size(); ++i) {
            r[i] = static_cast<unsigned char>(i);
        }
        return &r;
    }();
    return bytes->data();
}

unsigned char seed(const FragHeader &h)
{
    return static_cast<unsigned char>(h.sender * 37 + h.stream * 11 + h.seq * 7);
}

// What a receiver checks on every fragment; the first problem is kept for the report.
struct Inbox {
    uint32_t next[kMaxStreams] = {};
    std::atomic<uint64_t> received{0}; // read by the test's main thread while progress threads deliver
    uint64_t empty = 0;
    std::string problem;
};

void check_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *cbdata)
{
    auto *in = static_cast<Inbox *>(cbdata);
    std::vector<unsigned char> bytes;
    for (size_t i = 0; i < desc->segment_count; ++i) {
        const auto *p = static_cast<const unsigned char *>(desc->segments[i].seg_addr);
        bytes.insert(bytes.end(), p, p + desc->segments[i].seg_len);
    }
    if (bytes.empty()) {
        ++in->empty;
        return;
    }
    FragHeader h{};
    if (bytes.size() < sizeof h) {
        in->problem = in->problem.empty() ? "short fragment of " + std::to_string(bytes.size()) + " bytes" : in->problem;
        return;
    }
    std::memcpy(&h, bytes.data(), sizeof h);
    const size_t stream = h.sender * 4 + h.stream;
    std::string problem;
    if (desc->tag != kTag) {
        problem = "tag " + std::to_string(desc->tag);
    } else if (desc->proc == nullptr || desc->proc->proc_name.rank != h.sender) {
        problem = "fragment of rank " + std::to_string(h.sender) + " says it came from another proc";
    } else if (stream >= kMaxStreams || h.seq != in->next[stream]) {
        problem = "rank " + std::to_string(h.sender) + " stream " + std::to_string(h.stream) + ": fragment " +
                  std::to_string(h.seq) + " arrived when " + std::to_string(in->next[stream]) + " was due";
    } else if (h.length != bytes.size()) {
        problem = "fragment " + std::to_string(h.seq) + " has " + std::to_string(bytes.size()) + " bytes, sent " +
                  std::to_string(h.length);
    } else if (std::memcmp(bytes.data() + sizeof h, ramp() + seed(h), bytes.size() - sizeof h) != 0) {
        problem = "fragment " + std::to_string(h.seq) + " of " + std::to_string(h.length) + " bytes: payload differs";
    }
    if (!problem.empty() && in->problem.empty()) {
        in->problem = problem;
    }
    if (stream < kMaxStreams) {
        in->next[stream] = h.seq + 1;
    }
    ++in->received;
}

int send_fragment(Rank &r, uint32_t peer, uint32_t stream, uint32_t seq, size_t length)
{
    FragHeader h{r.rank, stream, seq, static_cast<uint32_t>(length)};
    return r.send(peer, &h, sizeof h, ramp() + seed(h), length - sizeof h);
}

// Sends `count` fragments to each target (lengths from `length(seq)`), receiving meanwhile, and waits
// for `count` from each source; checks every fragment.
void exchange(Rank &r, const std::vector<uint32_t> &targets, const std::vector<uint32_t> &sources, uint32_t count,
              const std::function<size_t(uint32_t)> &length, bool final_barrier = true)
{
    Inbox in;
    SHM_CHECK(mca_btl_base_register_recv(kTag, check_fragment, &in) == TESSERA_SUCCESS, "register");
    for (uint32_t seq = 0; seq < count; ++seq) {
        for (uint32_t t : targets) {
            const int rc = send_fragment(r, t, 0, seq, length(seq));
            SHM_CHECK(rc == MCA_BTL_SEND_COMPLETE, "send to rank " + std::to_string(t) + " answered " + std::to_string(rc));
        }
    }
    const uint64_t expected = uint64_t{count} * sources.size();
    SHM_CHECK(r.progress_until([&] { return in.received >= expected; }),
              "received " + std::to_string(in.received) + " of " + std::to_string(expected));
    SHM_CHECK(in.problem.empty(), in.problem);
    for (uint32_t s : sources) {
        SHM_CHECK(in.next[s * 4] == count, "rank " + std::to_string(s) + ": " + std::to_string(in.next[s * 4]));
    }
    if (final_barrier) {
        r.barrier(true);
    }
    mca_btl_base_register_recv(kTag, nullptr, nullptr);
}

std::vector<uint32_t> all_but(uint32_t me, uint32_t size)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < size; ++i) {
        if (i != me) {
            v.push_back(i);
        }
    }
    return v;
}

bool reported(tessera::mca::Severity severity, const std::string &needle)
{
    for (const std::string &m : tessera::mca::reported(severity)) {
        if (m.find(needle) != std::string::npos) {
            return true;
        }
    }
    return false;
}

#define EXPECT_JOB_OK(job)                                                                                        \
    do {                                                                                                          \
        EXPECT_TRUE((job).all_exited_ok()) << (job).describe();                                                   \
        EXPECT_TRUE((job).leftovers().empty()) << "left in /dev/shm: " << (job).leftovers().front();              \
    } while (0)

TEST(BtlShm, ModuleDescribesItselfAndReachesOnlyPeersOnTheHost)
{
    Job job(3, {{"btl_shm_eager_limit", "2k"}, {"btl_shm_max_send_size", "8k"}, {"btl_shm_latency", "123"},
                {"btl_shm_bandwidth", "4567"}});
    job.setup(2).node_id = 1; // another host: reached by tcp, never by shm
    job.setup(2).local_rank = 0;
    job.setup(2).local_size = 1;
    job.setup(0).local_size = job.setup(1).local_size = 2;
    job.run([](Rank &r) {
        r.open();
        if (r.rank == 2) {
            SHM_CHECK(r.btl == nullptr, "a host with one rank needs no shm module");
            r.fence();
            r.barrier();
            return;
        }
        SHM_CHECK(r.btl != nullptr, "no module");
        SHM_CHECK(std::string(r.btl->btl_name) == "shm", r.btl->btl_name);
        SHM_CHECK(r.btl->btl_exclusivity == MCA_BTL_EXCLUSIVITY_DEFAULT, "exclusivity");
        SHM_CHECK(r.btl->btl_eager_limit == 2048 && r.btl->btl_max_send_size == 8192, "limits from parameters");
        SHM_CHECK(r.btl->btl_latency == 123 && r.btl->btl_bandwidth == 4567, "estimates from parameters");
        SHM_CHECK((r.btl->btl_flags & MCA_BTL_FLAG_SEND) != 0, "flags");
        SHM_CHECK(r.btl->btl_progress != nullptr, "progress");
        r.fence();
        r.add_procs();
        const uint32_t peer = 1 - r.rank;
        SHM_CHECK(r.endpoints[r.rank] == nullptr, "self is the self btl's");
        SHM_CHECK(r.endpoints[peer] != nullptr, "the peer on this host");
        SHM_CHECK(r.endpoints[2] == nullptr, "the rank on another host");
        // Adding again gives the same endpoint.
        mca_btl_base_endpoint_t *again = nullptr;
        SHM_CHECK(r.btl->btl_add_procs(r.btl, 1, &r.procs[peer], &again) == TESSERA_SUCCESS && again == r.endpoints[peer],
                  "same endpoint");
        r.barrier();
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, FragmentsArriveInOrderBothWays)
{
    Job job(2);
    job.run([](Rank &r) {
        r.start();
        const size_t max = r.btl->btl_max_send_size;
        exchange(r, {1 - r.rank}, {1 - r.rank}, 20000,
                 [max](uint32_t seq) { return sizeof(FragHeader) + (size_t{seq} * 7919) % (max - sizeof(FragHeader) + 1); });
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, EverySizeUpToMaxSendSize)
{
    for (const char *max : {"4k", "64k"}) {
        SCOPED_TRACE(max);
        Job job(2, {{"btl_shm_max_send_size", max}, {"btl_shm_eager_limit", "1k"}});
        job.run([](Rank &r) {
            r.start();
            const size_t max = r.btl->btl_max_send_size;
            const uint32_t count = static_cast<uint32_t>(max - sizeof(FragHeader) + 1);
            if (r.rank == 0) {
                // An empty fragment is a fragment too.
                SHM_CHECK(r.send(1, nullptr, 0, nullptr, 0) == MCA_BTL_SEND_COMPLETE, "empty");
                exchange(r, {1}, {}, count, [](uint32_t seq) { return sizeof(FragHeader) + seq; });
            } else {
                Inbox in;
                mca_btl_base_register_recv(kTag, check_fragment, &in);
                SHM_CHECK(r.progress_until([&] { return in.received == count; }), "all sizes");
                SHM_CHECK(in.problem.empty(), in.problem);
                SHM_CHECK(in.empty == 1, "the empty fragment");
                mca_btl_base_register_recv(kTag, nullptr, nullptr);
                r.barrier(true);
            }
        });
        EXPECT_JOB_OK(job);
    }
}

TEST(BtlShm, TooLargeOrNoEndpointIsRefused)
{
    Job job(2, {{"btl_shm_max_send_size", "1k"}, {"btl_shm_eager_limit", "512"}});
    job.run([](Rank &r) {
        r.start();
        std::vector<unsigned char> big(1025);
        SHM_CHECK(r.send(1 - r.rank, big.data(), 1000, big.data(), 25) == TESSERA_ERR_BAD_PARAM, "1025 bytes");
        const mca_btl_base_segment_t seg{big.data(), 8};
        SHM_CHECK(r.btl->btl_send(r.btl, nullptr, kTag, &seg, 1, nullptr, nullptr) == TESSERA_ERR_BAD_PARAM, "no endpoint");
        r.barrier();
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, FullQueuePushesBackUntilTheReceiverProgresses)
{
    Job job(2, {{"btl_shm_fifo_depth", "8"}});
    job.run([](Rank &r) {
        r.start();
        if (r.rank == 0) {
            // The receiver does not progress yet: exactly a queue's worth is taken.
            uint32_t taken = 0;
            for (;; ++taken) {
                FragHeader h{0, 0, taken, sizeof(FragHeader) + 100};
                const mca_btl_base_segment_t segs[2] = {{&h, sizeof h}, {ramp() + seed(h), 100}};
                const int rc = r.btl->btl_send(r.btl, r.endpoints[1], kTag, segs, 2, nullptr, nullptr);
                if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
                    break;
                }
                SHM_CHECK(rc == MCA_BTL_SEND_COMPLETE && taken < 100, "send " + std::to_string(rc));
            }
            SHM_CHECK(taken == 8, "taken " + std::to_string(taken));
            r.board->words[0].store(taken);
            r.barrier();
            // Now it drains: the rest goes through, in order after the first eight.
            for (uint32_t seq = taken; seq < 1000; ++seq) {
                SHM_CHECK(send_fragment(r, 1, 0, seq, sizeof(FragHeader) + 100) == MCA_BTL_SEND_COMPLETE, "send");
            }
            r.barrier(true);
        } else {
            r.barrier();
            Inbox in;
            mca_btl_base_register_recv(kTag, check_fragment, &in);
            SHM_CHECK(r.progress_until([&] { return in.received == 1000; }), std::to_string(in.received));
            SHM_CHECK(in.problem.empty(), in.problem);
            mca_btl_base_register_recv(kTag, nullptr, nullptr);
            r.barrier(true);
        }
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, ManyToOneKeepsEachSendersOrder)
{
    Job job(4);
    job.run([](Rank &r) {
        r.start();
        auto length = [](uint32_t seq) { return sizeof(FragHeader) + (seq * 131u) % 3000; };
        if (r.rank == 0) {
            exchange(r, {}, {1, 2, 3}, 5000, length);
        } else {
            exchange(r, {0}, {}, 5000, length);
        }
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, AllToAllOnFourRanks)
{
    Job job(4);
    job.run([](Rank &r) {
        r.start();
        const size_t max = r.btl->btl_max_send_size;
        exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 2000,
                 [max](uint32_t seq) { return sizeof(FragHeader) + (size_t{seq} * 4099) % (max - sizeof(FragHeader)); });
    });
    EXPECT_JOB_OK(job);
}

// More ranks than cores, every pair talking at once, sizes from a few bytes (carried in the queue cell)
// to a whole fragment: from every sender, every receiver gets each fragment once, whole and in order.
TEST(BtlShm, ThirtyTwoRanksAllToAllKeepEveryPairsOrder)
{
    Job job(32);
    job.run(
        [](Rank &r) {
            r.start();
            const size_t max = r.btl->btl_max_send_size;
            const size_t lengths[] = {sizeof(FragHeader), 48, 49, 1000, max / 2, max};
            exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 60,
                     [&lengths](uint32_t seq) { return lengths[seq % std::size(lengths)]; });
        },
        240);
    EXPECT_JOB_OK(job);
}

// A tiny queue and pool per rank: senders wait for room all the time, and still nothing is lost,
// duplicated or reordered.
TEST(BtlShm, SixteenRanksThroughTinyQueuesAndPools)
{
    Job job(16, {{"btl_shm_fifo_depth", "2"}, {"btl_shm_fragments", "2"}, {"btl_shm_max_send_size", "4k"},
                 {"btl_shm_eager_limit", "1k"}});
    job.run(
        [](Rank &r) {
            r.start();
            exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 100,
                     [](uint32_t seq) { return sizeof(FragHeader) + (size_t{seq} * 977) % (4096 - sizeof(FragHeader)); });
        },
        240);
    EXPECT_JOB_OK(job);
}

// The segment is one region per local rank: 16 ranks take 16 regions, not 16 x 15 rings. (Named, so
// that its size can be read from /dev/shm.)
TEST(BtlShm, SegmentGrowsLinearlyWithLocalRanks)
{
    for (const uint32_t ranks : {2u, 16u}) {
        SCOPED_TRACE(ranks);
        Job job(ranks, {{"btl_shm_unnamed", "false"}});
        const std::string path = job.segment_path(0);
        job.run([path](Rank &r) {
            r.open();
            r.fence();
            if (r.rank == 0) {
                struct stat st {};
                SHM_CHECK(stat(path.c_str(), &st) == 0, path + " exists before the others attach");
                // Per rank: 32 fragments of 32 KiB (each with a 64-byte header line), 256 queue cells of
                // 64 bytes, 16 fast boxes of 64 cells and the queue's position line; one header line for
                // the segment.
                const uint64_t per_rank = 32 * (32768 + 64) + 256 * 64 + 16 * 64 * 64 + 64;
                const uint64_t expected = 64 + per_rank * r.size;
                SHM_CHECK(static_cast<uint64_t>(st.st_size) == expected,
                          "segment of " + std::to_string(st.st_size) + " bytes for " + std::to_string(r.size) +
                              " ranks, expected " + std::to_string(expected));
                SHM_CHECK(static_cast<uint64_t>(st.st_blocks) * 512 >= expected, "the memory is reserved");
            }
            r.barrier();
            r.add_procs();
            r.barrier();
        });
        EXPECT_JOB_OK(job);
    }
}

// A reservation larger than /dev/shm (named) or the host's memory (unnamed): local rank 0 says so once,
// naming the bytes needed, the bytes there are and the parameters; the other ranks stay quiet, nobody
// uses shm, nothing is left behind.
void too_small_is_reported_once(bool unnamed)
{
    Job job(3, {{"btl_shm_fragments", "65536"}, {"btl_shm_max_send_size", "64M"},
                {"btl_shm_unnamed", unnamed ? "true" : "false"}});
    job.run([unnamed](Rank &r) {
        tessera::mca::report_set_print(false);
        r.open();
        r.fence();
        if (r.rank != 0) {
            r.add_procs();
        }
        const auto errors = tessera::mca::reported(tessera::mca::Severity::Error);
        if (r.rank == 0) {
            SHM_CHECK(r.btl == nullptr, "no module without the memory");
            SHM_CHECK(errors.size() == 1, std::to_string(errors.size()) + " errors");
            const std::string &e = errors.front();
            for (const char *needle : {"needs 13194152362240 bytes", unnamed ? "bytes of memory available" : "bytes free",
                                       "btl_shm_fragments", "btl_shm_max_send_size", "btl_shm_fifo_depth",
                                       unnamed ? "unnamed" : "/dev/shm"}) {
                SHM_CHECK(e.find(needle) != std::string::npos, "'" + e + "' does not say " + needle);
            }
        } else {
            SHM_CHECK(errors.empty(), "rank " + std::to_string(r.rank) + " also reported: " + errors.front());
            for (mca_btl_base_endpoint_t *e : r.endpoints) {
                SHM_CHECK(e == nullptr, "no endpoint through an unusable segment");
            }
        }
        r.barrier();
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, TooSmallDevShmIsReportedOnceWithTheSizeAndTheParameters)
{
    too_small_is_reported_once(false);
}

TEST(BtlShm, TooLittleMemoryForTheUnnamedSegmentIsReportedOnce)
{
    too_small_is_reported_once(true);
}

// Lines of /proc/self/maps naming an unnamed btl shm segment, and the bytes they map.
uint64_t unnamed_mapping_bytes()
{
    uint64_t bytes = 0;
    if (FILE *f = std::fopen("/proc/self/maps", "r")) {
        char line[512];
        while (std::fgets(line, sizeof line, f) != nullptr) {
            unsigned long long from = 0, to = 0;
            if (std::strstr(line, "memfd:tessera-btl-shm") != nullptr && std::sscanf(line, "%llx-%llx", &from, &to) == 2) {
                bytes += to - from;
            }
        }
        std::fclose(f);
    }
    return bytes;
}

// Descriptors of this process open on an unnamed btl shm segment.
int unnamed_descriptors()
{
    int n = 0;
    for (int fd = 0; fd < 1024; ++fd) {
        char link[256] = {};
        const std::string path = "/proc/self/fd/" + std::to_string(fd);
        if (readlink(path.c_str(), link, sizeof link - 1) > 0 && std::strstr(link, "memfd:tessera-btl-shm") != nullptr) {
            ++n;
        }
    }
    return n;
}

// The default segment is unnamed: it is never in /dev/shm, not even between its creation and the last
// rank's attach (where a job killed then left the named one behind); every rank maps it, and local rank
// 0 closes the descriptor the others opened it through once they all have.
TEST(BtlShm, UnnamedSegmentIsNeverInDevShm)
{
    Job job(3, {{"btl_shm_peer_check_interval", "0.01"}});
    job.run([&job](Rank &r) {
        r.open();
        SHM_CHECK(job.leftovers().empty(), "in /dev/shm after local rank 0 made it: " + job.leftovers().front());
        if (r.rank == 0) {
            SHM_CHECK(unnamed_descriptors() == 1, "rank 0 holds the way in open until the others attached");
        }
        r.fence();
        r.add_procs();
        const uint64_t per_rank = 32 * (32768 + 64) + 256 * 64 + 16 * 64 * 64 + 64;
        const uint64_t bytes = (64 + per_rank * r.size + 4095) & ~uint64_t{4095};
        SHM_CHECK(unnamed_mapping_bytes() == bytes, "mapped " + std::to_string(unnamed_mapping_bytes()) +
                                                        " bytes of the unnamed segment, expected " + std::to_string(bytes));
        SHM_CHECK(r.rank == 0 || unnamed_descriptors() == 0, "a rank that attached keeps no descriptor");
        r.barrier();
        SHM_CHECK(job.leftovers().empty(), "in /dev/shm: " + job.leftovers().front());
        if (r.rank == 0) {
            // At a liveness check, every 1024 idle passes at the soonest: with the waiting ranks sharing
            // the two cores, each pass may give the core away.
            SHM_CHECK(r.progress_until([] { return unnamed_descriptors() == 0; }, 60),
                      "rank 0 still holds the descriptor after every rank attached");
        }
        r.barrier(); // nobody sends before rank 0's receive callback is registered
        exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 100, [](uint32_t seq) { return 16 + seq * 50; });
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, NamedSegmentIsNamedForTheJobAndGoneOnceEveryRankMappedIt)
{
    Job job(3, {{"btl_shm_unnamed", "false"}});
    const std::string path = job.segment_path(0);
    job.run([path](Rank &r) {
        r.open();
        r.fence();
        SHM_CHECK(access(path.c_str(), F_OK) == 0, path + " exists between the fence and the others' attach");
        r.barrier();
        r.add_procs();
        r.barrier();
        SHM_CHECK(access(path.c_str(), F_OK) != 0, path + " is still there after every rank attached");
        // Still usable: the mappings stay.
        exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 100, [](uint32_t) { return 64; });
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, NamedSegmentIsRemovedWhenARankNeverAttaches)
{
    Job job(2, {{"btl_shm_unnamed", "false"}});
    job.setup(1).params = {{"btl", "self"}}; // this rank does not run shm at all
    job.run([](Rank &r) {
        r.open();
        r.fence();
        if (r.rank == 0) {
            r.add_procs();
            SHM_CHECK(r.endpoints[1] == nullptr, "rank 1 runs no shm");
        }
        r.barrier();
    });
    EXPECT_JOB_OK(job); // rank 0's close removed the name nobody else counted in
}

TEST(BtlShm, SingletonMakesNoModuleAndNoSegment)
{
    Job job(1);
    job.run([](Rank &r) {
        r.singleton = true;
        r.open();
        SHM_CHECK(r.btl == nullptr, "a singleton has nobody to reach");
        r.fence();
    });
    EXPECT_JOB_OK(job);
}

// Rank 0 offers a buffer; rank 1 reads it directly.
void single_copy_read(Rank &r, size_t bytes)
{
    r.start();
    if (r.rank == 0) {
        std::vector<unsigned char> data(bytes);
        for (size_t i = 0; i < bytes; ++i) {
            data[i] = static_cast<unsigned char>(i * 13 + (i >> 12));
        }
        r.board->words[0].store(reinterpret_cast<uint64_t>(data.data()));
        r.barrier();
        r.barrier(); // the reader is done
    } else {
        r.barrier();
        SHM_CHECK((r.btl->btl_flags & MCA_BTL_FLAG_GET) != 0 && r.btl->btl_get != nullptr, "single copy offered");
        const uint64_t address = r.board->words[0].load();
        std::vector<unsigned char> got(bytes);
        const size_t piece = r.btl->btl_get_limit != 0 ? r.btl->btl_get_limit : bytes;
        for (size_t done = 0; done < bytes; done += piece) {
            const size_t n = std::min(piece, bytes - done);
            SHM_CHECK(r.btl->btl_get(r.btl, r.endpoints[0], got.data() + done, address + done, n) == TESSERA_SUCCESS,
                      "get");
        }
        for (size_t i = 0; i < bytes; ++i) {
            SHM_CHECK(got[i] == static_cast<unsigned char>(i * 13 + (i >> 12)), "byte " + std::to_string(i));
        }
        // An address the peer never mapped: not readable, the caller sends instead; later reads still work.
        unsigned char b = 0;
        SHM_CHECK(r.btl->btl_get(r.btl, r.endpoints[0], &b, 8, 1) == TESSERA_ERR_NOT_SUPPORTED, "unmapped address");
        SHM_CHECK(r.btl->btl_get(r.btl, r.endpoints[0], &b, address + 1, 1) == TESSERA_SUCCESS && b == 13, "again");
        r.barrier();
    }
}

TEST(BtlShm, SingleCopyForcedReadsThePeersBuffer)
{
    Job job(2, {{"btl_shm_single_copy", "cma"}, {"btl_shm_get_limit", "1M"}});
    job.run([](Rank &r) { single_copy_read(r, (size_t{6} << 20) + 12345); });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, SingleCopyAutoReadsWhereTheKernelAllows)
{
    Job job(2, {{"btl_shm_single_copy", "auto"}});
    job.run([](Rank &r) { single_copy_read(r, 100000); });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, SingleCopyNoneOffersNoGet)
{
    Job job(2, {{"btl_shm_single_copy", "none"}});
    job.run([](Rank &r) {
        r.start();
        SHM_CHECK((r.btl->btl_flags & MCA_BTL_FLAG_GET) == 0 && r.btl->btl_get == nullptr, "no single copy");
        r.barrier();
    });
    EXPECT_JOB_OK(job);
}

// Drops CAP_SYS_PTRACE from this process's effective set: with a peer that is not dumpable, the kernel
// then refuses process_vm_readv as it would for another user's process.
bool drop_ptrace_capability()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0) {
        return false;
    }
    data[CAP_SYS_PTRACE / 32].effective &= ~(1u << (CAP_SYS_PTRACE % 32));
    return syscall(SYS_capset, &header, data) == 0;
}

class BtlShmRefused : public ::testing::TestWithParam<const char *> {};

TEST_P(BtlShmRefused, SingleCopyRefusedFallsBackToTheRings)
{
    const std::string mode = GetParam();
    Job job(2, {{"btl_shm_single_copy", mode}});
    job.run([mode](Rank &r) {
        tessera::mca::report_clear();
        if (r.rank == 0) {
            SHM_CHECK(prctl(PR_SET_DUMPABLE, 0) == 0, "not dumpable");
        } else {
            SHM_CHECK(drop_ptrace_capability(), "capset");
        }
        r.start();
        if (r.rank == 1) {
            SHM_CHECK((r.btl->btl_flags & MCA_BTL_FLAG_GET) == 0, "the flag is cleared when no peer can be read");
            unsigned char b = 0;
            SHM_CHECK(r.btl->btl_get(r.btl, r.endpoints[0], &b, r.board->words[1].load(), 1) == TESSERA_ERR_NOT_SUPPORTED,
                      "get refused");
            const bool warned = reported(tessera::mca::Severity::Warning, "btl_shm_single_copy=cma");
            SHM_CHECK(warned == (mode == "cma"), "a warning only when cma was asked for by name");
        }
        exchange(r, {1 - r.rank}, {1 - r.rank}, 500, [](uint32_t seq) { return sizeof(FragHeader) + seq * 8; });
    });
    EXPECT_JOB_OK(job);
}

INSTANTIATE_TEST_SUITE_P(Modes, BtlShmRefused, ::testing::Values("cma", "auto"));

TEST(BtlShm, PeerThatDiesIsReportedOnce)
{
    Job job(3, {{"btl_shm_peer_check_interval", "0.05"}});
    job.run(
        [](Rank &r) {
            r.start();
            Inbox in; // before anything can arrive from the other survivor
            mca_btl_base_register_recv(kTag, check_fragment, &in);
            r.barrier();
            if (r.rank == 2) {
                raise(SIGKILL);
            }
            SHM_CHECK(r.progress_until([&] { return r.errors_reported > 0; }, 20), "death of rank 2 not reported");
            SHM_CHECK(r.error_proc == r.procs[2] && r.error_status == TESSERA_ERR_UNREACH, "reported for rank 2");
            // Said once; sends to it fail; the survivors still talk.
            r.progress_until([] { return false; }, 0.3);
            SHM_CHECK(r.errors_reported == 1, std::to_string(r.errors_reported) + " reports");
            const FragHeader dead{r.rank, 0, 0, sizeof(FragHeader)};
            SHM_CHECK(r.send(2, &dead, sizeof dead, nullptr, 0) == TESSERA_ERR_UNREACH, "send to the dead rank");
            const uint32_t other = 1 - r.rank;
            for (uint32_t seq = 0; seq < 100; ++seq) {
                SHM_CHECK(send_fragment(r, other, 0, seq, sizeof(FragHeader) + 100) == MCA_BTL_SEND_COMPLETE, "send");
            }
            SHM_CHECK(r.progress_until([&] { return in.received == 100; }), std::to_string(in.received));
            SHM_CHECK(in.problem.empty(), in.problem);
            mca_btl_base_register_recv(kTag, nullptr, nullptr);
        },
        60);
    const auto &s = job.statuses();
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(WIFEXITED(s[0]) && WEXITSTATUS(s[0]) == 0) << job.describe();
    EXPECT_TRUE(WIFEXITED(s[1]) && WEXITSTATUS(s[1]) == 0) << job.describe();
    EXPECT_TRUE(WIFSIGNALED(s[2]) && WTERMSIG(s[2]) == SIGKILL) << job.describe();
    EXPECT_TRUE(job.leftovers().empty());
}

// Fragments a dead receiver never freed come back to the sender's pool, which its other peers share:
// rank 0 fills its whole pool towards rank 2, rank 2 dies without reading, and rank 0 still streams
// to rank 1. Through the queue, and through a fast box (granted after the first fragment) whose cells
// name the fragments.
void fragments_held_by_a_dead_peer_come_back(const char *fast_box_after)
{
    Job job(3, {{"btl_shm_peer_check_interval", "0.05"}, {"btl_shm_fragments", "4"},
                {"btl_shm_fast_box_after", fast_box_after}});
    job.run(
        [](Rank &r) {
            r.start();
            Inbox in;
            mca_btl_base_register_recv(kTag, check_fragment, &in);
            if (r.rank == 0) {
                uint32_t taken = 0;
                for (;; ++taken) {
                    FragHeader h{0, 0, taken, sizeof(FragHeader) + 1000};
                    const mca_btl_base_segment_t segs[2] = {{&h, sizeof h}, {ramp() + seed(h), 1000}};
                    if (r.btl->btl_send(r.btl, r.endpoints[2], kTag, segs, 2, nullptr, nullptr) != MCA_BTL_SEND_COMPLETE) {
                        break;
                    }
                    SHM_CHECK(taken < 100, "the pool never ran out");
                }
                SHM_CHECK(taken == 4, "taken " + std::to_string(taken));
            }
            r.barrier();
            if (r.rank == 2) {
                raise(SIGKILL);
            }
            SHM_CHECK(r.progress_until([&] { return r.errors_reported > 0; }, 20), "death of rank 2 not reported");
            if (r.rank == 0) {
                for (uint32_t seq = 0; seq < 200; ++seq) {
                    SHM_CHECK(send_fragment(r, 1, 0, seq, sizeof(FragHeader) + 1000) == MCA_BTL_SEND_COMPLETE,
                              "send to rank 1");
                }
            } else {
                SHM_CHECK(r.progress_until([&] { return in.received == 200; }), std::to_string(in.received));
                SHM_CHECK(in.problem.empty(), in.problem);
            }
            mca_btl_base_register_recv(kTag, nullptr, nullptr);
        },
        60);
    const auto &s = job.statuses();
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(WIFEXITED(s[0]) && WEXITSTATUS(s[0]) == 0) << job.describe();
    EXPECT_TRUE(WIFEXITED(s[1]) && WEXITSTATUS(s[1]) == 0) << job.describe();
    EXPECT_TRUE(job.leftovers().empty());
}

TEST(BtlShm, FragmentsHeldByAPeerThatDiesComeBack)
{
    fragments_held_by_a_dead_peer_come_back("0");
}

TEST(BtlShm, FragmentsADeadPeerHeldThroughAFastBoxComeBack)
{
    fragments_held_by_a_dead_peer_come_back("1");
}

TEST(BtlShm, BadValuesAreRefusedNamingTheParameter)
{
    const std::vector<std::pair<shmtest::Params, std::string>> cases = {
        {{{"btl_shm_max_send_size", "16"}}, "btl_shm_max_send_size"},
        {{{"btl_shm_eager_limit", "64k"}, {"btl_shm_max_send_size", "32k"}}, "btl_shm_eager_limit"},
        {{{"btl_shm_fifo_depth", "1"}}, "btl_shm_fifo_depth"},
        {{{"btl_shm_fifo_depth", "100"}}, "btl_shm_fifo_depth"}, /* not a power of two */
        {{{"btl_shm_peer_check_interval", "-1"}}, "btl_shm_peer_check_interval"},
        {{{"btl_shm_fast_box_depth", "100"}}, "btl_shm_fast_box_depth"}, /* not a power of two */
        {{{"btl_shm_fast_box_depth", "1"}}, "btl_shm_fast_box_depth"},
        {{{"btl_shm_fast_box_depth", "131072"}}, "btl_shm_fast_box_depth"},
        {{{"btl_shm_fast_boxes", "5000"}}, "btl_shm_fast_boxes"},
        {{{"btl_shm_fast_box_after", "2000000000"}}, "btl_shm_fast_box_after"},
    };
    for (const auto &[params, name] : cases) {
        SCOPED_TRACE(name);
        Job job(2, params);
        // An init-capture: clang before 16 cannot capture a structured binding.
        job.run([name = name](Rank &r) {
            tessera::mca::report_set_print(false);
            r.open();
            SHM_CHECK(r.btl == nullptr, "a bad value must not give a module");
            SHM_CHECK(reported(tessera::mca::Severity::Error, name), "no error names " + name);
            r.fence();
        });
        EXPECT_JOB_OK(job);
    }
}

TEST(BtlShm, RanksWithOtherRingParametersAreRefused)
{
    Job job(2);
    job.setup(1).params = {{"btl_shm_fifo_depth", "8"}};
    job.run([](Rank &r) {
        tessera::mca::report_set_print(false);
        r.start();
        if (r.rank == 1) {
            SHM_CHECK(r.endpoints[0] == nullptr, "no endpoint through a segment made for other rings");
            SHM_CHECK(reported(tessera::mca::Severity::Error, "btl_shm_fifo_depth"), "error names the parameter");
        }
        r.barrier();
    });
    EXPECT_JOB_OK(job);
}

// Threads of rank 0 send to rank 1 at once (through rank 1's queue, then through the fast box rank 0
// granted it: one producer at a time under the endpoint's lock) while threads of rank 1 progress; each
// thread's stream arrives whole and in order. Also with a box of 4 cells, full most of the time.
void threads_send_and_progress(const shmtest::Params &params, uint32_t threads)
{
    Job job(2, params);
    job.run([threads](Rank &r) {
        r.start(true);
        constexpr uint32_t kCount = 20000;
        if (r.rank == 0) {
            std::vector<std::thread> senders;
            std::atomic<int> failures{0};
            for (uint32_t t = 0; t < threads; ++t) {
                senders.emplace_back([&r, &failures, t] {
                    for (uint32_t seq = 0; seq < kCount; ++seq) {
                        FragHeader h{0, t, seq, static_cast<uint32_t>(sizeof(FragHeader) + seq % 500)};
                        if (r.send(1, &h, sizeof h, ramp() + seed(h), h.length - sizeof h) != MCA_BTL_SEND_COMPLETE) {
                            ++failures;
                        }
                    }
                });
            }
            for (auto &t : senders) {
                t.join();
            }
            SHM_CHECK(failures == 0, "sends failed");
            r.barrier(true);
        } else {
            Inbox in;
            mca_btl_base_register_recv(kTag, check_fragment, &in);
            std::atomic<bool> done{false};
            std::vector<std::thread> progressors;
            for (int t = 0; t < 2; ++t) {
                progressors.emplace_back([&] {
                    while (!done.load()) {
                        if (r.progress() == 0) {
                            sched_yield();
                        }
                    }
                });
            }
            const auto start = std::chrono::steady_clock::now();
            while (in.received < threads * kCount && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            done = true;
            for (auto &t : progressors) {
                t.join();
            }
            SHM_CHECK(in.received == threads * kCount, std::to_string(in.received));
            SHM_CHECK(in.problem.empty(), in.problem);
            for (uint32_t t = 0; t < threads; ++t) {
                SHM_CHECK(in.next[t] == kCount, "stream " + std::to_string(t) + " complete");
            }
            mca_btl_base_register_recv(kTag, nullptr, nullptr);
            r.barrier(true);
        }
    });
    EXPECT_JOB_OK(job);
}

TEST(BtlShm, ThreadsSendAndProgressAtOnce)
{
    threads_send_and_progress({{"btl_shm_fast_box_after", "0"}}, 2);
}

TEST(BtlShm, ThreadsSendToOnePeerThroughAFastBox)
{
    threads_send_and_progress({{"btl_shm_fast_box_after", "1"}}, 4);
    threads_send_and_progress({{"btl_shm_fast_box_after", "3"}, {"btl_shm_fast_box_depth", "4"}}, 3);
}

// How many fragments rank 0 gets into rank 1 while rank 1 does not progress, after `warm_up` fragments
// that rank 1 received; then rank 1 drains, rank 0 sends on, and all 2000 arrive in order (sizes from
// a few bytes in the cell to fragments of the pool, around every switch).
uint32_t taken_before_push_back(const shmtest::Params &params, uint32_t warm_up)
{
    Job job(2, params);
    job.run([warm_up](Rank &r) {
        r.start();
        constexpr uint32_t kTotal = 2000;
        const size_t lengths[] = {sizeof(FragHeader), 48, 49, 200, 4000};
        auto length = [&lengths](uint32_t seq) { return lengths[seq % std::size(lengths)]; };
        Inbox in;
        mca_btl_base_register_recv(kTag, check_fragment, &in);
        if (r.rank == 0) {
            for (uint32_t seq = 0; seq < warm_up; ++seq) {
                SHM_CHECK(send_fragment(r, 1, 0, seq, length(seq)) == MCA_BTL_SEND_COMPLETE, "warm-up send");
            }
            r.barrier(true); // rank 1 received them
            uint32_t seq = warm_up;
            for (;; ++seq) {
                FragHeader h{0, 0, seq, static_cast<uint32_t>(length(seq))};
                const mca_btl_base_segment_t segs[2] = {{&h, sizeof h}, {ramp() + seed(h), h.length - sizeof h}};
                const int rc = r.btl->btl_send(r.btl, r.endpoints[1], kTag, segs, 2, nullptr, nullptr);
                if (rc == TESSERA_ERR_OUT_OF_RESOURCE) {
                    break;
                }
                SHM_CHECK(rc == MCA_BTL_SEND_COMPLETE && seq < kTotal, "send " + std::to_string(rc));
            }
            r.board->words[0].store(seq - warm_up);
            r.barrier();
            for (; seq < kTotal; ++seq) {
                SHM_CHECK(send_fragment(r, 1, 0, seq, length(seq)) == MCA_BTL_SEND_COMPLETE, "send");
            }
        } else {
            SHM_CHECK(r.progress_until([&] { return in.received == warm_up; }), std::to_string(in.received));
            r.barrier(true);
            r.barrier(); // rank 0 pushed until it could not
            SHM_CHECK(r.progress_until([&] { return in.received == kTotal; }), std::to_string(in.received));
            SHM_CHECK(in.problem.empty(), in.problem);
        }
        r.barrier(true);
        mca_btl_base_register_recv(kTag, nullptr, nullptr);
    });
    EXPECT_JOB_OK(job);
    return static_cast<uint32_t>(job.board()->words[0].load());
}

// After btl_shm_fast_box_after fragments through the queue the pair switches to a fast box: rank 0
// then has the box's cells in flight, not the queue's, and nothing is lost or reordered across the
// switch (the switch itself happens while rank 1 does not progress: 2 fragments and the grant in the
// queue, then the box).
TEST(BtlShm, APairSwitchesToAFastBoxAfterNFragments)
{
    const shmtest::Params base = {{"btl_shm_fifo_depth", "4"}, {"btl_shm_fast_box_depth", "16"},
                                  {"btl_shm_fragments", "64"}};
    auto with = [&base](std::initializer_list<std::pair<std::string, std::string>> more) {
        shmtest::Params p = base;
        p.insert(p.end(), more);
        return p;
    };
    // Switched during the warm-up: the box's 16 cells, then back-pressure (the queue stays empty).
    EXPECT_EQ(taken_before_push_back(with({{"btl_shm_fast_box_after", "2"}}), 100), 16u);
    // Switched while rank 1 sleeps: 2 fragments and the grant fill 3 of the queue's 4 cells, then 16.
    EXPECT_EQ(taken_before_push_back(with({{"btl_shm_fast_box_after", "2"}}), 0), 2u + 16u);
    // No boxes: the queue's 4 cells, whatever was sent before.
    EXPECT_EQ(taken_before_push_back(with({{"btl_shm_fast_box_after", "0"}}), 100), 4u);
    EXPECT_EQ(taken_before_push_back(with({{"btl_shm_fast_boxes", "0"}}), 100), 4u);
}

// Four senders to one receiver that polls at most two boxes: two senders get one, the other two stay on
// the queue; every stream arrives whole and in order, in mixed sizes, while the others keep sending.
TEST(BtlShm, SendersWithFastBoxesAndSendersOnTheQueueToOneReceiver)
{
    Job job(5, {{"btl_shm_fast_boxes", "2"}, {"btl_shm_fast_box_after", "8"}, {"btl_shm_fast_box_depth", "8"}});
    job.run(
        [](Rank &r) {
            r.start();
            const size_t lengths[] = {sizeof(FragHeader), 48, 49, 3000, 20000};
            auto length = [&lengths](uint32_t seq) { return lengths[(seq * 7 + 3) % std::size(lengths)]; };
            if (r.rank == 0) {
                exchange(r, {}, {1, 2, 3, 4}, 4000, length);
            } else {
                exchange(r, {0}, {}, 4000, length);
            }
        },
        120);
    EXPECT_JOB_OK(job);
}

// Ranks on 2 cores exchanging with everybody: every pair switches to boxes, a rank gives and is given
// at most btl_shm_fast_boxes (here 3 of 7 peers), the rest go through the queues.
TEST(BtlShm, EightRanksAllToAllWithSomePairsInFastBoxes)
{
    Job job(8, {{"btl_shm_fast_boxes", "3"}, {"btl_shm_fast_box_after", "5"}, {"btl_shm_fast_box_depth", "4"}});
    job.run(
        [](Rank &r) {
            r.start();
            const size_t max = r.btl->btl_max_send_size;
            const size_t lengths[] = {sizeof(FragHeader), 48, 49, 1000, max / 2, max};
            exchange(r, all_but(r.rank, r.size), all_but(r.rank, r.size), 300,
                     [&lengths](uint32_t seq) { return lengths[seq % std::size(lengths)]; });
        },
        240);
    EXPECT_JOB_OK(job);
}

} // namespace
