#include "ompi/trace/trace_exchange.h"

#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "frameworks/ess/base/base.h"
#include "mca/constants.h"
#include "ompi/runtime/runtime.h"
#include "ompi/trace/trace_queries.h"

namespace tessera::ompi::trace {

namespace {

bool window_open = false;

int through_ess(const void *data, size_t size, int nranks, mca_trace_base_deliver_fn_t deliver, void *ctx)
{
    /* A key per round: the launcher keeps every round's values. */
    static unsigned round = 0;
    const std::string key = "tessera.trace." + std::to_string(round++);
    const auto *bytes = static_cast<const std::byte *>(data);
    if (orte::ess::put(key, std::span<const std::byte>(bytes, size)) != TESSERA_SUCCESS ||
        orte::ess::commit() != TESSERA_SUCCESS || orte::ess::fence(true) != TESSERA_SUCCESS) {
        return TESSERA_ERR_IO;
    }
    for (int r = 0; r < nranks; ++r) {
        auto value = orte::ess::get(r, key);
        if (!value) {
            return TESSERA_ERR_IO;
        }
        deliver(ctx, r, value->data(), value->size());
    }
    return TESSERA_SUCCESS;
}

int through_mpi(const void *data, size_t size, int nranks, mca_trace_base_deliver_fn_t deliver, void *ctx)
{
    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;
    uint64_t mine = size;
    std::vector<uint64_t> sizes(static_cast<size_t>(nranks));
    if (t.Allgather(&mine, 8, MPI_BYTE, sizes.data(), 8, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS) {
        return TESSERA_ERR_IO;
    }
    std::vector<int> counts(static_cast<size_t>(nranks));
    std::vector<int> displs(static_cast<size_t>(nranks));
    uint64_t total = 0;
    for (int r = 0; r < nranks; ++r) {
        if (sizes[r] > INT_MAX || total > INT_MAX - sizes[r]) {
            return TESSERA_ERR_BAD_PARAM; /* every rank sees the same sizes, so all give up together */
        }
        counts[r] = static_cast<int>(sizes[r]);
        displs[r] = static_cast<int>(total);
        total += sizes[r];
    }
    std::vector<unsigned char> all(total + 1);
    if (t.Allgatherv(data, static_cast<int>(size), MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                     MPI_COMM_WORLD) != MPI_SUCCESS) {
        return TESSERA_ERR_IO;
    }
    for (int r = 0; r < nranks; ++r) {
        deliver(ctx, r, all.data() + displs[r], static_cast<size_t>(counts[r]));
    }
    return TESSERA_SUCCESS;
}

} // namespace

CollectiveWindow::CollectiveWindow()
{
    window_open = true;
}

CollectiveWindow::~CollectiveWindow()
{
    window_open = false;
}

int allgather(const void *data, size_t size, mca_trace_base_deliver_fn_t deliver, void *ctx)
{
    if (!window_open) {
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    const int nranks = world_size();
    Runtime &rt = runtime();
    if (!rt.launch.singleton && orte::ess::active() && mpi_initialized()) {
        return through_ess(data, size, nranks, deliver, ctx);
    }
    if (TESSERA_TRACE_PROVIDED(Allgather) && TESSERA_TRACE_PROVIDED(Allgatherv)) {
        return through_mpi(data, size, nranks, deliver, ctx);
    }
    if (nranks == 1) {
        deliver(ctx, 0, data, size);
        return TESSERA_SUCCESS;
    }
    return TESSERA_ERR_NOT_AVAILABLE;
}

} // namespace tessera::ompi::trace
