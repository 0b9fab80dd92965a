// Test support for btl shm: a job of forked ranks on one "host". The ranks share a modex board (cards
// and a barrier) in an anonymous shared mapping made before the fork, install it as their modex
// backend, and open the btl framework with only shm, as MPI_Init would. Each rank runs the test's
// body and reports failures on stderr and in its exit code; the parent waits with a timeout, kills
// what is left, and can look for leftovers in /dev/shm.
#ifndef TESSERA_TESTS_UNIT_BTL_SHM_SHM_JOB_H
#define TESSERA_TESTS_UNIT_BTL_SHM_SHM_JOB_H

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/btl/btl.h"

namespace shmtest {

inline constexpr uint32_t kMaxRanks = 32;
inline constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_USER + 1;

// Lives in shared memory: the cards each rank put, a barrier, and words the tests share.
struct Board {
    std::atomic<uint32_t> arrived;
    std::atomic<uint32_t> generation;
    struct Card {
        std::atomic<uint32_t> ready;
        uint32_t len;
        char key[32];
        unsigned char data[224];
    } cards[kMaxRanks][4];
    std::atomic<uint64_t> words[64];
};

using Params = std::vector<std::pair<std::string, std::string>>;

// One rank of the job, in its own process.
class Rank {
public:
    uint32_t rank = 0;
    uint32_t size = 0;
    uint32_t jobid = 0;
    Board *board = nullptr;
    mca_btl_base_module_t *btl = nullptr; // null when shm declined
    std::vector<tessera_proc_t *> procs;  // by rank; procs[rank] is this process
    std::vector<mca_btl_base_endpoint_t *> endpoints;
    int errors_reported = 0;               // mca_btl_base_report_error calls seen
    tessera_proc_t *error_proc = nullptr;
    int error_status = 0;

    // Installs job info and modex, opens the btl framework with only shm, selects. Local rank and
    // size default to rank and size (one host).
    void open(bool threads = false);
    void fence();        // every rank's cards are readable after it
    void add_procs();    // offers every rank of the job to the module
    void start(bool threads = false) { open(threads); fence(); add_procs(); }
    void close();        // del_procs, framework close, modex removed

    void barrier(bool progressing = false);
    int progress();
    // Sends header + payload to `peer`, progressing while the ring is full. Returns the module's answer.
    int send(uint32_t peer, const void *header, size_t header_len, const void *payload, size_t payload_len,
             mca_btl_base_tag_t tag = kTag);
    // Progresses until pred() holds or `seconds` pass; whether it held.
    bool progress_until(const std::function<bool()> &pred, double seconds = 20);

    bool yield = true; // give the core away while waiting (ranks may outnumber cores)
    uint32_t local_rank = 0;
    uint32_t local_size = 0;
    uint32_t node_id = 0;
    bool singleton = false;
};

// Reports a failed check of a rank (file:line and text) and ends that rank with exit code 1.
[[noreturn]] void fail(const char *file, int line, const std::string &what);
#define SHM_CHECK(cond, what)                                                                                     \
    do {                                                                                                          \
        if (!(cond)) {                                                                                            \
            ::shmtest::fail(__FILE__, __LINE__, std::string(#cond ": ") + (what));                                \
        }                                                                                                         \
    } while (0)

struct RankSetup {
    Params params;               // --mca settings of this rank (after the job's)
    uint32_t local_rank = ~0u;   // default: the rank
    uint32_t local_size = 0;     // default: the job size
    uint32_t node_id = 0;
};

class Job {
public:
    explicit Job(uint32_t ranks, Params params = {});
    ~Job();
    Job(const Job &) = delete;
    Job &operator=(const Job &) = delete;

    RankSetup &setup(uint32_t rank) { return setups_[rank]; }
    // Forks the ranks, runs body in each (then closes what the body left open), waits up to
    // `timeout` seconds; a rank still running then is killed and counts as a failure.
    void run(const std::function<void(Rank &)> &body, double timeout = 60);
    // Wait status of each rank, from the last run.
    const std::vector<int> &statuses() const { return statuses_; }
    bool all_exited_ok() const;
    std::string describe() const; // statuses as text, for failure messages
    // Names in /dev/shm that belong to this job ("tessera-<jobid>-...").
    std::vector<std::string> leftovers() const;
    uint32_t jobid() const { return jobid_; }
    Board *board() const { return board_; }
    std::string segment_path(uint32_t node = 0) const;

private:
    uint32_t ranks_;
    uint32_t jobid_;
    Params params_;
    std::vector<RankSetup> setups_;
    Board *board_ = nullptr;
    std::vector<int> statuses_;
};

} // namespace shmtest

#endif
