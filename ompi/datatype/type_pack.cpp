/* MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-4.1 5.2): the native packed form is the convertor's
 * stream, the data bytes in type-map order, so its size is count * size. */
#include <string>

#include "ompi/datatype/convertor.h"
#include "ompi/datatype/type_checks.h"
#include "ompi/datatype/type_functions.h"
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

int pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
         MPI_Comm comm)
{
    MPI_Count pos = *position;
    const int rc = pack_impl("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, &pos, comm);
    *position = static_cast<int>(pos);
    return rc;
}

int unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
             MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack_impl("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
           MPI_Comm comm)
{
    MPI_Count pos = *position;
    const int rc = unpack_impl("MPI_Unpack", inbuf, insize, &pos, outbuf, outcount, datatype, comm);
    *position = static_cast<int>(pos);
    return rc;
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

int pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    MPI_Count s = 0;
    if (int rc = pack_size_c(incount, datatype, comm, &s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (s > INT32_MAX) {
        return raise_on_comm(comm, MPI_ERR_COUNT, "MPI_Pack_size",
                             std::to_string(s) + " bytes do not fit in an int: use MPI_Pack_size_c");
    }
    *size = static_cast<int>(s);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
