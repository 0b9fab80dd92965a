/*
 * osc am, fence epochs (MPI-4.1 12.5.1): MPI_Put, MPI_Get and MPI_Accumulate send their request at
 * once; the fence that closes the epoch learns how many requests each process was sent (a
 * reduce-scatter of the counts), serves that many in arrival order (MPI_Accumulate's ordering: one
 * origin's requests to a target are served in the order it made them), then completes this process's
 * own sends and receives. Request and data tags alternate with the epoch, so that a process already in
 * the next epoch cannot have its requests taken for the last one's.
 */
#include <algorithm>
#include <cstring>

#include "components/osc/am/osc_am.h"
#include "ompi/datatype/datatype.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/op/op.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::osc_am {

namespace {

/* Sends the request of an operation; a Put's or Accumulate's data follows it (send_data). */
int send_request(Module &m, Kind kind, const Datatype *target_type, std::size_t bytes, int target,
                 std::ptrdiff_t target_disp, std::size_t target_count, const Datatype *basic, const Op *reduction)
{
    Window &w = *m.w;
    std::vector<mca_dte_elem_t> desc;
    if (!target_type->contiguous) {
        datatype_describe(target_type, &desc);
    }
    RequestHeader h{};
    h.kind = kind;
    h.elems = static_cast<std::uint32_t>(desc.size());
    h.disp_bytes = target_disp * w.targets[static_cast<std::size_t>(target)].disp_unit +
                   (target_type->contiguous ? target_type->true_lb : 0);
    h.count = target_count;
    h.extent = target_type->extent;
    h.bytes = bytes;
    h.basic = reinterpret_cast<std::uint64_t>(basic != nullptr ? datatype_handle(basic) : MPI_DATATYPE_NULL);
    h.op = reinterpret_cast<std::uint64_t>(reduction != nullptr ? op_handle(reduction) : MPI_OP_NULL);
    std::vector<char> msg(sizeof h + desc.size() * sizeof(mca_dte_elem_t));
    std::memcpy(msg.data(), &h, sizeof h);
    if (!desc.empty()) {
        std::memcpy(msg.data() + sizeof h, desc.data(), desc.size() * sizeof(mca_dte_elem_t));
    }
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = native::isend_c(msg.data(), static_cast<MPI_Count>(msg.size()), MPI_BYTE, target,
                                   request_tag(m.epoch), w.comm, &r);
    m.buffers.push_back(std::move(msg));
    if (rc == MPI_SUCCESS) {
        m.pending.push_back(r);
        ++m.requests_to[static_cast<std::size_t>(target)];
    }
    return rc;
}

/* The origin data of a Put or Accumulate, after its request. */
int send_data(Module &m, const void *origin, std::size_t origin_count, const Datatype *origin_type, int target)
{
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = native::isend_c(origin, static_cast<MPI_Count>(origin_count), datatype_handle(origin_type), target,
                                   data_tag(m.epoch), m.w->comm, &r);
    if (rc == MPI_SUCCESS) {
        m.pending.push_back(r);
    }
    return rc;
}

std::size_t bytes_of(std::size_t count, mca_osc_dt_t type)
{
    return count * osc::of(type)->size;
}

} // namespace

int put(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.epoch_open) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL || origin_count == 0) {
        return MPI_SUCCESS;
    }
    const std::size_t bytes = bytes_of(origin_count, origin_dt);
    int rc = send_request(m, Kind::Put, osc::of(target_dt), bytes, target, target_disp, target_count, nullptr, nullptr);
    return rc == MPI_SUCCESS ? send_data(m, origin, origin_count, osc::of(origin_dt), target) : rc;
}

int get(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.epoch_open) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL || origin_count == 0) {
        return MPI_SUCCESS;
    }
    const std::size_t bytes = bytes_of(origin_count, origin_dt);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = native::irecv_c(origin, static_cast<MPI_Count>(origin_count), datatype_handle(osc::of(origin_dt)), target,
                             kReplyTag, m.w->comm, &r);
    if (rc == MPI_SUCCESS) {
        m.pending.push_back(r);
        rc = send_request(m, Kind::Get, osc::of(target_dt), bytes, target, target_disp, target_count, nullptr, nullptr);
    }
    return rc;
}

int accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
               size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *,
               mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.epoch_open) {
        return MPI_ERR_RMA_SYNC;
    }
    if (target == MPI_PROC_NULL || origin_count == 0) {
        return MPI_SUCCESS;
    }
    const std::size_t bytes = bytes_of(origin_count, origin_dt);
    const Datatype *basic = nullptr;
    single_basic(osc::of(target_dt), &basic);
    int rc = send_request(m, Kind::Accumulate, osc::of(target_dt), bytes, target, target_disp, target_count, basic,
                          osc::of(op));
    return rc == MPI_SUCCESS ? send_data(m, origin, origin_count, osc::of(origin_dt), target) : rc;
}

int fence(int assert, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    Window &w = *m.w;
    int expected = 0;
    if (int rc = native::reduce_scatter_block_c(m.requests_to.data(), &expected, 1, MPI_INT, MPI_SUM, w.comm);
        rc != MPI_SUCCESS) {
        return rc;
    }
    int rc = MPI_SUCCESS;
    std::vector<MPI_Request> replies;
    std::vector<std::vector<char>> reply_data;
    for (int i = 0; i < expected && rc == MPI_SUCCESS; ++i) {
        MPI_Status status;
        MPI_Count bytes = 0;
        if ((rc = native::probe(MPI_ANY_SOURCE, request_tag(m.epoch), w.comm, &status)) != MPI_SUCCESS ||
            (rc = native::get_count_c(&status, MPI_BYTE, &bytes)) != MPI_SUCCESS) {
            break;
        }
        std::vector<char> msg(static_cast<std::size_t>(bytes));
        if ((rc = native::recv_c(msg.data(), bytes, MPI_BYTE, status.MPI_SOURCE, request_tag(m.epoch), w.comm,
                                 MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
            break;
        }
        rc = serve(m, msg, status.MPI_SOURCE, replies, reply_data);
    }
    const int mine = native::waitall(static_cast<int>(m.pending.size()), m.pending.data(), MPI_STATUSES_IGNORE);
    const int theirs = native::waitall(static_cast<int>(replies.size()), replies.data(), MPI_STATUSES_IGNORE);
    m.pending.clear();
    m.buffers.clear();
    std::fill(m.requests_to.begin(), m.requests_to.end(), 0);
    ++m.epoch;
    m.epoch_open = (assert & MPI_MODE_NOSUCCEED) == 0;
    return rc != MPI_SUCCESS ? rc : mine != MPI_SUCCESS ? mine : theirs;
}

/* Once every process is here, no operation targets this one's memory any more. */
int free_window(tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (!m.pending.empty()) {
        return MPI_ERR_RMA_SYNC;
    }
    if (int rc = native::barrier(m.w->comm); rc != MPI_SUCCESS) {
        return rc;
    }
    delete &m;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_am
