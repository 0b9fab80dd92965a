/* Each OTF2 collective is one allgather: every rank contributes what it has, and takes what the
 * operation gives it. OTF2 calls them a few times per run (archive creation and close), so simplicity
 * wins over the bytes moved. */
#include "components/trace/otf2/trace_otf2_collectives.h"

#include <cstring>
#include <vector>

#include "mca/constants.h"

namespace tessera::ompi::trace_otf2 {

namespace {

using Blocks = std::vector<std::vector<unsigned char>>;

size_t type_size(OTF2_Type type)
{
    switch (type) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8:
        return 1;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16:
        return 2;
    case OTF2_TYPE_UINT32:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_FLOAT:
        return 4;
    default:
        return 8; /* 64-bit integers and doubles: the remaining value types OTF2 collects */
    }
}

/* Every rank's bytes, by rank; false when the exchange failed (at every rank alike). */
bool exchange(OTF2_CollectiveContext *ctx, const void *data, size_t size, Blocks *out)
{
    const mca_trace_base_job_info_t &job = *ctx->job;
    out->assign(static_cast<size_t>(job.world_size), {});
    if (job.allgather == nullptr) {
        if (job.world_size != 1) {
            return false;
        }
        const auto *p = static_cast<const unsigned char *>(data);
        (*out)[0].assign(p, p + size);
        return true;
    }
    auto deliver = [](void *c, int rank, const void *d, size_t n) {
        auto *blocks = static_cast<Blocks *>(c);
        if (rank >= 0 && static_cast<size_t>(rank) < blocks->size()) {
            const auto *p = static_cast<const unsigned char *>(d);
            (*blocks)[static_cast<size_t>(rank)].assign(p, p + n);
        }
    };
    return job.allgather(data, size, deliver, out) == TESSERA_SUCCESS;
}

OTF2_CallbackCode result(bool ok)
{
    return ok ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

OTF2_CallbackCode get_size(void *, OTF2_CollectiveContext *ctx, uint32_t *size)
{
    *size = static_cast<uint32_t>(ctx->job->world_size);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode get_rank(void *, OTF2_CollectiveContext *ctx, uint32_t *rank)
{
    *rank = static_cast<uint32_t>(ctx->job->world_rank);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode create_local_comm(void *, OTF2_CollectiveContext **local, OTF2_CollectiveContext *, uint32_t,
                                    uint32_t, uint32_t, uint32_t, uint32_t, uint32_t)
{
    *local = nullptr; /* only the SION substrate uses local contexts; this archive is POSIX */
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode free_local_comm(void *, OTF2_CollectiveContext *)
{
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode barrier(void *, OTF2_CollectiveContext *ctx)
{
    Blocks all;
    return result(exchange(ctx, nullptr, 0, &all));
}

OTF2_CallbackCode bcast(void *, OTF2_CollectiveContext *ctx, void *data, uint32_t n, OTF2_Type type, uint32_t root)
{
    const size_t bytes = n * type_size(type);
    const bool is_root = static_cast<uint32_t>(ctx->job->world_rank) == root;
    Blocks all;
    if (!exchange(ctx, data, is_root ? bytes : 0, &all) || root >= all.size() || all[root].size() != bytes) {
        return OTF2_CALLBACK_ERROR;
    }
    std::memcpy(data, all[root].data(), bytes);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode gatherv(void *, OTF2_CollectiveContext *ctx, const void *in, uint32_t in_n, void *out,
                          const uint32_t *out_n, OTF2_Type type, uint32_t root)
{
    const size_t elem = type_size(type);
    Blocks all;
    if (!exchange(ctx, in, in_n * elem, &all)) {
        return OTF2_CALLBACK_ERROR;
    }
    if (static_cast<uint32_t>(ctx->job->world_rank) == root) {
        auto *dst = static_cast<unsigned char *>(out);
        for (size_t r = 0; r < all.size(); ++r) {
            if (all[r].size() != out_n[r] * elem) {
                return OTF2_CALLBACK_ERROR;
            }
            std::memcpy(dst, all[r].data(), all[r].size());
            dst += all[r].size();
        }
    }
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode gather(void *u, OTF2_CollectiveContext *ctx, const void *in, void *out, uint32_t n, OTF2_Type type,
                         uint32_t root)
{
    const std::vector<uint32_t> counts(static_cast<size_t>(ctx->job->world_size), n);
    return gatherv(u, ctx, in, n, out, counts.data(), type, root);
}

/* The root contributes every block; each rank keeps its own. */
OTF2_CallbackCode scatterv(void *, OTF2_CollectiveContext *ctx, const void *in, const uint32_t *in_n, void *out,
                           uint32_t out_n, OTF2_Type type, uint32_t root)
{
    const size_t elem = type_size(type);
    const size_t nranks = static_cast<size_t>(ctx->job->world_size);
    const bool is_root = static_cast<uint32_t>(ctx->job->world_rank) == root;
    std::vector<unsigned char> mine;
    if (is_root) {
        size_t total = 0;
        for (size_t r = 0; r < nranks; ++r) {
            total += in_n[r] * elem;
        }
        mine.resize(nranks * sizeof(uint32_t) + total);
        std::memcpy(mine.data(), in_n, nranks * sizeof(uint32_t));
        std::memcpy(mine.data() + nranks * sizeof(uint32_t), in, total);
    }
    Blocks all;
    if (!exchange(ctx, mine.data(), mine.size(), &all) || root >= all.size() ||
        all[root].size() < nranks * sizeof(uint32_t)) {
        return OTF2_CALLBACK_ERROR;
    }
    const unsigned char *block = all[root].data();
    std::vector<uint32_t> counts(nranks);
    std::memcpy(counts.data(), block, nranks * sizeof(uint32_t));
    size_t offset = nranks * sizeof(uint32_t);
    const auto me = static_cast<size_t>(ctx->job->world_rank);
    for (size_t r = 0; r < me; ++r) {
        offset += counts[r] * elem;
    }
    if (counts[me] != out_n || offset + out_n * elem > all[root].size()) {
        return OTF2_CALLBACK_ERROR;
    }
    std::memcpy(out, block + offset, out_n * elem);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode scatter(void *u, OTF2_CollectiveContext *ctx, const void *in, void *out, uint32_t n, OTF2_Type type,
                          uint32_t root)
{
    const std::vector<uint32_t> counts(static_cast<size_t>(ctx->job->world_size), n);
    return scatterv(u, ctx, in, counts.data(), out, n, type, root);
}

void release(void *, OTF2_CollectiveContext *, OTF2_CollectiveContext *) {}

const OTF2_CollectiveCallbacks callbacks = {
    release, get_size, get_rank, create_local_comm, free_local_comm, barrier, bcast, gather, gatherv, scatter,
    scatterv,
};

} // namespace

const OTF2_CollectiveCallbacks *collective_callbacks()
{
    return &callbacks;
}

} // namespace tessera::ompi::trace_otf2
