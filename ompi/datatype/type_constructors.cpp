/*
 * The datatype constructors (MPI-4.1 5.1.2-5.1.4, 5.1.7, 5.1.13): each checks its arguments, records
 * what it was given (contents) and maps the layout to runs (datatype_derived.h). Only the MPI_Count
 * forms are written: the int forms are generated (ompi/api/gen_native.py) and call them, which then
 * record int counts, as MPI_Type_get_envelope must report them; a _c call's counts are large counts.
 */
#include <string>
#include <vector>

#include "ompi/attribute/attribute.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/datatype/type_checks.h"
#include "ompi/runtime/int_forms.h"
#include "ompi/runtime/native_api.h"

namespace tessera::ompi::native {

namespace {

/* Appends counts to the contents: ints for the int forms, large counts for the _c forms. */
struct Recorder {
    TypeContents c;
    explicit Recorder(int combiner, bool large)
    {
        c.combiner = combiner;
        c.large = large;
    }
    void count(MPI_Count v)
    {
        if (c.large) {
            c.counts.push_back(v);
        } else {
            c.ints.push_back(static_cast<int>(v));
        }
    }
    /* A byte displacement: an address in the int forms, a large count in the _c forms. */
    void address(MPI_Aint v)
    {
        if (c.large) {
            c.counts.push_back(v);
        } else {
            c.addresses.push_back(v);
        }
    }
    void type(const Datatype *t) { c.types.push_back(t); }
};

/* A _c constructor running for its generated int form records int counts (int_forms.h). */
bool with_large_counts(const char *fn)
{
    return !int_forms::running_for_int_form(fn);
}

int finish(Recorder &rec, std::vector<TypeRun> runs, MPI_Datatype *newtype, ResizeBounds rb = {},
           bool pad = false)
{
    Datatype *t = derived_create(std::move(rec.c), std::move(runs), rb, pad);
    *newtype = datatype_handle(t);
    return MPI_SUCCESS;
}

int negative(const char *function, const char *what, MPI_Count v)
{
    return type_error(function, MPI_ERR_ARG, std::string("negative ") + what + " (" + std::to_string(v) + ")");
}

template <typename C>
int contiguous_impl(const char *fn, C count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    Recorder rec(MPI_COMBINER_CONTIGUOUS, large);
    rec.count(count);
    rec.type(old);
    return finish(rec, {{old, 0, static_cast<MPI_Count>(count), 1, 0}}, newtype);
}

/* vector (stride in elements) and hvector (stride in bytes) */
template <typename C, typename S>
int vector_impl(const char *fn, bool bytes, C count, C blocklength, S stride, MPI_Datatype oldtype,
                MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    if (blocklength < 0) {
        return negative(fn, "blocklength", blocklength);
    }
    Recorder rec(bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, large);
    rec.count(count);
    rec.count(blocklength);
    if (bytes) {
        rec.address(static_cast<MPI_Aint>(stride));
    } else {
        rec.count(stride);
    }
    rec.type(old);
    const MPI_Aint step = bytes ? static_cast<MPI_Aint>(stride) : static_cast<MPI_Aint>(stride) * old->extent;
    return finish(rec, {{old, 0, static_cast<MPI_Count>(blocklength), static_cast<MPI_Count>(count), step}}, newtype);
}

/* indexed (displacements in elements) and hindexed (in bytes), with one blocklength each */
template <typename C, typename B, typename D>
int indexed_impl(const char *fn, bool bytes, C count, const B blocklengths[], const D displacements[],
                 MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    Recorder rec(bytes ? MPI_COMBINER_HINDEXED : MPI_COMBINER_INDEXED, large);
    rec.count(count);
    std::vector<TypeRun> runs;
    runs.reserve(static_cast<std::size_t>(count));
    for (C i = 0; i < count; ++i) {
        if (blocklengths[i] < 0) {
            return negative(fn, "blocklength", blocklengths[i]);
        }
        rec.count(blocklengths[i]);
    }
    for (C i = 0; i < count; ++i) {
        if (bytes) {
            rec.address(static_cast<MPI_Aint>(displacements[i]));
        } else {
            rec.count(displacements[i]);
        }
        const MPI_Aint disp = bytes ? static_cast<MPI_Aint>(displacements[i])
                                    : static_cast<MPI_Aint>(displacements[i]) * old->extent;
        runs.push_back({old, disp, static_cast<MPI_Count>(blocklengths[i]), 1, 0});
    }
    rec.type(old);
    return finish(rec, std::move(runs), newtype);
}

/* indexed_block (displacements in elements) and hindexed_block (in bytes) */
template <typename C, typename D>
int indexed_block_impl(const char *fn, bool bytes, C count, C blocklength, const D displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    if (blocklength < 0) {
        return negative(fn, "blocklength", blocklength);
    }
    Recorder rec(bytes ? MPI_COMBINER_HINDEXED_BLOCK : MPI_COMBINER_INDEXED_BLOCK, large);
    rec.count(count);
    rec.count(blocklength);
    std::vector<TypeRun> runs;
    runs.reserve(static_cast<std::size_t>(count));
    for (C i = 0; i < count; ++i) {
        if (bytes) {
            rec.address(static_cast<MPI_Aint>(displacements[i]));
        } else {
            rec.count(displacements[i]);
        }
        const MPI_Aint disp = bytes ? static_cast<MPI_Aint>(displacements[i])
                                    : static_cast<MPI_Aint>(displacements[i]) * old->extent;
        runs.push_back({old, disp, static_cast<MPI_Count>(blocklength), 1, 0});
    }
    rec.type(old);
    return finish(rec, std::move(runs), newtype);
}

template <typename C, typename B, typename D>
int struct_impl(const char *fn, C count, const B blocklengths[], const D displacements[],
                const MPI_Datatype types[], MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    Recorder rec(MPI_COMBINER_STRUCT, large);
    rec.count(count);
    std::vector<TypeRun> runs;
    runs.reserve(static_cast<std::size_t>(count));
    for (C i = 0; i < count; ++i) {
        if (blocklengths[i] < 0) {
            return negative(fn, "blocklength", blocklengths[i]);
        }
        rec.count(blocklengths[i]);
    }
    for (C i = 0; i < count; ++i) {
        const Datatype *t = nullptr;
        const std::string arg = "array_of_types[" + std::to_string(i) + "]";
        if (int rc = type_argument(fn, types[i], arg.c_str(), &t); rc != MPI_SUCCESS) {
            return rc;
        }
        rec.address(static_cast<MPI_Aint>(displacements[i]));
        rec.type(t);
        runs.push_back({t, static_cast<MPI_Aint>(displacements[i]), static_cast<MPI_Count>(blocklengths[i]), 1, 0});
    }
    return finish(rec, std::move(runs), newtype, {}, true);
}

/* An internal building block of subarray and darray: never seen by the application. */
const Datatype *internal(int combiner, std::vector<TypeRun> runs, ResizeBounds rb = {})
{
    TypeContents c;
    c.combiner = combiner;
    return derived_create(std::move(c), std::move(runs), rb);
}

/* Wraps `inner` at `disp` into the final type of extent `extent` from 0, with the given contents; the
 * internal types are released (the final type holds them). */
int compose(Recorder &rec, const Datatype *inner, bool inner_internal, MPI_Aint disp, MPI_Aint extent,
            MPI_Datatype *newtype)
{
    const int rc = finish(rec, {{inner, disp, 1, 1, 0}}, newtype, {true, 0, extent});
    if (inner_internal) {
        datatype_release(inner);
    }
    return rc;
}

template <typename C>
int subarray_impl(const char *fn, int ndims, const C sizes[], const C subsizes[], const C starts[],
                  int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    if (ndims <= 0) {
        return type_error(fn, MPI_ERR_DIMS, "ndims is " + std::to_string(ndims) + ", must be positive");
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return type_error(fn, MPI_ERR_ARG, "order is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
    }
    for (int i = 0; i < ndims; ++i) {
        if (sizes[i] <= 0 || subsizes[i] < 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i]) {
            return type_error(fn, MPI_ERR_ARG,
                        "dimension " + std::to_string(i) + ": size " + std::to_string(sizes[i]) + ", subsize " +
                            std::to_string(subsizes[i]) + ", start " + std::to_string(starts[i]) +
                            " (need 0 < size, 0 <= subsize <= size, 0 <= start <= size - subsize)");
        }
    }
    Recorder rec(MPI_COMBINER_SUBARRAY, large);
    if (large) {
        rec.c.ints = {ndims, order};
        for (const C *a : {sizes, subsizes, starts}) {
            for (int i = 0; i < ndims; ++i) {
                rec.c.counts.push_back(a[i]);
            }
        }
    } else {
        rec.c.ints.push_back(ndims);
        for (const C *a : {sizes, subsizes, starts}) {
            for (int i = 0; i < ndims; ++i) {
                rec.c.ints.push_back(static_cast<int>(a[i]));
            }
        }
        rec.c.ints.push_back(order);
    }
    rec.type(old);
    /* From the fastest-varying dimension out: a row, then rows of rows, each a stride of the full array. */
    const Datatype *t = old;
    bool t_internal = false;
    MPI_Aint stride = old->extent, disp = 0;
    for (int k = 0; k < ndims; ++k) {
        const int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        const Datatype *next = internal(MPI_COMBINER_HVECTOR, {{t, 0, 1, static_cast<MPI_Count>(subsizes[d]), stride}});
        if (t_internal) {
            datatype_release(t);
        }
        t = next;
        t_internal = true;
        disp += static_cast<MPI_Aint>(starts[d]) * stride;
        stride *= static_cast<MPI_Aint>(sizes[d]);
    }
    return compose(rec, t, t_internal, disp, stride, newtype);
}

/* One dimension of a darray (MPI-4.1 5.1.4): the process's part of dimension `dim` of `type`, and
 * where it starts, in elements of that dimension. */
struct DimPart {
    const Datatype *type;
    MPI_Aint start;
};

template <typename C>
int darray_dim(const char *fn, const C gsizes[], int dim, int ndims, int nprocs, int coord, int distrib, int darg,
               int order, MPI_Aint elem_extent, const Datatype *inner, DimPart *out)
{
    const MPI_Count global = gsizes[dim];
    /* the stride of one step in this dimension, in bytes */
    MPI_Aint stride = elem_extent;
    if (order == MPI_ORDER_FORTRAN) {
        for (int i = 0; i < dim; ++i) {
            stride *= static_cast<MPI_Aint>(gsizes[i]);
        }
    } else {
        for (int i = ndims - 1; i > dim; --i) {
            stride *= static_cast<MPI_Aint>(gsizes[i]);
        }
    }
    if (distrib == MPI_DISTRIBUTE_NONE) {
        nprocs = 1;
        coord = 0;
        distrib = MPI_DISTRIBUTE_BLOCK;
        darg = MPI_DISTRIBUTE_DFLT_DARG;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        const MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (global + nprocs - 1) / nprocs : darg;
        if (block <= 0 || block * nprocs < global) {
            return type_error(fn, MPI_ERR_ARG,
                        "dimension " + std::to_string(dim) + ": block size " + std::to_string(block) + " times " +
                            std::to_string(nprocs) + " processes does not cover " + std::to_string(global) +
                            " elements");
        }
        const MPI_Count mine = std::max<MPI_Count>(0, std::min<MPI_Count>(block, global - block * coord));
        out->type = internal(MPI_COMBINER_HVECTOR, {{inner, 0, 1, mine, stride}});
        out->start = mine > 0 ? static_cast<MPI_Aint>(block * coord) : 0;
        return MPI_SUCCESS;
    }
    if (distrib != MPI_DISTRIBUTE_CYCLIC) {
        return type_error(fn, MPI_ERR_ARG, "dimension " + std::to_string(dim) + ": unknown distribution " +
                                         std::to_string(distrib));
    }
    const MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (block <= 0) {
        return type_error(fn, MPI_ERR_ARG, "dimension " + std::to_string(dim) + ": cyclic block size " +
                                         std::to_string(block) + " is not positive");
    }
    const MPI_Count first = static_cast<MPI_Count>(coord) * block;
    MPI_Count mine = 0;
    if (first < global) {
        const MPI_Count span = global - first, cycle = static_cast<MPI_Count>(nprocs) * block;
        mine = span / cycle * block + std::min<MPI_Count>(span % cycle, block);
    }
    const MPI_Count full = mine / block, rest = mine % block;
    const MPI_Aint cycle_bytes = static_cast<MPI_Aint>(nprocs) * static_cast<MPI_Aint>(block) * stride;
    std::vector<TypeRun> runs;
    /* full blocks of `block` steps, one cycle apart, then a shorter last one */
    const Datatype *step = internal(MPI_COMBINER_HVECTOR, {{inner, 0, 1, block, stride}});
    runs.push_back({step, 0, 1, full, cycle_bytes});
    if (rest > 0) {
        const Datatype *last = internal(MPI_COMBINER_HVECTOR, {{inner, 0, 1, rest, stride}});
        runs.push_back({last, full * cycle_bytes, 1, 1, 0});
        out->type = internal(MPI_COMBINER_STRUCT, std::move(runs));
        datatype_release(last);
    } else {
        out->type = internal(MPI_COMBINER_STRUCT, std::move(runs));
    }
    datatype_release(step);
    out->start = mine > 0 ? static_cast<MPI_Aint>(first) : 0;
    return MPI_SUCCESS;
}

template <typename C>
int darray_impl(const char *fn, int size, int rank, int ndims, const C gsizes[], const int distribs[],
                const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    if (size <= 0 || rank < 0 || rank >= size) {
        return type_error(fn, MPI_ERR_RANK, "rank " + std::to_string(rank) + " is not in a group of " + std::to_string(size));
    }
    if (ndims <= 0) {
        return type_error(fn, MPI_ERR_DIMS, "ndims is " + std::to_string(ndims) + ", must be positive");
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return type_error(fn, MPI_ERR_ARG, "order is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
    }
    long grid = 1;
    for (int i = 0; i < ndims; ++i) {
        if (gsizes[i] <= 0 || psizes[i] <= 0) {
            return type_error(fn, MPI_ERR_ARG, "dimension " + std::to_string(i) + ": gsize and psize must be positive");
        }
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1) {
            return type_error(fn, MPI_ERR_ARG, "dimension " + std::to_string(i) + " is MPI_DISTRIBUTE_NONE with psize " +
                                             std::to_string(psizes[i]) + " (must be 1)");
        }
        grid *= psizes[i];
    }
    if (grid != size) {
        return type_error(fn, MPI_ERR_ARG, "the process grid holds " + std::to_string(grid) + " processes, not size " +
                                         std::to_string(size));
    }
    Recorder rec(MPI_COMBINER_DARRAY, large);
    rec.c.ints = {size, rank, ndims};
    for (int i = 0; i < ndims; ++i) {
        if (large) {
            rec.c.counts.push_back(gsizes[i]);
        } else {
            rec.c.ints.push_back(static_cast<int>(gsizes[i]));
        }
    }
    for (const int *a : {distribs, dargs, psizes}) {
        rec.c.ints.insert(rec.c.ints.end(), a, a + ndims);
    }
    rec.c.ints.push_back(order);
    rec.type(old);

    /* The process grid is row-major whatever the array's order (MPI-4.1 5.1.4). */
    std::vector<int> coords(static_cast<std::size_t>(ndims));
    for (int i = ndims - 1, r = rank; i >= 0; --i) {
        coords[static_cast<std::size_t>(i)] = r % psizes[i];
        r /= psizes[i];
    }
    const Datatype *t = old;
    bool t_internal = false;
    MPI_Aint disp = 0, full = old->extent;
    for (int k = 0; k < ndims; ++k) {
        const int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        DimPart part{};
        if (int rc = darray_dim(fn, gsizes, d, ndims, psizes[d], coords[static_cast<std::size_t>(d)], distribs[d],
                                dargs[d], order, old->extent, t, &part);
            rc != MPI_SUCCESS) {
            if (t_internal) {
                datatype_release(t);
            }
            return rc;
        }
        if (t_internal) {
            datatype_release(t);
        }
        t = part.type;
        t_internal = true;
        disp += part.start * full;
        full *= static_cast<MPI_Aint>(gsizes[d]);
    }
    return compose(rec, t, t_internal, disp, full, newtype);
}

template <typename C>
int resized_impl(const char *fn, MPI_Datatype oldtype, C lb, C extent, MPI_Datatype *newtype)
{
    const bool large = with_large_counts(fn);
    const Datatype *old = nullptr;
    if (int rc = type_argument(fn, oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    Recorder rec(MPI_COMBINER_RESIZED, large);
    rec.address(static_cast<MPI_Aint>(lb));
    rec.address(static_cast<MPI_Aint>(extent));
    rec.type(old);
    return finish(rec, {{old, 0, 1, 1, 0}}, newtype, {true, static_cast<MPI_Aint>(lb), static_cast<MPI_Aint>(extent)});
}

/* The predefined type that MPI_Type_create_f90_* returns, as a derived type whose envelope names the
 * parameters (MPI-4.1 19.3.5). */
int f90_impl(const char *fn, int combiner, std::vector<int> params, MPI_Datatype base, MPI_Datatype *newtype)
{
    Recorder rec(combiner, false);
    rec.c.ints = std::move(params);
    const Datatype *t = datatype_lookup(base);
    if (t == nullptr) {
        return type_error(fn, MPI_ERR_ARG, "no such Fortran kind here");
    }
    Datatype *d = derived_create(std::move(rec.c), {{t, 0, 1, 1, 0}});
    derived_commit(d->derived); /* usable at once, as a named type is */
    *newtype = datatype_handle(d);
    return MPI_SUCCESS;
}

} // namespace

int type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return contiguous_impl("MPI_Type_contiguous_c", count, oldtype, newtype);
}
int type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return vector_impl("MPI_Type_vector_c", false, count, blocklength, stride, oldtype, newtype);
}
int type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                          MPI_Datatype *newtype)
{
    return vector_impl("MPI_Type_create_hvector_c", true, count, blocklength, stride, oldtype, newtype);
}
int type_indexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_impl("MPI_Type_indexed_c", false, count, blocklengths, displacements, oldtype, newtype);
}
int type_create_hindexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                           MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_impl("MPI_Type_create_hindexed_c", true, count, blocklengths, displacements, oldtype, newtype);
}
int type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_block_impl("MPI_Type_create_indexed_block_c", false, count, blocklength, displacements,
                              oldtype, newtype);
}
int type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displacements[],
                                 MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_block_impl("MPI_Type_create_hindexed_block_c", true, count, blocklength, displacements,
                              oldtype, newtype);
}
int type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                         const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return struct_impl("MPI_Type_create_struct_c", count, blocklengths, displacements, types, newtype);
}
int type_create_subarray_c(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[], const MPI_Count starts[],
                           int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return subarray_impl("MPI_Type_create_subarray_c", ndims, sizes, subsizes, starts, order, oldtype, newtype);
}
int type_create_darray_c(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                         const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return darray_impl("MPI_Type_create_darray_c", size, rank, ndims, gsizes, distribs, dargs, psizes, order,
                       oldtype, newtype);
}
int type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return resized_impl("MPI_Type_create_resized_c", oldtype, lb, extent, newtype);
}

int type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const Datatype *old = nullptr;
    if (int rc = type_argument("MPI_Type_dup", oldtype, "oldtype", &old); rc != MPI_SUCCESS) {
        return rc;
    }
    Recorder rec(MPI_COMBINER_DUP, false);
    rec.type(old);
    ResizeBounds same{true, old->lb, old->extent};
    Datatype *t = derived_create(std::move(rec.c), {{old, 0, 1, 1, 0}}, same);
    /* the same type map: the same bounds, markers and name-less state; committed if the old one is */
    t->derived->explicit_lb = old->derived != nullptr && old->derived->explicit_lb;
    t->derived->explicit_ub = old->derived != nullptr && old->derived->explicit_ub;
    if (datatype_committed(old)) {
        if (int rc = derived_commit(t->derived); rc != MPI_SUCCESS) {
            datatype_release(t);
            return type_error("MPI_Type_dup", rc, "the dte framework made no plan for the duplicate");
        }
    }
    /* MPI-4.1 7.7.5: the duplicate gets the attributes the copy callbacks choose; a callback's error
     * means no duplicate. */
    std::string error;
    if (int rc = attr_copy_all(AttrKind::Type, oldtype, datatype_handle(t), &error); rc != MPI_SUCCESS) {
        datatype_release(t);
        return type_error("MPI_Type_dup", rc, error);
    }
    *newtype = datatype_handle(t);
    return MPI_SUCCESS;
}

namespace {

/* gfortran's kinds: REAL(4) holds 6 digits and exponents to 37, REAL(8) 15 and 307, REAL(16) 33 and
 * 4931 (COMPLEX the same per part); INTEGER(k) holds 2, 4, 9, 18, 38 decimal digits for k = 1, 2, 4, 8,
 * 16. `kinds` are the types of the three real kinds. */
int f90_floating(const char *fn, int combiner, int p, int r, const MPI_Datatype kinds[3], MPI_Datatype *newtype)
{
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED) {
        return type_error(fn, MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
    }
    const int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
    const MPI_Datatype base = pp <= 6 && rr <= 37     ? kinds[0]
                              : pp <= 15 && rr <= 307 ? kinds[1]
                              : pp <= 33 && rr <= 4931 ? kinds[2]
                                                       : MPI_DATATYPE_NULL;
    return f90_impl(fn, combiner, {p, r}, base, newtype);
}

} // namespace

int type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    const MPI_Datatype kinds[3] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    return f90_floating("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, kinds, newtype);
}

int type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    const MPI_Datatype kinds[3] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    return f90_floating("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, kinds, newtype);
}

int type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    MPI_Datatype base = r <= 2 ? MPI_INTEGER1 : r <= 4 ? MPI_INTEGER2 : r <= 9 ? MPI_INTEGER4
                        : r <= 18 ? MPI_INTEGER8 : r <= 38 ? MPI_INTEGER16 : MPI_DATATYPE_NULL;
    return f90_impl("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, {r}, base, newtype);
}

/* MPI-4.1 6.9.4: the predefined pair type of a value and an index type, where one exists. */
int type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    if (datatype_lookup(value_type) == nullptr || datatype_lookup(index_type) == nullptr) {
        return type_error("MPI_Type_get_value_index", MPI_ERR_TYPE, "an invalid datatype");
    }
    *pair_type = MPI_DATATYPE_NULL;
    if (index_type == MPI_INT) {
        *pair_type = value_type == MPI_FLOAT ? MPI_FLOAT_INT : value_type == MPI_DOUBLE ? MPI_DOUBLE_INT
                     : value_type == MPI_LONG ? MPI_LONG_INT : value_type == MPI_INT ? MPI_2INT
                     : value_type == MPI_SHORT ? MPI_SHORT_INT : value_type == MPI_LONG_DOUBLE ? MPI_LONG_DOUBLE_INT
                     : MPI_DATATYPE_NULL;
    } else if (index_type == value_type) {
        *pair_type = value_type == MPI_REAL ? MPI_2REAL : value_type == MPI_DOUBLE_PRECISION ? MPI_2DOUBLE_PRECISION
                     : value_type == MPI_INTEGER ? MPI_2INTEGER : MPI_DATATYPE_NULL;
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
