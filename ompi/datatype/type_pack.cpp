/* MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-4.1 5.2): the native packed form is the convertor's
 * stream, the data bytes in type-map order, so its size is count * size. */
#include <string>

#include "ompi/datatype/convertor.h"
#include "ompi/datatype/type_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::native {

namespace {

int pack_impl(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
              MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    const Datatype *t = nullptr;
    if (int rc = type_committed_argument(fn, datatype, comm, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    const MPI_Count bytes = incount * static_cast<MPI_Count>(t->size);
    if (*position < 0 || *position > outsize || bytes > outsize - *position) {
        return raise_on_comm(comm, MPI_ERR_TRUNCATE, fn,
                             std::to_string(bytes) + " packed bytes do not fit in the " +
                                 std::to_string(outsize - *position) + " left at position " +
                                 std::to_string(*position) + " of the output buffer");
    }
    convertor_pack(inbuf, static_cast<std::size_t>(incount), *t, 0, static_cast<char *>(outbuf) + *position,
                   static_cast<std::size_t>(bytes));
    *position += bytes;
    return MPI_SUCCESS;
}

int unpack_impl(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    const Datatype *t = nullptr;
    if (int rc = type_committed_argument(fn, datatype, comm, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    const MPI_Count bytes = outcount * static_cast<MPI_Count>(t->size);
    if (*position < 0 || *position > insize || bytes > insize - *position) {
        return raise_on_comm(comm, MPI_ERR_TRUNCATE, fn,
                             "unpacking " + std::to_string(bytes) + " bytes from position " +
                                 std::to_string(*position) + " goes past the input's " + std::to_string(insize));
    }
    convertor_unpack(outbuf, static_cast<std::size_t>(outcount), *t, 0, static_cast<const char *>(inbuf) + *position,
                     static_cast<std::size_t>(bytes));
    *position += bytes;
    return MPI_SUCCESS;
}

} // namespace

int pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
           MPI_Count *position, MPI_Comm comm)
{
    return pack_impl("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
             MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack_impl("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    const Datatype *t = nullptr;
    if (int rc = type_committed_argument("MPI_Pack_size", datatype, comm, &t); rc != MPI_SUCCESS) {
        return rc;
    }
    *size = incount * static_cast<MPI_Count>(t->size);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
