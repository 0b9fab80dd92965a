/*
 * osc sm: the operations, done by the origin itself in the target's part of the segment.
 *
 * Put and get are copies along both datatypes (the dte's pack and unpack; a contiguous side is read or
 * written in place). Accumulates are element-wise atomic (MPI-4.1 12.7.1) with respect to each other,
 * whichever form and whichever origin, by one rule that depends only on the element: an element of a
 * predefined integer type at an address aligned to its size is updated with a processor atomic (a
 * fetch-add, an exchange, a compare-exchange loop for the other ops); any other element (a double, a
 * pair, a misaligned integer) is updated under its target's accumulate lock (a spin lock in the target's
 * control line). MPI_Fetch_and_op and MPI_Compare_and_swap on integers need no lock so, and an
 * MPI_Accumulate of integers mixes with them safely: both update the element atomically.
 */
#include <cstring>
#include <vector>

#include "components/osc/sm/osc_sm.h"
#include "ompi/datatype/convertor.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/op/op.h"

namespace tessera::ompi::osc_sm {

namespace {

char *target_at(const Module &m, int target, std::ptrdiff_t disp)
{
    const auto t = static_cast<std::size_t>(target);
    return m.segment.part(target) + disp * m.disp_units[t];
}

/* Calls fn(offset, length) for each block of the description, in packed order; offsets are relative to
 * the first element (osc am's target walks a description the same way). */
template <typename Fn>
void walk(const mca_dte_elem_t *desc, std::size_t n, std::ptrdiff_t base, Fn &fn)
{
    for (std::size_t i = 0; i < n;) {
        const mca_dte_elem_t &e = desc[i];
        if (e.op == MCA_DTE_OP_BLOCKS) {
            for (std::uint64_t b = 0; b < e.count; ++b) {
                fn(base + e.disp + static_cast<std::ptrdiff_t>(b) * e.stride, static_cast<std::size_t>(e.blocklen));
            }
            ++i;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            for (std::uint64_t it = 0; it < e.count; ++it) {
                walk(desc + i + 1, e.items, base + static_cast<std::ptrdiff_t>(it) * e.stride, fn);
            }
            i += e.items + 2;
        } else {
            ++i;
        }
    }
}

/* Calls fn(address, length) for each block of `count` elements of `type` at `at`, in packed order. */
template <typename Fn>
void each_block(char *at, std::size_t count, const Datatype *type, Fn fn)
{
    if (type->contiguous) {
        fn(at + type->true_lb, count * type->size);
        return;
    }
    std::vector<mca_dte_elem_t> desc;
    datatype_describe(type, &desc);
    auto block = [&](std::ptrdiff_t off, std::size_t len) { fn(at + off, len); };
    for (std::size_t i = 0; i < count; ++i) {
        walk(desc.data(), desc.size(), static_cast<std::ptrdiff_t>(i) * type->extent, block);
    }
}

/* The predefined integer types: their elements are updated with processor atomics. */
bool integer_type(const Datatype *basic)
{
    static const MPI_Datatype kIntegers[] = {
        MPI_SHORT,     MPI_INT,          MPI_LONG,     MPI_LONG_LONG, MPI_UNSIGNED_SHORT, MPI_UNSIGNED,
        MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_CHAR, MPI_INT8_T,
        MPI_UINT8_T,   MPI_INT16_T,      MPI_UINT16_T, MPI_INT32_T,   MPI_UINT32_T,       MPI_INT64_T,
        MPI_UINT64_T,  MPI_AINT,         MPI_OFFSET,   MPI_COUNT,     MPI_INTEGER,        MPI_INTEGER1,
        MPI_INTEGER2,  MPI_INTEGER4,     MPI_INTEGER8, MPI_BYTE};
    if (basic == nullptr || !basic->contiguous) {
        return false;
    }
    const std::size_t n = basic->size;
    if (n != 1 && n != 2 && n != 4 && n != 8) {
        return false;
    }
    const MPI_Datatype h = datatype_handle(basic);
    for (MPI_Datatype t : kIntegers) {
        if (t == h) {
            return true;
        }
    }
    return false;
}

bool aligned(const char *p, std::size_t n)
{
    return (reinterpret_cast<std::uintptr_t>(p) & (n - 1)) == 0;
}

/* One element at `at`: *old = its value; then it becomes `in` op it (unless MPI_NO_OP), atomically. */
template <typename T>
void atomic_element(const Op *op, const Datatype *basic, char *at, const char *in, char *old)
{
    std::atomic_ref<T> a(*reinterpret_cast<T *>(at));
    T v{};
    if (in != nullptr) {
        std::memcpy(&v, in, sizeof v);
    }
    T before{};
    switch (op->kind) {
    case OpKind::NoOp: before = a.load(); break;
    case OpKind::Replace: before = a.exchange(v); break;
    case OpKind::Sum: before = a.fetch_add(v); break;
    case OpKind::Band: before = a.fetch_and(v); break;
    case OpKind::Bor: before = a.fetch_or(v); break;
    case OpKind::Bxor: before = a.fetch_xor(v); break;
    default: {
        before = a.load();
        T after{};
        do {
            after = before;
            op_reduce(op, &v, &after, 1, basic);
        } while (!a.compare_exchange_weak(before, after));
    }
    }
    if (old != nullptr) {
        std::memcpy(old, &before, sizeof before);
    }
}

void atomic_any(const Op *op, const Datatype *basic, char *at, const char *in, char *old)
{
    switch (basic->size) {
    case 1: atomic_element<std::uint8_t>(op, basic, at, in, old); break;
    case 2: atomic_element<std::uint16_t>(op, basic, at, in, old); break;
    case 4: atomic_element<std::uint32_t>(op, basic, at, in, old); break;
    default: atomic_element<std::uint64_t>(op, basic, at, in, old); break;
    }
}


class AccLock {
public:
    explicit AccLock(std::atomic<std::uint32_t> &word) : word_(word)
    {
        spin_until([this] {
            std::uint32_t free = 0;
            return word_.load(std::memory_order_relaxed) == 0 &&
                   word_.compare_exchange_weak(free, 1, std::memory_order_acquire);
        });
    }
    ~AccLock() { word_.store(0, std::memory_order_release); }
    AccLock(const AccLock &) = delete;
    AccLock &operator=(const AccLock &) = delete;

private:
    std::atomic<std::uint32_t> &word_;
};

/* The accumulate of every form: `in` the origin's packed elements (nullptr for MPI_NO_OP), `old` where
 * the target's packed elements before it go (nullptr when not fetched). */
void apply(Module &m, int target, std::ptrdiff_t disp, std::size_t count, const Datatype *type, const Op *op,
           const char *in, char *old, std::size_t bytes)
{
    char *at = target_at(m, target, disp);
    const Datatype *basic = nullptr;
    single_basic(type, &basic);
    if (basic == nullptr) {
        return;
    }
    const std::size_t n = basic->size;
    if (integer_type(basic)) {
        /* Misaligned integers are updated under the lock; aligned ones atomically in any case. */
        bool all_aligned = true;
        each_block(at, count, type, [&](char *p, std::size_t len) {
            for (std::size_t k = 0; k < len; k += n) {
                all_aligned = all_aligned && aligned(p + k, n);
            }
        });
        std::unique_ptr<AccLock> guard;
        if (!all_aligned) {
            guard = std::make_unique<AccLock>(m.segment.control(target).acc);
        }
        std::size_t done = 0;
        each_block(at, count, type, [&](char *p, std::size_t len) {
            for (std::size_t k = 0; k < len; k += n, done += n) {
                const char *x = in == nullptr ? nullptr : in + done;
                char *y = old == nullptr ? nullptr : old + done;
                if (aligned(p + k, n)) {
                    atomic_any(op, basic, p + k, x, y);
                    continue;
                }
                if (y != nullptr) {
                    std::memcpy(y, p + k, n);
                }
                if (op->kind == OpKind::Replace) {
                    std::memcpy(p + k, x, n);
                } else if (op->kind != OpKind::NoOp) {
                    op_reduce(op, x, p + k, 1, basic);
                }
            }
        });
        return;
    }
    const AccLock guard(m.segment.control(target).acc);
    std::vector<char> current(bytes);
    convertor_pack(at, count, *type, 0, current.data(), bytes);
    if (old != nullptr) {
        std::memcpy(old, current.data(), bytes);
    }
    if (op->kind == OpKind::NoOp) {
        return;
    }
    if (op->kind == OpKind::Replace) {
        convertor_unpack(at, count, *type, 0, in, bytes);
        return;
    }
    op_reduce_packed(op, basic, in, current.data(), bytes);
    convertor_unpack(at, count, *type, 0, current.data(), bytes);
}

/* The origin's elements packed: in place when contiguous, else into `stage`. */
const char *packed(const void *buf, std::size_t count, const Datatype *type, std::vector<char> *stage)
{
    if (const char *p = convertor_contiguous(buf, *type)) {
        return p;
    }
    stage->resize(count * type->size);
    convertor_pack(buf, count, *type, 0, stage->data(), stage->size());
    return stage->data();
}

} // namespace

int put(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (int rc = access(m, target); rc != MPI_SUCCESS || target == MPI_PROC_NULL || origin_count == 0) {
        return rc;
    }
    convertor_copy(origin, origin_count, *osc::of(origin_dt), target_at(m, target, target_disp), target_count,
                   *osc::of(target_dt));
    return MPI_SUCCESS;
}

int get(void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
        size_t target_count, mca_osc_dt_t target_dt, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (int rc = access(m, target); rc != MPI_SUCCESS || target == MPI_PROC_NULL || origin_count == 0) {
        return rc;
    }
    convertor_copy(target_at(m, target, target_disp), target_count, *osc::of(target_dt), origin, origin_count,
                   *osc::of(origin_dt));
    return MPI_SUCCESS;
}

int accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, int target, ptrdiff_t target_disp,
               size_t target_count, mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *,
               mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (int rc = access(m, target); rc != MPI_SUCCESS || target == MPI_PROC_NULL || origin_count == 0) {
        return rc;
    }
    const Datatype *o = osc::of(origin_dt);
    std::vector<char> stage;
    const char *in = packed(origin, origin_count, o, &stage);
    apply(m, target, target_disp, target_count, osc::of(target_dt), osc::of(op), in, nullptr, origin_count * o->size);
    return MPI_SUCCESS;
}

int get_accumulate(const void *origin, size_t origin_count, mca_osc_dt_t origin_dt, void *result, size_t result_count,
                   mca_osc_dt_t result_dt, int target, ptrdiff_t target_disp, size_t target_count,
                   mca_osc_dt_t target_dt, mca_osc_op_t op, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (int rc = access(m, target); rc != MPI_SUCCESS || target == MPI_PROC_NULL || result_count == 0) {
        return rc;
    }
    const Datatype *r = osc::of(result_dt);
    const Op *o = osc::of(op);
    const std::size_t bytes = result_count * r->size;
    std::vector<char> stage;
    const char *in = o->kind == OpKind::NoOp ? nullptr : packed(origin, origin_count, osc::of(origin_dt), &stage);
    std::vector<char> old(bytes);
    apply(m, target, target_disp, target_count, osc::of(target_dt), o, in, old.data(), bytes);
    convertor_unpack(result, result_count, *r, 0, old.data(), bytes);
    return MPI_SUCCESS;
}

int fetch_and_op(const void *origin, void *result, mca_osc_dt_t dt, int target, ptrdiff_t target_disp,
                 mca_osc_op_t op, tessera_win *win, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    const Datatype *t = osc::of(dt);
    const Op *o = osc::of(op);
    if (target != MPI_PROC_NULL && integer_type(t)) {
        /* The common case without a vector: one aligned integer, one processor atomic. */
        if (int rc = access(m, target); rc != MPI_SUCCESS) {
            return rc;
        }
        char *at = target_at(m, target, target_disp);
        if (aligned(at, t->size)) {
            atomic_any(o, t, at, o->kind == OpKind::NoOp ? nullptr : static_cast<const char *>(origin),
                       static_cast<char *>(result));
            return MPI_SUCCESS;
        }
    }
    return get_accumulate(origin, 1, dt, result, 1, dt, target, target_disp, 1, dt, op, win, module);
}

int compare_and_swap(const void *origin, const void *compare, void *result, mca_osc_dt_t dt, int target,
                     ptrdiff_t target_disp, tessera_win *, mca_osc_base_module_t *module)
{
    Module &m = of(module);
    if (int rc = access(m, target); rc != MPI_SUCCESS || target == MPI_PROC_NULL) {
        return rc;
    }
    const Datatype *t = osc::of(dt);
    char *at = target_at(m, target, target_disp);
    const std::size_t n = t->size;
    const auto swap = [&]<typename T>(T) {
        T expected{}, desired{};
        std::memcpy(&expected, compare, n);
        std::memcpy(&desired, origin, n);
        std::atomic_ref<T>(*reinterpret_cast<T *>(at)).compare_exchange_strong(expected, desired);
        std::memcpy(result, &expected, n); /* the old value, whether it was swapped or not */
    };
    if (integer_type(t) && aligned(at, n)) {
        switch (n) {
        case 1: swap(std::uint8_t{}); break;
        case 2: swap(std::uint16_t{}); break;
        case 4: swap(std::uint32_t{}); break;
        default: swap(std::uint64_t{}); break;
        }
        return MPI_SUCCESS;
    }
    /* Other elements, bytewise under the target's accumulate lock, as their accumulates. */
    const AccLock guard(m.segment.control(target).acc);
    std::memcpy(result, at, n);
    if (std::memcmp(result, compare, n) == 0) {
        std::memcpy(at, origin, n);
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::osc_sm
