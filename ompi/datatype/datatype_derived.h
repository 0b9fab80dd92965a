/*
 * Derived datatypes (MPI-4.1 chapter 5.1): the construction as the application made it (for
 * MPI_Type_get_envelope/contents), one structural form every constructor maps to, and the facts
 * derived from it (size, bounds, true bounds, alignment, basic elements). MPI_Type_commit adds the
 * normalized description (datatype_normalize.cpp) and a dte plan.
 *
 * The structural form is a list of runs: run i is `count` blocks of `blocklen` elements of `child`,
 * block j at `disp + j * stride` bytes, the elements of a block `extent(child)` apart. Contiguous,
 * vector and hvector are one run; indexed and struct one run per block; subarray and darray are
 * composed of internal vectors and a resize (their contents stay as the application gave them).
 */
#ifndef TESSERA_OMPI_DATATYPE_DATATYPE_DERIVED_H
#define TESSERA_OMPI_DATATYPE_DATATYPE_DERIVED_H

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/dte/dte.h"
#include "ompi/datatype/datatype.h"
#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

struct TypeRun {
    const Datatype *child;
    MPI_Aint disp;
    MPI_Count blocklen;
    MPI_Count count;
    MPI_Aint stride;
};

/* What MPI_Type_get_contents returns. `large` when made by a _c constructor: its counts are then
 * large counts (MPI-4.1 5.1.13). */
struct TypeContents {
    int combiner = MPI_COMBINER_NAMED;
    bool large = false;
    std::vector<int> ints;
    std::vector<MPI_Aint> addresses;
    std::vector<MPI_Count> counts;
    std::vector<const Datatype *> types; /* retained */
};

struct DerivedType {
    /* Objects live in slots of their kind's pool, so that stale handles are refused
     * (runtime/user_handle.h). */
    static constexpr std::uint32_t kHandleTag = 0x44545950; /* "DTYP" */
    static void *operator new(std::size_t size) { return handle_slot_new<DerivedType>(size); }
    static void operator delete(void *object) { handle_slot_delete<DerivedType>(object); }

    static constexpr std::uint64_t kMagic = 0x54455353444454ull; /* "TESSDDT" */

    Datatype type{};          /* what the handle points to */
    std::uint64_t magic = kMagic;
    std::atomic<int> refs{1}; /* the handle, parents, operations in flight */
    TypeContents contents;
    std::vector<TypeRun> runs; /* children retained */
    bool explicit_lb = false;  /* bounds set by MPI_Type_create_resized somewhere inside (sticky) */
    bool explicit_ub = false;
    std::size_t align = 1;     /* the largest alignment of its basic types */
    std::uint64_t elements = 0; /* basic elements in one element */
    std::string name;

    /* Set at commit. */
    std::atomic<bool> committed{false};
    std::vector<mca_dte_elem_t> desc;
    mca_dte_plan_t *plan = nullptr;
};

/* A new derived datatype of `runs` (children retained here), with the facts computed; `resized`
 * gives explicit bounds. Its contents are `contents` (types retained here). */
struct ResizeBounds {
    bool set = false;
    MPI_Aint lb = 0;
    MPI_Aint extent = 0;
};
Datatype *derived_create(TypeContents contents, std::vector<TypeRun> runs, ResizeBounds resize = {},
                         bool pad_to_alignment = false);

/* Commits a datatype: its normalized description and plan (idempotent). MPI error class. */
int derived_commit(DerivedType *d);

/* The normalized description of a datatype (predefined ones too): what the dte engines receive. */
void datatype_describe(const Datatype *type, std::vector<mca_dte_elem_t> *out);

/* The alignment and basic elements of one element of any datatype. */
std::size_t datatype_alignment(const Datatype *type);
std::uint64_t datatype_elements(const Datatype *type);

/* The basic elements in the first `bytes` packed bytes of `count` elements; -1 when `bytes` ends
 * inside a basic element. */
MPI_Count datatype_elements_in(const Datatype *type, std::size_t bytes);

/* The packed bytes of the first `elements` basic elements of a stream of `type`: the inverse of
 * datatype_elements_in (MPI_Status_set_elements). */
std::size_t datatype_bytes_of(const Datatype *type, std::uint64_t elements);

inline DerivedType *derived_of(const Datatype *type)
{
    return type != nullptr ? type->derived : nullptr;
}

} // namespace tessera::ompi

#endif
