/* Derived datatypes: creation, the facts of the type map (MPI-4.1 5.1.6-5.1.8), handles and lifetime. */
#include "ompi/datatype/datatype_derived.h"

#include <algorithm>
#include <limits>
#include <string_view>

#include "frameworks/dte/base/dte_base_program.h"

namespace tessera::ompi {

namespace {

/* The pair types of MINLOC/MAXLOC: two basic elements each (MPI-4.1 5.1.12, 6.9.4). */
bool predefined_pair(const Datatype *t)
{
    const std::string_view n(t->name);
    return n.starts_with("MPI_2") || n == "MPI_FLOAT_INT" || n == "MPI_DOUBLE_INT" || n == "MPI_LONG_INT" ||
           n == "MPI_SHORT_INT" || n == "MPI_LONG_DOUBLE_INT";
}

/* The size of a pair type's first member. */
std::size_t pair_first_size(const Datatype *t)
{
    return std::string_view(t->name).starts_with("MPI_2") ? t->size / 2 : t->size - sizeof(int);
}

/* The alignment of a predefined type, as the C compiler aligns it (complex: like its halves). */
std::size_t predefined_alignment(const Datatype *t)
{
    std::size_t a = t->size;
    if (predefined_pair(t)) {
        a = std::max(pair_first_size(t), t->size - pair_first_size(t));
    } else if (std::string_view(t->name).find("COMPLEX") != std::string_view::npos) {
        a = t->size / 2;
    }
    a = std::clamp<std::size_t>(a, 1, 16);
    while ((a & (a - 1)) != 0) { /* a power of two */
        a &= a - 1;
    }
    return a;
}

struct Bounds {
    MPI_Aint lo = std::numeric_limits<MPI_Aint>::max();
    MPI_Aint hi = std::numeric_limits<MPI_Aint>::min();
    bool any = false;
    void add(MPI_Aint l, MPI_Aint h)
    {
        lo = std::min(lo, l);
        hi = std::max(hi, h);
        any = true;
    }
};

bool child_explicit_lb(const Datatype *t)
{
    return t->derived != nullptr && t->derived->explicit_lb;
}
bool child_explicit_ub(const Datatype *t)
{
    return t->derived != nullptr && t->derived->explicit_ub;
}

} // namespace

std::size_t datatype_alignment(const Datatype *type)
{
    return type->derived != nullptr ? type->derived->align : predefined_alignment(type);
}

std::uint64_t datatype_elements(const Datatype *type)
{
    return type->derived != nullptr ? type->derived->elements : predefined_pair(type) ? 2 : 1;
}

Datatype *derived_create(TypeContents contents, std::vector<TypeRun> runs, ResizeBounds resize, bool pad_to_alignment)
{
    auto *d = new DerivedType;
    d->contents = std::move(contents);
    for (const Datatype *t : d->contents.types) {
        datatype_retain(t);
    }
    /* Runs that hold no data and no bounds are dropped: they change nothing in the type map. */
    d->runs.reserve(runs.size());
    for (const TypeRun &r : runs) {
        if (r.blocklen > 0 && r.count > 0) {
            datatype_retain(r.child);
            d->runs.push_back(r);
        }
    }

    /* The type map's bounds: the lowest lb and highest ub over every copy of every child. Children with
     * explicit bounds (resized) decide alone where any exists (the sticky markers of MPI-4.1 5.1.6). */
    Bounds all_lb, marked_lb, all_ub, marked_ub, data;
    std::size_t size = 0;
    std::uint64_t elements = 0;
    std::size_t align = 1;
    const Datatype *known = nullptr; /* the child whose facts are below: most runs repeat the last one */
    std::uint64_t child_elements = 0;
    for (const TypeRun &r : d->runs) {
        const Datatype *c = r.child;
        if (c != known) {
            known = c;
            child_elements = datatype_elements(c);
            align = std::max(align, datatype_alignment(c));
        }
        const MPI_Aint first_block = std::min<MPI_Aint>(0, (r.count - 1) * r.stride);
        const MPI_Aint last_block = std::max<MPI_Aint>(0, (r.count - 1) * r.stride);
        const MPI_Aint first_elem = std::min<MPI_Aint>(0, (r.blocklen - 1) * c->extent);
        const MPI_Aint last_elem = std::max<MPI_Aint>(0, (r.blocklen - 1) * c->extent);
        const MPI_Aint lo = r.disp + first_block + first_elem, hi = r.disp + last_block + last_elem;
        all_lb.add(lo + c->lb, lo + c->lb);
        all_ub.add(hi + c->lb + c->extent, hi + c->lb + c->extent);
        if (child_explicit_lb(c)) {
            marked_lb.add(lo + c->lb, lo + c->lb);
        }
        if (child_explicit_ub(c)) {
            marked_ub.add(hi + c->lb + c->extent, hi + c->lb + c->extent);
        }
        if (c->size > 0) {
            data.add(lo + c->true_lb, hi + c->true_ub);
        }
        size += static_cast<std::size_t>(r.blocklen) * static_cast<std::size_t>(r.count) * c->size;
        elements += static_cast<std::uint64_t>(r.blocklen) * static_cast<std::uint64_t>(r.count) * child_elements;
    }
    d->explicit_lb = marked_lb.any;
    d->explicit_ub = marked_ub.any;
    MPI_Aint lb = marked_lb.any ? marked_lb.lo : all_lb.any ? all_lb.lo : 0;
    MPI_Aint ub = marked_ub.any ? marked_ub.hi : all_ub.any ? all_ub.hi : 0;
    /* MPI_Type_create_struct pads the extent to the alignment of its members, as a C compiler pads a
     * struct (the epsilon of MPI-4.1 5.1.6), unless an explicit upper bound was given. */
    if (pad_to_alignment && !marked_ub.any && align > 1) {
        const MPI_Aint extent = ub - lb, a = static_cast<MPI_Aint>(align);
        const MPI_Aint rem = ((extent % a) + a) % a;
        if (rem != 0) {
            ub += a - rem;
        }
    }
    if (resize.set) {
        lb = resize.lb;
        ub = resize.lb + resize.extent;
        d->explicit_lb = d->explicit_ub = true;
    }
    d->align = align;
    d->elements = elements;

    Datatype &t = d->type;
    t.name = "";
    t.size = size;
    t.lb = lb;
    t.extent = ub - lb;
    t.block_count = 0;
    t.true_lb = data.any ? data.lo : 0;
    t.true_ub = data.any ? data.hi : 0;
    t.derived = d;
    t.contiguous = false; /* decided at commit, from the normalized description */
    return &t;
}

int derived_commit(DerivedType *d)
{
    if (d->committed.load(std::memory_order_acquire)) {
        return MPI_SUCCESS;
    }
    std::vector<mca_dte_elem_t> desc;
    datatype_describe(&d->type, &desc);
    Datatype &t = d->type;
    t.contiguous = t.size == 0 ||
                   (desc.size() == 1 && desc[0].op == MCA_DTE_OP_BLOCKS && desc[0].count == 1 &&
                    desc[0].blocklen == t.size && desc[0].disp == t.true_lb &&
                    t.extent == static_cast<std::ptrdiff_t>(t.size));
    if (!t.contiguous) {
        mca_dte_type_desc_t td{};
        td.elems = desc.data();
        td.elem_count = desc.size();
        td.size = t.size;
        td.extent = t.extent;
        td.true_lb = t.true_lb;
        td.true_ub = t.true_ub;
        td.flags = 0;
        mca_dte_plan_t *plan = nullptr;
        if (int rc = mca_dte_base_plan_create(&td, &plan); rc != TESSERA_SUCCESS) {
            return MPI_ERR_INTERN;
        }
        d->plan = plan;
    }
    d->desc = std::move(desc);
    d->committed.store(true, std::memory_order_release);
    return MPI_SUCCESS;
}

bool datatype_committed(const Datatype *type)
{
    return type->derived == nullptr || type->derived->committed.load(std::memory_order_acquire);
}

void datatype_retain(const Datatype *type)
{
    if (type != nullptr && type->derived != nullptr) {
        type->derived->refs.fetch_add(1, std::memory_order_relaxed);
    }
}

void datatype_release(const Datatype *type)
{
    if (type == nullptr || type->derived == nullptr) {
        return;
    }
    DerivedType *d = type->derived;
    if (d->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) {
        return;
    }
    for (const TypeRun &r : d->runs) {
        datatype_release(r.child);
    }
    for (const Datatype *t : d->contents.types) {
        datatype_release(t);
    }
    if (d->plan != nullptr) {
        mca_dte_base_plan_release(d->plan);
    }
    d->magic = 0;
    delete d;
}

MPI_Count datatype_elements_in(const Datatype *type, std::size_t bytes)
{
    if (type->size == 0) {
        return 0;
    }
    const std::size_t whole = bytes / type->size;
    std::size_t rest = bytes % type->size;
    MPI_Count n = static_cast<MPI_Count>(whole * datatype_elements(type));
    if (rest == 0) {
        return n;
    }
    if (type->derived == nullptr) {
        /* only a pair type's first member can end a partial element */
        return predefined_pair(type) && rest == pair_first_size(type) ? n + 1 : -1;
    }
    /* Walk the runs in pack order, skipping whole blocks, into the run that holds the end. */
    for (const TypeRun &r : type->derived->runs) {
        const std::size_t block = static_cast<std::size_t>(r.blocklen) * r.child->size;
        const std::size_t run = block * static_cast<std::size_t>(r.count);
        if (rest >= run) {
            n += static_cast<MPI_Count>(static_cast<std::uint64_t>(r.blocklen) * static_cast<std::uint64_t>(r.count) *
                                        datatype_elements(r.child));
            rest -= run;
            continue;
        }
        const MPI_Count inner = datatype_elements_in(r.child, rest);
        return inner < 0 ? -1 : n + inner;
    }
    return n;
}

std::size_t datatype_bytes_of(const Datatype *type, std::uint64_t elements)
{
    const std::uint64_t per = datatype_elements(type);
    if (per == 0) {
        return 0;
    }
    std::size_t bytes = static_cast<std::size_t>(elements / per) * type->size;
    std::uint64_t rest = elements % per;
    if (rest == 0) {
        return bytes;
    }
    if (type->derived == nullptr) {
        return bytes + pair_first_size(type); /* a pair type: one of its two members */
    }
    for (const TypeRun &r : type->derived->runs) {
        const std::uint64_t instances = static_cast<std::uint64_t>(r.blocklen) * static_cast<std::uint64_t>(r.count);
        const std::uint64_t run = instances * datatype_elements(r.child);
        if (rest >= run) {
            bytes += static_cast<std::size_t>(instances) * r.child->size;
            rest -= run;
            continue;
        }
        return bytes + datatype_bytes_of(r.child, rest);
    }
    return bytes;
}

/* Derived handles are the addresses of their objects with their slots' generations
 * (runtime/user_handle.h): a freed type's handle, a handle of another kind or a made-up value is no
 * datatype. */
const Datatype *derived_lookup(MPI_Datatype handle)
{
    const DerivedType *d = user_object<DerivedType>(handle);
    if (d == nullptr || d->magic != DerivedType::kMagic || d->type.derived != d) {
        return nullptr;
    }
    return &d->type;
}

} // namespace tessera::ompi
