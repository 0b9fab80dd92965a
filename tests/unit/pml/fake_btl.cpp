#include "fake_btl.h"

#include <algorithm>
#include <cstring>
#include <random>

#include "mca/constants.h"
#include "ompi/communicator/communicator.h"
#include "ompi/pml/pml_wire.h"

namespace tessera::test {

namespace {

/* An endpoint names the rank it reaches; the engine never looks inside. */
mca_btl_base_endpoint_t *endpoint_of(int rank)
{
    return reinterpret_cast<mca_btl_base_endpoint_t *>(static_cast<uintptr_t>(rank) + 1);
}

int rank_of(const mca_btl_base_endpoint_t *endpoint)
{
    return static_cast<int>(reinterpret_cast<uintptr_t>(endpoint) - 1);
}

} // namespace

FakeBtl::FakeBtl(int ranks, const std::vector<FakeModuleSpec> &modules)
{
    for (std::size_t i = 0; i < modules.size(); ++i) {
        names_.push_back("fake:" + std::to_string(i));
    }
    for (std::size_t i = 0; i < modules.size(); ++i) {
        auto m = std::make_unique<mca_btl_base_module_t>();
        std::memset(m.get(), 0, sizeof *m);
        m->btl_name = names_[i].c_str();
        m->btl_eager_limit = modules[i].eager_limit;
        m->btl_max_send_size = modules[i].max_send_size;
        m->btl_exclusivity = MCA_BTL_EXCLUSIVITY_DEFAULT;
        m->btl_latency = static_cast<uint32_t>(1000 + i);
        m->btl_bandwidth = modules[i].bandwidth;
        m->btl_flags = MCA_BTL_FLAG_SEND | (modules[i].get ? MCA_BTL_FLAG_GET : 0u);
        m->btl_send = send;
        m->btl_get = modules[i].get ? get : nullptr;
        m->module_state = this;
        modules_.push_back(std::move(m));
    }
    sent_per_module.assign(modules.size(), 0);
    for (int r = 0; r < ranks; ++r) {
        tessera_proc_t *proc = tessera_proc_create({1, static_cast<uint32_t>(r)}, "fakehost",
                                                   r == 0 ? TESSERA_PROC_IS_SELF | TESSERA_PROC_ON_NODE
                                                          : TESSERA_PROC_ON_NODE);
        auto peer = std::make_unique<mca_btl_base_peer_t>();
        std::memset(peer.get(), 0, sizeof *peer);
        peer->count = modules_.size();
        peer->exclusivity = MCA_BTL_EXCLUSIVITY_DEFAULT;
        for (std::size_t i = 0; i < modules_.size(); ++i) {
            peer->modules[i] = {modules_[i].get(), endpoint_of(r)};
        }
        proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL] = peer.get();
        procs_.push_back(proc);
        peers_.push_back(std::move(peer));
    }
}

FakeBtl::~FakeBtl()
{
    for (tessera_proc_t *proc : procs_) {
        proc->proc_endpoint[TESSERA_ENDPOINT_TAG_BTL] = nullptr;
        tessera_proc_destroy(proc);
    }
}

int FakeBtl::send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
                  const mca_btl_base_segment_t *segments, std::size_t segment_count,
                  mca_btl_base_send_done_fn_t done, void *done_data)
{
    auto *self = static_cast<FakeBtl *>(btl->module_state);
    if (tag != MCA_BTL_TAG_PML) {
        return TESSERA_ERR_BAD_PARAM;
    }
    std::lock_guard lock(self->mutex);
    if (self->refuse > 0) {
        --self->refuse;
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    FakeFragment f;
    for (std::size_t i = 0; i < self->modules_.size(); ++i) {
        if (self->modules_[i].get() == btl) {
            f.module = i;
        }
    }
    f.dest = rank_of(endpoint);
    for (std::size_t i = 0; i < segment_count; ++i) {
        const auto *p = static_cast<const char *>(segments[i].seg_addr);
        f.bytes.insert(f.bytes.end(), p, p + segments[i].seg_len);
    }
    if (f.bytes.size() > btl->btl_max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    ++self->sent_per_module[f.module];
    if (self->hold && done != nullptr) {
        f.done = done;
        f.done_data = done_data;
        self->wire.push_back(std::move(f));
        return TESSERA_SUCCESS;
    }
    self->wire.push_back(std::move(f));
    return MCA_BTL_SEND_COMPLETE;
}

int FakeBtl::get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *, void *local, uint64_t remote,
                 std::size_t len)
{
    auto *self = static_cast<FakeBtl *>(btl->module_state);
    ++self->gets;
    if (self->get_result != TESSERA_SUCCESS) {
        return self->get_result;
    }
    std::memcpy(local, reinterpret_cast<const void *>(static_cast<uintptr_t>(remote)), len);
    return TESSERA_SUCCESS;
}

int FakeBtl::type_at(std::size_t index) const
{
    return static_cast<unsigned char>(wire.at(index).bytes.at(0));
}

void FakeBtl::deliver(std::size_t index)
{
    std::unique_lock lock(mutex);
    FakeFragment f = std::move(wire.at(index));
    wire.erase(wire.begin() + static_cast<std::ptrdiff_t>(index));
    lock.unlock();
    const auto type = static_cast<ompi::pml::FragType>(f.bytes[0]);
    if (type == ompi::pml::FragType::Eager || type == ompi::pml::FragType::Rts) {
        /* Back from rank `dest`: in MPI_COMM_WORLD the message now names that rank as its source. */
        ompi::pml::MatchHeader h;
        std::memcpy(&h, f.bytes.data(), sizeof h);
        if (h.context == ompi::kContextWorld) {
            h.source = f.dest;
            std::memcpy(f.bytes.data(), &h, sizeof h);
        }
    }
    std::vector<mca_btl_base_segment_t> segments;
    const std::size_t pieces = std::max<std::size_t>(1, std::min(delivery_segments, f.bytes.size()));
    std::size_t at = 0;
    for (std::size_t i = 0; i < pieces; ++i) {
        const std::size_t n = i + 1 == pieces ? f.bytes.size() - at : f.bytes.size() / pieces;
        segments.push_back({f.bytes.data() + at, n});
        at += n;
    }
    mca_btl_base_module_t *module = modules_[f.module].get();
    const mca_btl_base_recv_desc_t desc{endpoint_of(f.dest), procs_[static_cast<std::size_t>(f.dest)],
                                        segments.data(), segments.size(), MCA_BTL_TAG_PML};
    mca_btl_base_deliver(module, &desc);
    if (f.done != nullptr) {
        f.done(module, endpoint_of(f.dest), f.done_data, TESSERA_SUCCESS);
    }
}

int FakeBtl::deliver_some()
{
    std::size_t n = 0;
    {
        std::lock_guard lock(mutex);
        n = wire.size();
    }
    for (std::size_t i = 0; i < n; ++i) {
        deliver(0);
    }
    return static_cast<int>(n);
}

void FakeBtl::deliver_all()
{
    while (!wire.empty()) {
        deliver(0);
    }
}

void FakeBtl::deliver_all_newest_first()
{
    while (!wire.empty()) {
        deliver(wire.size() - 1);
    }
}

void FakeBtl::deliver_all_shuffled(uint32_t seed)
{
    std::mt19937 random(seed);
    while (!wire.empty()) {
        deliver(std::uniform_int_distribution<std::size_t>(0, wire.size() - 1)(random));
    }
}

} // namespace tessera::test
