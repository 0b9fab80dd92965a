/*
 * A slow reference for derived datatypes, written from the standard's definitions (MPI-4.1 5.1) and
 * independent of the library's own structural form: it reads a type back through
 * MPI_Type_get_envelope/get_contents and expands the constructor into its type map, a list of byte
 * runs in type-map order, with the bounds the standard defines.
 */
#ifndef TESSERA_TESTS_UNIT_DATATYPE_TYPE_REFERENCE_H
#define TESSERA_TESTS_UNIT_DATATYPE_TYPE_REFERENCE_H

#include <cstdint>
#include <vector>

#include <mpi.h>

namespace tessera::test::datatype {

struct Run {
    std::int64_t offset;
    std::int64_t length;
};

struct TypeMap {
    std::vector<Run> runs; /* in type-map order */
    std::int64_t lb = 0, ub = 0;
    bool lb_marked = false, ub_marked = false; /* explicit bounds (resized) inside */
    std::int64_t align = 1;
    std::int64_t size() const;
    std::int64_t true_lb() const;
    std::int64_t true_ub() const;
    bool overlaps() const; /* some byte is named twice */
};

TypeMap reference_map(MPI_Datatype type);

/* Gathers the bytes of `count` elements at `buf` into a packed vector, as the type map says. */
std::vector<unsigned char> reference_pack(const TypeMap &m, const unsigned char *buf, std::size_t count);

/* Scatters a packed stream into `count` elements at `buf`. */
void reference_unpack(const TypeMap &m, const unsigned char *packed, unsigned char *buf, std::size_t count);

} // namespace tessera::test::datatype

#endif
