/* Op objects (predefined and user), their checks against a datatype, and the reduction itself. */
#include "ompi/op/op.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <vector>

#include "mca/var.h"
#include "ompi/datatype/convertor.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/op/op_kernels.h"

namespace tessera::ompi {

namespace {

constexpr std::uintptr_t kFirstOp = 0x20, kLastOp = 0x3f;

struct PredefinedOps {
    std::array<Op, kLastOp - kFirstOp + 1> ops{};

    PredefinedOps()
    {
        set(MPI_SUM, "MPI_SUM", OpKind::Sum);
        set(MPI_MIN, "MPI_MIN", OpKind::Min);
        set(MPI_MAX, "MPI_MAX", OpKind::Max);
        set(MPI_PROD, "MPI_PROD", OpKind::Prod);
        set(MPI_BAND, "MPI_BAND", OpKind::Band);
        set(MPI_BOR, "MPI_BOR", OpKind::Bor);
        set(MPI_BXOR, "MPI_BXOR", OpKind::Bxor);
        set(MPI_LAND, "MPI_LAND", OpKind::Land);
        set(MPI_LOR, "MPI_LOR", OpKind::Lor);
        set(MPI_LXOR, "MPI_LXOR", OpKind::Lxor);
        set(MPI_MINLOC, "MPI_MINLOC", OpKind::Minloc);
        set(MPI_MAXLOC, "MPI_MAXLOC", OpKind::Maxloc);
        /* MPI_REPLACE keeps the last operand: not commutative (MPI-4.1 12.3.4). */
        set(MPI_REPLACE, "MPI_REPLACE", OpKind::Replace, false);
        set(MPI_NO_OP, "MPI_NO_OP", OpKind::NoOp);
    }

    void set(MPI_Op handle, const char *name, OpKind kind, bool commutative = true)
    {
        Op &op = ops[reinterpret_cast<std::uintptr_t>(handle) - kFirstOp];
        op.name = name;
        op.kind = kind;
        op.commutative = commutative;
    }
};

PredefinedOps &predefined()
{
    static PredefinedOps table;
    return table;
}

bool is_predefined(const Op *op)
{
    const auto &ops = predefined().ops;
    return op >= ops.data() && op < ops.data() + ops.size();
}

/* mpi_strict_ops: MPI-4.1 6.9.2 lists MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR, not MPI_CHAR, among the
 * types arithmetic ops take; off, MPI_CHAR is reduced as the platform's char, as the anchors do. */
bool strict_ops = false;

/* Whether `basic` is refused only because mpi_strict_ops is on. */
bool refused_as_strict(const Op *op, const Datatype *basic)
{
    return strict_ops && basic != nullptr && datatype_handle(basic) == MPI_CHAR && op->kind != OpKind::User &&
           op->kind != OpKind::Replace && op->kind != OpKind::NoOp;
}

std::string type_label(const Datatype *type)
{
    return type->name != nullptr && *type->name != '\0' ? type->name : "a derived datatype";
}

/* A predefined op on a derived type: its elements are moved into arrays of the basic type, a stretch
 * at a time, reduced there, and the result moved back along the type map. */
void reduce_derived(OpKernel kernel, const Datatype &basic, const void *in, void *inout, std::size_t count,
                    const Datatype &type)
{
    const std::size_t total = count * (type.size / basic.size);
    const std::size_t chunk = std::max<std::size_t>(1, (64 * 1024) / basic.size);
    const std::size_t stretch = std::min(chunk, total);
    std::vector<char> packed_in(stretch * basic.size), packed_io(stretch * basic.size);
    std::vector<char> array_in, array_io;
    if (!basic.contiguous) {
        array_in.resize(stretch * static_cast<std::size_t>(basic.extent));
        array_io.resize(stretch * static_cast<std::size_t>(basic.extent));
    }
    char *a = basic.contiguous ? packed_in.data() : array_in.data();
    char *b = basic.contiguous ? packed_io.data() : array_io.data();
    for (std::size_t done = 0; done < total;) {
        const std::size_t n = std::min(stretch, total - done);
        const std::size_t offset = done * basic.size, bytes = n * basic.size;
        convertor_pack(in, count, type, offset, packed_in.data(), bytes);
        convertor_pack(inout, count, type, offset, packed_io.data(), bytes);
        if (!basic.contiguous) {
            convertor_unpack(a, n, basic, 0, packed_in.data(), bytes);
            convertor_unpack(b, n, basic, 0, packed_io.data(), bytes);
        }
        kernel(a, b, n);
        if (!basic.contiguous) {
            convertor_pack(b, n, basic, 0, packed_io.data(), bytes);
        }
        convertor_unpack(inout, count, type, offset, packed_io.data(), bytes);
        done += n;
    }
}

void reduce_user(const Op &op, const void *in, void *inout, std::size_t count, const Datatype *type)
{
    MPI_Datatype handle = datatype_handle(type);
    auto *invec = const_cast<void *>(in);
    if (op.fn_c != nullptr) {
        auto len = static_cast<MPI_Count>(count);
        op.fn_c(invec, inout, &len, &handle);
        return;
    }
    /* An int-count function sees a count beyond INT_MAX in pieces. */
    while (count > 0) {
        int len = static_cast<int>(std::min<std::size_t>(count, INT_MAX));
        op.fn(invec, inout, &len, &handle);
        const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(len) * type->extent;
        invec = static_cast<char *>(invec) + step;
        inout = static_cast<char *>(inout) + step;
        count -= static_cast<std::size_t>(len);
    }
}

} // namespace

bool single_basic(const Datatype *type, const Datatype **out)
{
    if (type->derived == nullptr) {
        *out = type;
        return true;
    }
    const Datatype *found = nullptr;
    for (const TypeRun &run : type->derived->runs) {
        const Datatype *basic = nullptr;
        if (!single_basic(run.child, &basic)) {
            return false;
        }
        if (basic != nullptr) {
            if (found != nullptr && found != basic) {
                return false;
            }
            found = basic;
        }
    }
    *out = found;
    return true;
}


const Op *op_lookup(MPI_Op handle)
{
    const auto v = reinterpret_cast<std::uintptr_t>(handle);
    if (v >= kFirstOp && v <= kLastOp) {
        const Op &op = predefined().ops[v - kFirstOp];
        return op.kind != OpKind::User ? &op : nullptr;
    }
    const Op *op = user_object<Op>(handle);
    return op != nullptr && op->magic == Op::kMagic && op->kind == OpKind::User ? op : nullptr;
}

MPI_Op op_handle(const Op *op)
{
    if (is_predefined(op)) {
        return reinterpret_cast<MPI_Op>(kFirstOp + static_cast<std::uintptr_t>(op - predefined().ops.data()));
    }
    return user_handle<MPI_Op>(op);
}

Op *op_create_user(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commutative)
{
    auto *op = new Op{};
    op->name = "a user-defined op";
    op->kind = OpKind::User;
    op->commutative = commutative;
    op->fn = fn;
    op->fn_c = fn_c;
    return op;
}

void op_retain(const Op *op)
{
    if (op != nullptr && !is_predefined(op)) {
        const_cast<Op *>(op)->refs.fetch_add(1, std::memory_order_relaxed);
    }
}

void op_release(const Op *op)
{
    if (op == nullptr || is_predefined(op)) {
        return;
    }
    auto *user = const_cast<Op *>(op);
    if (user->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        user->magic = 0;
        delete user;
    }
}

bool op_defined_on(const Op *op, const Datatype *type)
{
    if (op->kind == OpKind::User || op->kind == OpKind::Replace || op->kind == OpKind::NoOp) {
        return true;
    }
    const Datatype *basic = nullptr;
    return single_basic(type, &basic) &&
           (basic == nullptr || (op_kernel(op->kind, basic) != nullptr && !refused_as_strict(op, basic)));
}

std::string op_check(const Op *op, const Datatype *type)
{
    if (op_defined_on(op, type)) {
        return "";
    }
    const Datatype *basic = nullptr;
    if (!single_basic(type, &basic)) {
        return std::string(op->name) + " cannot reduce " + type_label(type) +
               ": its elements mix several predefined datatypes (a predefined op takes a derived datatype "
               "made of one predefined datatype only)";
    }
    std::string what = basic->name;
    if (basic != type) {
        what += " (the elements of " + type_label(type) + ")";
    }
    if (refused_as_strict(op, basic)) {
        return std::string(op->name) + " is not defined for " + what +
               " under mpi_strict_ops (the standard reduces characters as numbers only as MPI_SIGNED_CHAR or "
               "MPI_UNSIGNED_CHAR): use one of those, or set mpi_strict_ops to 0";
    }
    return std::string(op->name) + " is not defined for " + what + ": it takes " + op_classes(op->kind);
}

void op_reduce(const Op *op, const void *in, void *inout, std::size_t count, const Datatype *type)
{
    if (count == 0 || type->size == 0 || op->kind == OpKind::NoOp) {
        return;
    }
    if (op->kind == OpKind::User) {
        reduce_user(*op, in, inout, count, type);
        return;
    }
    if (op->kind == OpKind::Replace) {
        convertor_copy(in, count, *type, inout, count, *type);
        return;
    }
    const Datatype *basic = nullptr;
    single_basic(type, &basic);
    const OpKernel kernel = op_kernel(op->kind, basic);
    if (basic == type) {
        kernel(in, inout, count);
    } else {
        reduce_derived(kernel, *basic, in, inout, count, *type);
    }
}

void op_reduce_packed(const Op *op, const Datatype *basic, const char *in, char *inout, std::size_t bytes)
{
    const std::size_t n = bytes / basic->size;
    if (basic->contiguous) {
        op_reduce(op, in, inout, n, basic);
        return;
    }
    const auto extent = static_cast<std::size_t>(basic->extent);
    std::vector<char> a(n * extent), b(n * extent);
    auto spread = [&](const char *packed, char *out) {
        for (std::size_t i = 0; i < n; ++i) {
            for (int k = 0; k < basic->block_count; ++k) {
                std::memcpy(out + i * extent + basic->blocks[k].offset, packed, basic->blocks[k].length);
                packed += basic->blocks[k].length;
            }
        }
    };
    spread(in, a.data());
    spread(inout, b.data());
    op_reduce(op, a.data(), b.data(), n, basic);
    for (std::size_t i = 0; i < n; ++i) {
        for (int k = 0; k < basic->block_count; ++k) {
            std::memcpy(inout, b.data() + i * extent + basic->blocks[k].offset, basic->blocks[k].length);
            inout += basic->blocks[k].length;
        }
    }
}

int register_op_params()
{
    strict_ops = false;
    const int rc = mca_var_register("mpi", "", "strict_ops",
                                    "Whether predefined reduction ops refuse MPI_CHAR, as the letter of the standard "
                                    "does (MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR are its integer character types); "
                                    "off, MPI_CHAR is reduced as this platform's char, as Open MPI and MPICH do",
                                    MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                                    &strict_ops);
    return rc < 0 ? rc : 0;
}

} // namespace tessera::ompi
