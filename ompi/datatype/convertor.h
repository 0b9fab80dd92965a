/*
 * Moving typed data to and from its packed form, one byte range at a time: a transport cuts a message
 * wherever its fragments end, so packing and unpacking resume at any offset of the packed stream.
 * Behind these two calls are the dte framework's plans (interpreter, JIT).
 */
#ifndef TESSERA_OMPI_DATATYPE_CONVERTOR_H
#define TESSERA_OMPI_DATATYPE_CONVERTOR_H

#include <cstddef>

#include "ompi/datatype/datatype.h"

namespace tessera::ompi {

/* Bytes [offset, offset + len) of the packed form of `count` elements at `buf`, into `dst`. */
void convertor_pack(const void *buf, std::size_t count, const Datatype &type, std::size_t offset, void *dst,
                    std::size_t len);

/* The same range of the packed form, from `src` into the `count` elements at `buf`. */
void convertor_unpack(void *buf, std::size_t count, const Datatype &type, std::size_t offset, const void *src,
                      std::size_t len);

/* Moves the packed form of `scount` elements of `stype` at `src` into `dcount` elements of `dtype` at
 * `dst`, as a message from one to the other would: min(scount * stype.size, dcount * dtype.size)
 * bytes (a longer source is the caller's truncation error). The two must not overlap. */
void convertor_copy(const void *src, std::size_t scount, const Datatype &stype, void *dst, std::size_t dcount,
                    const Datatype &dtype);

/* Where the packed bytes are when they need no packing (a contiguous type): buf + true_lb; else nullptr. */
inline const char *convertor_contiguous(const void *buf, const Datatype &type)
{
    return type.contiguous ? static_cast<const char *>(buf) + type.true_lb : nullptr;
}

} // namespace tessera::ompi

#endif
