/* osc am, the target's side: the window's bytes a request names, and applying the request to them. */
#include <cstring>

#include "components/osc/am/osc_am.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::osc_am {

namespace {

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

/* The window's bytes a request names, as packed bytes and back. */
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

} // namespace

int serve(Module &m, const std::vector<char> &msg, int source, std::vector<MPI_Request> &replies,
          std::vector<std::vector<char>> &reply_data)
{
    Window &w = *m.w;
    RequestHeader h;
    std::memcpy(&h, msg.data(), sizeof h);
    const auto *desc = reinterpret_cast<const mca_dte_elem_t *>(msg.data() + sizeof h);
    const TargetBytes target{h, desc, static_cast<char *>(w.base) + h.disp_bytes};
    std::vector<char> data(h.bytes);
    if (h.kind == Kind::Get) {
        target.gather(data.data());
        MPI_Request r = MPI_REQUEST_NULL;
        const int rc = native::isend_c(data.data(), static_cast<MPI_Count>(data.size()), MPI_BYTE, source,
                                       kReplyTag, w.comm, &r);
        reply_data.push_back(std::move(data)); /* a moved vector keeps its bytes where the send reads them */
        replies.push_back(r);
        return rc;
    }
    if (int rc = native::recv_c(data.data(), static_cast<MPI_Count>(h.bytes), MPI_BYTE, source, data_tag(m.epoch),
                                w.comm, MPI_STATUS_IGNORE);
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

} // namespace tessera::ompi::osc_am
