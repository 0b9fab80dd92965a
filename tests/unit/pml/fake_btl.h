/*
 * A loopback btl for driving the point-to-point engine inside one process: every module reaches every
 * rank of a pretend world in which this process is rank 0, and a fragment sent to rank k is kept in a
 * queue until the test delivers it back to this process as if rank k had sent it. The test chooses the
 * order of delivery (across modules, against the one-module FIFO promise when it wants to see the
 * engine's sequence holding), refuses sends to exercise retries, and keeps fragments "in the wire" to
 * watch the pipeline depth.
 */
#ifndef TESSERA_TESTS_UNIT_PML_FAKE_BTL_H
#define TESSERA_TESTS_UNIT_PML_FAKE_BTL_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frameworks/btl/base/base.h"

namespace tessera::test {

struct FakeModuleSpec {
    std::size_t eager_limit = 4096;
    std::size_t max_send_size = 4096;
    uint32_t bandwidth = 1000;
    bool get = false; /* offers btl_get (single copy) */
};

struct FakeFragment {
    std::size_t module = 0; /* index in the modules */
    int dest = 0;           /* the rank it was sent to, and the rank it comes back from */
    std::vector<char> bytes;
    mca_btl_base_send_done_fn_t done = nullptr; /* set when the send returned TESSERA_SUCCESS */
    void *done_data = nullptr;
};

class FakeBtl {
public:
    FakeBtl(int ranks, const std::vector<FakeModuleSpec> &modules);
    ~FakeBtl();
    FakeBtl(const FakeBtl &) = delete;
    FakeBtl &operator=(const FakeBtl &) = delete;

    std::vector<tessera_proc_t *> procs() const { return procs_; }
    std::size_t module_count() const { return modules_.size(); }

    /* Fragments sent and not delivered yet, oldest first. */
    std::deque<FakeFragment> wire;

    /* Delivers wire[index] (removing it first: the engine may send while it handles it). */
    void deliver(std::size_t index);
    /* Delivers the oldest fragment until the wire is empty, including those sent meanwhile. */
    void deliver_all();
    /* Delivers what is on the wire now, oldest first; returns how many. For a progress hook while
     * several threads send (send() and the wire are under `mutex`). */
    int deliver_some();
    /* Delivers the newest fragment first, until the wire is empty. */
    void deliver_all_newest_first();
    /* Delivers in a pseudo-random order (fixed seed), until the wire is empty. */
    void deliver_all_shuffled(uint32_t seed);

    /* The type byte of wire[index] (pml_wire.h FragType). */
    int type_at(std::size_t index) const;

    /* Behaviour of send(): refuse the next `refuse` sends with TESSERA_ERR_OUT_OF_RESOURCE; with
     * `hold`, a taken send returns TESSERA_SUCCESS and its done callback runs at delivery. */
    int refuse = 0;
    bool hold = false;
    /* Delivery hands a fragment over in this many segments (the engine must gather them). */
    std::size_t delivery_segments = 1;
    /* What btl_get() answers; it copies only on TESSERA_SUCCESS. */
    int get_result = 0;
    std::size_t gets = 0;
    std::vector<std::size_t> sent_per_module;
    /* Guards the wire and the counters: threads may send while a progress pass delivers. */
    std::mutex mutex;

private:
    static int send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
                    const mca_btl_base_segment_t *segments, std::size_t segment_count,
                    mca_btl_base_send_done_fn_t done, void *done_data);
    static int get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, void *local, uint64_t remote,
                   std::size_t len);

    std::vector<std::unique_ptr<mca_btl_base_module_t>> modules_;
    std::vector<std::string> names_;
    std::vector<tessera_proc_t *> procs_;
    std::vector<std::unique_ptr<mca_btl_base_peer_t>> peers_;
};

} // namespace tessera::test

#endif
