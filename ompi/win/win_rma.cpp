/*
 * MPI_Put, MPI_Get, MPI_Accumulate and MPI_Win_fence (MPI-4.1 12.3, 12.5.1) as messages over the
 * window's private communicator (window.h).
 *
 * An operation sends its target a request at once: a RequestHeader and the target datatype's
 * normalized description (datatype_describe), which the target walks to find the bytes in its window;
 * a Put or Accumulate sends its origin data after it, a Get posts the receive of its reply. The fence
 * learns how many requests each process was sent (a reduce-scatter of the counts), serves that many in
 * arrival order (MPI_Accumulate's ordering: one origin's requests to a target are served in the order
 * it made them), then completes this process's own sends and receives. Request and data tags alternate
 * with the epoch, so that a process already in the next epoch cannot have its requests taken for the
 * last one's.
 */
#include <algorithm>
#include <cstring>
#include <vector>

#include "frameworks/dte/dte.h"
#include "ompi/datatype/datatype.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/op/op.h"
#include "ompi/pml/p2p_functions.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

enum class Kind : std::uint32_t { Put = 1, Get, Accumulate };

struct RequestHeader {
    Kind kind;
    std::uint32_t elems;      /* description elements that follow; 0: contiguous, `bytes` at disp_bytes */
    std::int64_t disp_bytes;  /* target_disp * the target's displacement unit */
    std::uint64_t count;      /* target elements */
    std::int64_t extent;      /* of the target datatype */
    std::uint64_t bytes;      /* packed bytes the operation moves */
    std::uint64_t basic;      /* Accumulate: handle of the predefined datatype of the elements */
    std::uint64_t op;         /* Accumulate: handle of the predefined op */
};

int request_tag(std::uint32_t epoch) { return 1 + static_cast<int>(epoch & 1u); }
int data_tag(std::uint32_t epoch) { return 3 + static_cast<int>(epoch & 1u); }
constexpr int kReplyTag = 5;

/* Calls fn(offset, length) for each block of `count` elements described by `desc` (extent apart), in
 * packed order; offsets are relative to the first element. */
template <typename Fn>
void walk(const mca_dte_elem_t *desc, std::size_t n, std::ptrdiff_t base, Fn &fn)
{
    for (std::size_t i = 0; i < n;) {
        const mca_dte_elem_t &e = desc[i];
        if (e.op == MCA_DTE_OP_BLOCKS) {
            for (std::uint64_t b = 0; b < e.count; ++b) {
                fn(base + e.disp + static_cast<std::ptrdiff_t>(b) * e.stride, e.blocklen);
            }
            ++i;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            for (std::uint64_t it = 0; it < e.count; ++it) {
                walk(desc + i + 1, e.items, base + static_cast<std::ptrdiff_t>(it) * e.stride, fn);
            }
            i += e.items + 2; /* the loop, its body, its END_LOOP */
        } else {
            ++i;
        }
    }
}

/* The target side of a request: the window's bytes it names, as packed bytes and back. */
struct TargetBytes {
    const RequestHeader &h;
    const mca_dte_elem_t *desc;
    char *at; /* window base + disp_bytes */

    template <typename Fn>
    void each(Fn fn) const
    {
        if (h.elems == 0) {
            fn(std::ptrdiff_t{0}, h.bytes);
            return;
        }
        for (std::uint64_t i = 0; i < h.count; ++i) {
            walk(desc, h.elems, static_cast<std::ptrdiff_t>(i) * h.extent, fn);
        }
    }
    void gather(char *out) const
    {
        each([&](std::ptrdiff_t off, std::size_t len) {
            std::memcpy(out, at + off, len);
            out += len;
        });
    }
    void scatter(const char *in) const
    {
        each([&](std::ptrdiff_t off, std::size_t len) {
            std::memcpy(at + off, in, len);
            in += len;
        });
    }
};

/* Applies one request from `source` (its header and description in `msg`); a Get's reply is sent
 * with `replies` keeping the request and its buffer until the fence completes them. */
int serve(Window &w, const std::vector<char> &msg, int source, std::vector<MPI_Request> &replies,
          std::vector<std::vector<char>> &reply_data)
{
    RequestHeader h;
    std::memcpy(&h, msg.data(), sizeof h);
    const auto *desc = reinterpret_cast<const mca_dte_elem_t *>(msg.data() + sizeof h);
    const TargetBytes target{h, desc, static_cast<char *>(w.base) + h.disp_bytes};
    std::vector<char> data(h.bytes);
    if (h.kind == Kind::Get) {
        target.gather(data.data());
        MPI_Request r = MPI_REQUEST_NULL;
        const int rc =
            isend_c(data.data(), static_cast<MPI_Count>(data.size()), MPI_BYTE, source, kReplyTag, w.comm, &r);
        reply_data.push_back(std::move(data)); /* a moved vector keeps its bytes where the send reads them */
        replies.push_back(r);
        return rc;
    }
    if (int rc = recv_c(data.data(), static_cast<MPI_Count>(h.bytes), MPI_BYTE, source, data_tag(w.epoch), w.comm,
                        MPI_STATUS_IGNORE);
        rc != MPI_SUCCESS) {
        return rc;
    }
    if (h.kind == Kind::Put) {
        target.scatter(data.data());
        return MPI_SUCCESS;
    }
    const Datatype *basic = datatype_lookup(reinterpret_cast<MPI_Datatype>(h.basic));
    const Op *op = op_lookup(reinterpret_cast<MPI_Op>(h.op));
    std::vector<char> current(h.bytes);
    target.gather(current.data());
    op_reduce(op, data.data(), current.data(), h.bytes / basic->size, basic);
    target.scatter(current.data());
    return MPI_SUCCESS;
}

/* An operation's datatype argument: committed. */
const Datatype *type_of(const char *function, MPI_Win win, MPI_Datatype handle, const char *name, int *rc)
{
    const Datatype *t = datatype_lookup(handle);
    if (t == nullptr || !datatype_committed(t)) {
        *rc = raise_on_win(win, MPI_ERR_TYPE, function,
                           std::string(t == nullptr ? "invalid datatype" : "uncommitted datatype") + " in argument '" +
                               name + "'");
        return nullptr;
    }
    return t;
}

/* One operation's arguments, checked. */
struct Operation {
    Window *w = nullptr;
    const Datatype *origin = nullptr;
    const Datatype *target = nullptr;
    std::size_t bytes = 0;
    bool none = false; /* MPI_PROC_NULL or nothing to move */
};

int check(const char *function, MPI_Win win, int origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, Operation *op)
{
    int rc = MPI_SUCCESS;
    if ((op->w = win_argument(function, win, &rc)) == nullptr) {
        return rc;
    }
    Window &w = *op->w;
    if (!w.epoch_open) {
        return raise_on_win(win, MPI_ERR_RMA_SYNC, function,
                            "no access epoch is open on " + win_label(w) + ": call MPI_Win_fence first");
    }
    if (target_rank == MPI_PROC_NULL) {
        op->none = true;
        return MPI_SUCCESS;
    }
    if (target_rank < 0 || target_rank >= w.size) {
        return raise_on_win(win, MPI_ERR_RANK, function,
                            "target rank " + std::to_string(target_rank) + " is not in 0.." + std::to_string(w.size - 1));
    }
    if ((op->origin = type_of(function, win, origin_datatype, "origin_datatype", &rc)) == nullptr ||
        (op->target = type_of(function, win, target_datatype, "target_datatype", &rc)) == nullptr) {
        return rc;
    }
    if (target_disp < 0) {
        return raise_on_win(win, MPI_ERR_DISP, function, "negative target displacement " + std::to_string(target_disp));
    }
    op->bytes = static_cast<std::size_t>(origin_count) * op->origin->size;
    if (op->bytes != static_cast<std::size_t>(target_count) * op->target->size) {
        return raise_on_win(win, MPI_ERR_TRUNCATE, function,
                            "the origin gives " + std::to_string(op->bytes) + " bytes, the target takes " +
                                std::to_string(static_cast<std::size_t>(target_count) * op->target->size));
    }
    if (op->bytes == 0) {
        op->none = true;
        return MPI_SUCCESS;
    }
    const WindowTarget &t = w.targets[static_cast<std::size_t>(target_rank)];
    const MPI_Aint start = target_disp * t.disp_unit;
    const MPI_Aint lowest = start + op->target->true_lb;
    const MPI_Aint end = start + static_cast<MPI_Aint>(target_count - 1) * op->target->extent + op->target->true_ub;
    if (lowest < 0 || end > t.size) {
        return raise_on_win(win, MPI_ERR_RMA_RANGE, function,
                            "bytes " + std::to_string(lowest) + ".." + std::to_string(end) +
                                " of the target's window are outside its " + std::to_string(t.size) + " bytes");
    }
    return MPI_SUCCESS;
}

/* Sends the request of an operation checked by check(); a Put's or Accumulate's data follows it
 * (send_data). */
int send_request(Operation &op, Kind kind, int target_rank, MPI_Aint target_disp, int target_count,
                 const Datatype *basic, const Op *reduction)
{
    Window &w = *op.w;
    std::vector<mca_dte_elem_t> desc;
    if (!op.target->contiguous) {
        datatype_describe(op.target, &desc);
    }
    RequestHeader h{};
    h.kind = kind;
    h.elems = static_cast<std::uint32_t>(desc.size());
    h.disp_bytes = target_disp * w.targets[static_cast<std::size_t>(target_rank)].disp_unit +
                   (op.target->contiguous ? op.target->true_lb : 0);
    h.count = static_cast<std::uint64_t>(target_count);
    h.extent = op.target->extent;
    h.bytes = op.bytes;
    h.basic = reinterpret_cast<std::uint64_t>(basic != nullptr ? datatype_handle(basic) : MPI_DATATYPE_NULL);
    h.op = reinterpret_cast<std::uint64_t>(reduction != nullptr ? op_handle(reduction) : MPI_OP_NULL);
    std::vector<char> msg(sizeof h + desc.size() * sizeof(mca_dte_elem_t));
    std::memcpy(msg.data(), &h, sizeof h);
    if (!desc.empty()) {
        std::memcpy(msg.data() + sizeof h, desc.data(), desc.size() * sizeof(mca_dte_elem_t));
    }
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = isend_c(msg.data(), static_cast<MPI_Count>(msg.size()), MPI_BYTE, target_rank, request_tag(w.epoch),
                           w.comm, &r);
    w.buffers.push_back(std::move(msg));
    if (rc == MPI_SUCCESS) {
        w.pending.push_back(r);
        ++w.requests_to[static_cast<std::size_t>(target_rank)];
    }
    return rc;
}

/* The origin data of a Put or Accumulate, after its request. */
int send_data(Operation &op, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank)
{
    Window &w = *op.w;
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = isend_c(origin_addr, origin_count, origin_datatype, target_rank, data_tag(w.epoch), w.comm, &r);
    if (rc == MPI_SUCCESS) {
        w.pending.push_back(r);
    }
    return rc;
}

int outcome(MPI_Win win, const char *function, int rc)
{
    return rc == MPI_SUCCESS ? rc : raise_on_win(win, rc, function, "sending the operation to its target failed");
}

} // namespace

int put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    Operation op;
    if (int rc = check("MPI_Put", win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &op);
        rc != MPI_SUCCESS || op.none) {
        return rc;
    }
    int rc = send_request(op, Kind::Put, target_rank, target_disp, target_count, nullptr, nullptr);
    if (rc == MPI_SUCCESS) {
        rc = send_data(op, origin_addr, origin_count, origin_datatype, target_rank);
    }
    return outcome(win, "MPI_Put", rc);
}

int get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
        int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    Operation op;
    if (int rc = check("MPI_Get", win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &op);
        rc != MPI_SUCCESS || op.none) {
        return rc;
    }
    Window &w = *op.w;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = irecv_c(origin_addr, origin_count, origin_datatype, target_rank, kReplyTag, w.comm, &r);
    if (rc == MPI_SUCCESS) {
        w.pending.push_back(r);
        rc = send_request(op, Kind::Get, target_rank, target_disp, target_count, nullptr, nullptr);
    }
    return outcome(win, "MPI_Get", rc);
}

/* A predefined op only (MPI-4.1 12.3.4), MPI_REPLACE included, on datatypes made of one predefined
 * datatype, the same on both sides. */
int accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    const char *function = "MPI_Accumulate";
    Operation o;
    if (int rc = check(function, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &o);
        rc != MPI_SUCCESS) {
        return rc;
    }
    const Op *reduction = op_lookup(op);
    if (reduction == nullptr || reduction->kind == OpKind::User || reduction->kind == OpKind::NoOp) {
        return raise_on_win(win, MPI_ERR_OP, function,
                            reduction == nullptr ? "invalid op in argument 'op'"
                                                 : std::string(reduction->name) + " is not a predefined op MPI_Accumulate takes");
    }
    if (o.none) {
        return MPI_SUCCESS;
    }
    const Datatype *basic = nullptr, *origin_basic = nullptr;
    if (!single_basic(o.target, &basic) || !single_basic(o.origin, &origin_basic) || basic != origin_basic ||
        basic == nullptr) {
        return raise_on_win(win, MPI_ERR_TYPE, function,
                            "the origin and target datatypes must be made of the same one predefined datatype");
    }
    if (std::string why = op_check(reduction, o.target); !why.empty()) {
        return raise_on_win(win, MPI_ERR_OP, function, why);
    }
    int rc = send_request(o, Kind::Accumulate, target_rank, target_disp, target_count, basic, reduction);
    if (rc == MPI_SUCCESS) {
        rc = send_data(o, origin_addr, origin_count, origin_datatype, target_rank);
    }
    return outcome(win, function, rc);
}

int win_fence(int assert, MPI_Win win)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_fence", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    int expected = 0;
    if (rc = reduce_scatter_block_c(w->requests_to.data(), &expected, 1, MPI_INT, MPI_SUM, w->comm);
        rc != MPI_SUCCESS) {
        return raise_on_win(win, rc, "MPI_Win_fence", "the processes of the window could not exchange their counts");
    }
    std::vector<MPI_Request> replies;
    std::vector<std::vector<char>> reply_data;
    for (int i = 0; i < expected && rc == MPI_SUCCESS; ++i) {
        MPI_Status status;
        MPI_Count bytes = 0;
        if ((rc = probe(MPI_ANY_SOURCE, request_tag(w->epoch), w->comm, &status)) != MPI_SUCCESS ||
            (rc = get_count_c(&status, MPI_BYTE, &bytes)) != MPI_SUCCESS) {
            break;
        }
        std::vector<char> msg(static_cast<std::size_t>(bytes));
        if ((rc = recv_c(msg.data(), bytes, MPI_BYTE, status.MPI_SOURCE, request_tag(w->epoch), w->comm,
                         MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
            break;
        }
        rc = serve(*w, msg, status.MPI_SOURCE, replies, reply_data);
    }
    int mine = waitall(static_cast<int>(w->pending.size()), w->pending.data(), MPI_STATUSES_IGNORE);
    int theirs = waitall(static_cast<int>(replies.size()), replies.data(), MPI_STATUSES_IGNORE);
    w->pending.clear();
    w->buffers.clear();
    std::fill(w->requests_to.begin(), w->requests_to.end(), 0);
    ++w->epoch;
    w->epoch_open = (assert & MPI_MODE_NOSUCCEED) == 0;
    rc = rc != MPI_SUCCESS ? rc : mine != MPI_SUCCESS ? mine : theirs;
    return rc == MPI_SUCCESS ? rc : raise_on_win(win, rc, "MPI_Win_fence", "completing the epoch's operations failed");
}

} // namespace tessera::ompi::native
