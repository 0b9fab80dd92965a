// A job of forked processes for the btl tcp tests: each child is a rank that opens the btl framework
// through the MCA core as MPI_Init does, with a modex of the test's own (a shared anonymous mapping
// made before the fork holds every rank's cards, plus a barrier that stands in for the fence), adds
// every rank's proc and runs the test's body. The parent collects how each child ended and kills
// whatever is left when the job's time is up.
#ifndef TESSERA_TESTS_UNIT_BTL_TCP_TCP_JOB_H
#define TESSERA_TESTS_UNIT_BTL_TCP_TCP_JOB_H

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "frameworks/btl/base/base.h"

namespace tcptest {

constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_USER + 5;
constexpr uint32_t kJobId = 4242;
// 64 hex digits, like the runtime's keys.
constexpr const char *kJobKey = "5e5f0c0d2b1a09f8e7d6c5b4a3928170665544332211ffeeddccbbaa99887766";

struct Options {
    int size = 2;
    std::vector<std::pair<std::string, std::string>> params; // MCA settings, e.g. {"btl_tcp_links", "4"}
    std::vector<std::string> hosts;                          // per rank; empty: this machine's name
    double timeout = 30;                                     // seconds for the whole job
    bool mpi_threads = false;                                // btl_init's enable_mpi_threads
};

// What a rank's body works with.
struct Rank {
    int rank = 0;
    int size = 0;
    std::vector<tessera_proc_t *> procs;
    bool final_barrier = true; // false: leave at once (the peer is gone)

    // Waits for every rank (progressing the btl meanwhile); false on timeout.
    bool barrier(double timeout = 20);
    // Hands text to the parent (Outcome::note), e.g. a measured figure.
    void note(const std::string &text);
    // The modules that reach rank r (NULL set: unreachable).
    mca_btl_base_peer_t *peer(int r) const { return mca_btl_base_peer(procs[static_cast<size_t>(r)]); }
};

// How one child ended.
struct Outcome {
    bool exited = false;
    int code = -1;
    int signal = 0;
    bool timed_out = false;
    std::string message; // what the body returned ("" when it passed)
    std::string note;    // what the body gave Rank::note
};

// The body returns "" when the rank's checks passed, else what went wrong.
using Body = std::function<std::string(Rank &)>;

std::vector<Outcome> run_job(const Options &options, const Body &body);

// "" when every rank exited 0, else one line per rank that did not.
std::string describe_failures(const std::vector<Outcome> &outcomes);

// Runs `fn` in a child (fresh MCA state, parameters set), returns what it wrote to `out` and its
// exit code in *code.
std::string in_child(const std::function<std::string()> &fn, int *code = nullptr);

// Sends one fragment, retrying while the module asks to (progressing meanwhile). Returns the
// module's answer.
int send_retry(mca_btl_base_module_t *m, mca_btl_base_endpoint_t *ep, const mca_btl_base_segment_t *segments,
               size_t count, mca_btl_base_send_done_fn_t done = nullptr, void *done_data = nullptr,
               double timeout = 10);

// ESTABLISHED TCP sockets this process holds: (local, remote) "a.b.c.d:port" pairs.
std::vector<std::pair<std::string, std::string>> established_sockets();

} // namespace tcptest

#endif
