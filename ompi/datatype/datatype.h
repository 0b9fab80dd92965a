/*
 * Datatypes as the point-to-point engine sees them: size, extent and the layout of one element as
 * runs of bytes. For now the predefined datatypes of the ABI (issue 5); derived datatypes and their
 * engines (dte framework) come with issue 6 behind the same description and the convertor
 * (convertor.h), which is all the engine uses to move typed data.
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

struct Datatype {
    const char *name;     /* "MPI_DOUBLE_INT" */
    std::size_t size;     /* bytes of data in one element (what is sent) */
    std::ptrdiff_t lb;    /* lower bound */
    std::ptrdiff_t extent;
    bool contiguous;      /* one block of `size` bytes at offset 0 and extent == size */
    int block_count;      /* the blocks of one element, in order: pair types have two */
    DatatypeBlock blocks[2];
};

/* The datatype of a handle, or nullptr for MPI_DATATYPE_NULL and handles that name no datatype. */
const Datatype *datatype_lookup(MPI_Datatype handle);

} // namespace tessera::ompi

#endif
