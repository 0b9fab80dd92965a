/*
 * osc am, the origin's side of the operations: each checks that an epoch gives access to the target (a
 * lock on it, lock_all, or a fence epoch), builds the request header and payload, and sends them at once
 * (send_ctl, osc_am_sync.cpp). An operation that returns data posts the receive of its reply first, into
 * the application's buffer with the application's datatype.
 */
#include <cstring>

#include "components/osc/am/osc_am.h"
#include "ompi/datatype/datatype.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/op/op.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::osc_am {

namespace {

/* MPI_SUCCESS with *fence set (0, or 1 + the fence epoch's parity) when an epoch gives access to
 * `target`; MPI_ERR_RMA_SYNC otherwise. In an access epoch of PSCW the first operation to a target
 * waits for its post. */
int access(Module &m, int target, std::uint32_t *fence)
{
    if (m.lock_all || (target >= 0 && m.lock_type[static_cast<std::size_t>(target)] != 0)) {
        *fence = 0;
        return MPI_SUCCESS;
    }
    if (m.access_open) {
        if (target != MPI_PROC_NULL && m.in_access[static_cast<std::size_t>(target)] == 0) {
            return MPI_ERR_RMA_SYNC;
        }
        if (target != MPI_PROC_NULL) {
            await_post(m, target);
        }
        *fence = 0;
        return MPI_SUCCESS;
    }
    if (m.epoch_open) {
        *fence = 1 + (m.epoch & 1u);
        return MPI_SUCCESS;
    }
    return MPI_ERR_RMA_SYNC;
}

/* The header of an operation on `target_count` elements of `target_type` at `target_disp`, and the
 * start of its payload: the target datatype's description (none for a contiguous type). */
Ctl header(const Module &m, Kind kind, std::uint32_t fence, const Datatype *target_type, std::size_t bytes,
           int target, std::ptrdiff_t target_disp, std::size_t target_count, std::vector<char> *payload)
{
    std::vector<mca_dte_elem_t> desc;
    if (!target_type->contiguous) {
        datatype_describe(target_type, &desc);
    }
    Ctl c{};
    c.kind = kind;
    c.elems = static_cast<std::uint32_t>(desc.size());
    c.disp_bytes = target_disp * m.w->targets[static_cast<std::size_t>(target)].disp_unit +
                   (target_type->contiguous ? target_type->true_lb : 0);
    c.count = target_count;
    c.extent = target_type->extent;
    c.bytes = bytes;
    c.basic = reinterpret_cast<std::uint64_t>(MPI_DATATYPE_NULL);
    c.op = reinterpret_cast<std::uint64_t>(MPI_OP_NULL);
    c.fence = fence;
    payload->resize(desc.size() * sizeof(mca_dte_elem_t));
    if (!desc.empty()) {
        std::memcpy(payload->data(), desc.data(), payload->size());
    }
    return c;
}

/* Appends `count` elements of `type` at `buf`, packed, to the payload. */
int pack_origin(const Module &m, const void *buf, std::size_t count, const Datatype *type, std::vector<char> *payload)
{
    const std::size_t at = payload->size();
    const std::size_t bytes = count * type->size;
    payload->resize(at + bytes);
    MPI_Count position = 0;
    return native::pack_c(buf, static_cast<MPI_Count>(count), datatype_handle(type), payload->data() + at,
                          static_cast<MPI_Count>(bytes), &position, m.w->comm);
}

void set_op(Ctl &c, const Datatype *target_type, const Op *op)
{
    const Datatype *basic = nullptr;
    single_basic(target_type, &basic);
    c.basic = reinterpret_cast<std::uint64_t>(datatype_handle(basic));
    c.op = reinterpret_cast<std::uint64_t>(op_handle(op));
}

/* Sends the header and payload, counting the request when it belongs to a fence epoch. */
int finish(Module &m, int target, Ctl &c, std::vector<char> payload, void *reply, std::size_t reply_count,
           const Datatype *reply_type)
{
    c.payload = static_cast<std::uint32_t>(payload.size());
    return send_ctl(m, target, c, std::move(payload), reply, reply_count, reply_type);
}

/* The opening of every operation: MPI_ERR_RMA_SYNC outside an epoch that reaches `target`,
 * MPI_SUCCESS when nothing moves (MPI_PROC_NULL, no elements; the epoch is checked all the same), else
 * kMoves with *fence set. */
constexpr int kMoves = -1;
int open_operation(Module &m, int target, std::size_t count, std::uint32_t *fence)
{
    if (access(m, target, fence) != MPI_SUCCESS) {
        return MPI_ERR_RMA_SYNC;
    }
    return target == MPI_PROC_NULL || count == 0 ? MPI_SUCCESS : kMoves;
}

} // namespace

int put(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    std::uint32_t fence = 0;
    if (int rc = open_operation(m, target, origin_count, &fence); rc != kMoves) {
        return rc;
    }
    const Datatype *o = osc::of(origin_dt);
    std::vector<char> payload;
    Ctl c = header(m, Kind::Put, fence, osc::of(target_dt), origin_count * o->size, target, target_disp, target_count,
                   &payload);
    if (int rc = pack_origin(m, origin, origin_count, o, &payload); rc != MPI_SUCCESS) {
        return rc;
    }
    return finish(m, target, c, std::move(payload), nullptr, 0, nullptr);
}

int get(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    std::uint32_t fence = 0;
    if (int rc = open_operation(m, target, origin_count, &fence); rc != kMoves) {
        return rc;
    }
    const Datatype *o = osc::of(origin_dt);
    std::vector<char> payload;
    Ctl c = header(m, Kind::Get, fence, osc::of(target_dt), origin_count * o->size, target, target_disp, target_count,
                   &payload);
    return finish(m, target, c, std::move(payload), origin, origin_count, o);
}

int accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
               size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *,
               mca_osc_base_module_t *module)
{
    Module &m = of(module);
    std::uint32_t fence = 0;
    if (int rc = open_operation(m, target, origin_count, &fence); rc != kMoves) {
        return rc;
    }
    const Datatype *o = osc::of(origin_dt);
    std::vector<char> payload;
    Ctl c = header(m, Kind::Accumulate, fence, osc::of(target_dt), origin_count * o->size, target, target_disp,
                   target_count, &payload);
    set_op(c, osc::of(target_dt), osc::of(op));
    if (int rc = pack_origin(m, origin, origin_count, o, &payload); rc != MPI_SUCCESS) {
        return rc;
    }
    return finish(m, target, c, std::move(payload), nullptr, 0, nullptr);
}

/* The target's old contents come back into `result`; with MPI_NO_OP the origin is not read. */
int get_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result, size_t result_count,
                   mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp, size_t target_count,
                   mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    std::uint32_t fence = 0;
    if (int rc = open_operation(m, target, result_count, &fence); rc != kMoves) {
        return rc;
    }
    const Datatype *r = osc::of(result_dt);
    std::vector<char> payload;
    Ctl c = header(m, Kind::GetAccumulate, fence, osc::of(target_dt), result_count * r->size, target, target_disp,
                   target_count, &payload);
    set_op(c, osc::of(target_dt), osc::of(op));
    if (osc::of(op)->kind != OpKind::NoOp) {
        if (int rc = pack_origin(m, origin, origin_count, osc::of(origin_dt), &payload); rc != MPI_SUCCESS) {
            return rc;
        }
    }
    return finish(m, target, c, std::move(payload), result, result_count, r);
}

int fetch_and_op(const void *origin, void *result, mca_osc_dt_t dt, int target, ptrdiff_t target_disp,
                 mca_osc_op_t op, tessera_win *win, mca_osc_base_module_t *module)
{
    return get_accumulate(origin, 1, dt, result, 1, dt, target, target_disp, 1, dt, op, win, module);
}

int compare_and_swap(const void *origin, const void *compare, void *result, mca_osc_dt_t dt, int target,
                     ptrdiff_t target_disp, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    std::uint32_t fence = 0;
    if (int rc = open_operation(m, target, 1, &fence); rc != kMoves) {
        return rc;
    }
    const Datatype *t = osc::of(dt);
    std::vector<char> payload;
    Ctl c = header(m, Kind::CompareAndSwap, fence, t, t->size, target, target_disp, 1, &payload);
    payload.resize(2 * t->size);
    std::memcpy(payload.data(), origin, t->size);
    std::memcpy(payload.data() + t->size, compare, t->size);
    return finish(m, target, c, std::move(payload), result, 1, t);
}

} // namespace tessera::ompi::osc_am
