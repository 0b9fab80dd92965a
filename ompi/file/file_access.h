/*
 * The MPI layer's side of data access on a file (MPI-4.1 14.4): the checks every access makes, the
 * call into the module, file pointer arithmetic, the shared file pointer and the data representations.
 * The MPI functions (file_access.cpp, file_view_calls.cpp, file_nonblocking.cpp) are built on these.
 */
#ifndef TESSERA_OMPI_FILE_FILE_ACCESS_H
#define TESSERA_OMPI_FILE_FILE_ACCESS_H

#include <cstddef>

#include <mpi.h>

#include "ompi/file/file.h"

namespace tessera::ompi {

/* Where an access starts. */
enum class Position { Explicit, Individual, Shared };

/* One access as the application asked for it. */
struct AccessCall {
    const char *function;
    MPI_File fh;
    bool write;
    bool collective;
    Position position;
    MPI_Offset offset; /* Explicit only */
    void *buf;
    MPI_Count count;
    MPI_Datatype datatype;
};

/* Checks the call (file, mode, datatype, offset); MPI_SUCCESS with *f and *type set, or the error
 * raised on the file. */
int access_check(const AccessCall &call, File **f, const Datatype **type);
/* Runs a checked access at `offset` (etypes of the view) through the module; *bytes moved. MPI error
 * class, f->error_detail saying why. Takes no file pointer. */
int access_run(File *f, const AccessCall &call, const Datatype *type, MPI_Offset offset, std::size_t *bytes);
/* The whole blocking call: check, pointer, run, pointer update, status. */
int access_blocking(const AccessCall &call, MPI_Status *status);
/* The status of an access that moved `bytes`. */
void access_status(MPI_Status *status, std::size_t bytes);

/* The base of MPI_File_seek[_shared]: 0, `current`, or the end of the file in etypes of the view
 * (the first etype wholly past the file's last byte). MPI_ERR_ARG for another whence. */
int file_seek_base(File *f, int whence, MPI_Offset current, MPI_Offset *base);

/* The shared file pointer (file_shared.cpp): set up at open (collective), freed at close. */
int file_shared_open(File *f);
void file_shared_close(File *f);
/* Collective: back to 0 (MPI_File_set_view). */
int file_shared_reset(File *f);
/* Atomically: *old = pointer; pointer += delta (etypes). */
int file_shared_fetch_add(File *f, MPI_Offset delta, MPI_Offset *old);
/* Atomically sets it. */
int file_shared_set(File *f, MPI_Offset value);
/* The absolute byte offset the shared pointer names (MPI_DISPLACEMENT_CURRENT). */
int file_shared_position_bytes(File *f, MPI_Offset *bytes);

/* Data representations (file_datarep.cpp): MPI_SUCCESS when `datarep` is one Tessera can use in a
 * view, else MPI_ERR_UNSUPPORTED_DATAREP raised on the file. */
int file_datarep_check(const char *function, MPI_File fh, const char *datarep, const Datatype *etype,
                       const Datatype *filetype);
/* The extent of a datatype in the file under the file's data representation. */
MPI_Count file_datarep_extent(const File *f, const Datatype *type);

} // namespace tessera::ompi

#endif
