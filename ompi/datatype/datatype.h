/*
 * Datatypes as the point-to-point engine sees them: size, bounds and the layout of one element. The
 * predefined datatypes of the ABI describe an element as one or two runs of bytes (pair types have
 * two); a derived datatype (datatype_derived.h) keeps its construction and, once committed, a plan of
 * the dte framework. The engine moves typed data only through the convertor (convertor.h).
 */
#ifndef TESSERA_OMPI_DATATYPE_DATATYPE_H
#define TESSERA_OMPI_DATATYPE_DATATYPE_H

#include <cstddef>
#include <cstdint>

#include <mpi.h>

namespace tessera::ompi {

/* A run of bytes of one element, at `offset` from the element's start. */
struct DatatypeBlock {
    std::ptrdiff_t offset;
    std::size_t length;
};

struct DerivedType;

struct Datatype {
    const char *name;     /* "MPI_DOUBLE_INT"; a derived type's name is its own (MPI_Type_set_name) */
    std::size_t size;     /* bytes of data in one element (what is sent) */
    std::ptrdiff_t lb;    /* lower bound */
    std::ptrdiff_t extent;
    bool contiguous;      /* the packed bytes are memory [true_lb, true_lb + size) and extent == size */
    int block_count;      /* predefined: the blocks of one element, in order: pair types have two */
    DatatypeBlock blocks[2];
    std::ptrdiff_t true_lb;  /* lowest byte of data, relative to the element's start */
    std::ptrdiff_t true_ub;  /* one past the highest byte of data */
    DerivedType *derived;    /* nullptr for a predefined datatype */
};

/* The datatype of a handle, or nullptr for MPI_DATATYPE_NULL and handles that name no datatype. A
 * derived datatype is found even if it is not committed (datatype_committed says). */
const Datatype *datatype_lookup(MPI_Datatype handle);

/* The handle of a datatype. */
MPI_Datatype datatype_handle(const Datatype *type);

/* Whether a datatype may be used in communication: predefined, or derived and committed. */
bool datatype_committed(const Datatype *type);

/* A use of the datatype beyond its handle (a request in flight, a parent type): a derived datatype
 * lives until its handle is freed and every use is released. No-ops for predefined ones. */
void datatype_retain(const Datatype *type);
void datatype_release(const Datatype *type);

} // namespace tessera::ompi

#endif
