/* Translator conformance: MPI-IO, where the runtime calls MPI from inside itself (ROMIO implements
 * collective I/O with MPI_Allreduce, MPI_Type_* and MPI_Comm_* calls that land in our bindings) — those
 * calls must reach the runtime untranslated (re-entrancy). Also file handles (a pointer in MPICH, where
 * other handles are ints), a file error handler that sees the application's file handle, MPI_SEEK_*
 * and MPI_MODE_* values, and statuses of file reads. The file lives in a directory rank 0 makes under
 * TMPDIR and is deleted at the end. Two or more ranks. */
#include "conformance.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PER_RANK = 64 };

static MPI_File expected_file;
static int file_handler_calls, file_handler_bad;

static void file_handler(MPI_File *fh, int *code, ...)
{
    ++file_handler_calls;
    file_handler_bad += *fh != expected_file || *code != MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    char dir[4096] = "", path[4200] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/tessera-translator-io-XXXXXX", tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
        if (mkdtemp(dir) == NULL) {
            dir[0] = '\0';
        }
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(dir[0] != '\0', "a scratch directory");
    snprintf(path, sizeof path, "%s/data", dir);

    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK(rc == MPI_SUCCESS && fh != MPI_FILE_NULL, "MPI_File_open: %d", rc);
    int amode = 0;
    CHECK(MPI_File_get_amode(fh, &amode) == MPI_SUCCESS && amode == (MPI_MODE_CREATE | MPI_MODE_RDWR),
          "MPI_File_get_amode: %#x", amode);

    int out[PER_RANK], in[PER_RANK];
    for (int i = 0; i < PER_RANK; ++i) {
        out[i] = rank * 1000 + i;
    }
    MPI_Status status;
    const MPI_Offset at = (MPI_Offset)rank * PER_RANK * (MPI_Offset)sizeof(int);
    CHECK(MPI_File_write_at_all(fh, at, out, PER_RANK, MPI_INT, &status) == MPI_SUCCESS, "write_at_all");
    int count = -1;
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == PER_RANK, "written count %d", count);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset fsize = -1;
    const MPI_Offset expected_size = (MPI_Offset)size * PER_RANK * (MPI_Offset)sizeof(int);
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS && fsize == expected_size, "file size %lld", (long long)fsize);

    /* Each rank reads its neighbour's block through a file view of derived types, collectively. */
    const int peer = (rank + 1) % size;
    MPI_File_set_view(fh, (MPI_Offset)peer * PER_RANK * (MPI_Offset)sizeof(int), MPI_INT, MPI_INT, "native",
                      MPI_INFO_NULL);
    memset(in, 0, sizeof in);
    CHECK(MPI_File_read_all(fh, in, PER_RANK, MPI_INT, &status) == MPI_SUCCESS, "read_all");
    CHECK(MPI_Get_count(&status, MPI_INT, &count) == MPI_SUCCESS && count == PER_RANK, "read count %d", count);
    CHECK(in[0] == peer * 1000 && in[PER_RANK - 1] == peer * 1000 + PER_RANK - 1, "neighbour's data: %d %d", in[0],
          in[PER_RANK - 1]);
    MPI_Offset pos = -1;
    CHECK(MPI_File_seek(fh, 2, MPI_SEEK_SET) == MPI_SUCCESS && MPI_File_get_position(fh, &pos) == MPI_SUCCESS &&
              pos == 2, "seek to element 2: position %lld", (long long)pos);
    CHECK(MPI_File_read(fh, in, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS && in[0] == peer * 1000 + 2,
          "independent read after seek: %d", in[0]);
    MPI_Datatype etype = MPI_DATATYPE_NULL, ftype = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp = -1;
    CHECK(MPI_File_get_view(fh, &disp, &etype, &ftype, rep) == MPI_SUCCESS && etype == MPI_INT && ftype == MPI_INT &&
              strcmp(rep, "native") == 0, "the view comes back with MPI_INT and 'native'");

    /* A file error handler sees the application's handle. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_File_create_errhandler(file_handler, &eh);
    MPI_File_set_errhandler(fh, eh);
    expected_file = fh;
    CHECK(MPI_File_call_errhandler(fh, MPI_ERR_OTHER) == MPI_SUCCESS && file_handler_calls == 1 &&
              file_handler_bad == 0, "file handler: %d calls, %d with a wrong handle or code", file_handler_calls,
          file_handler_bad);
    MPI_Errhandler_free(&eh);

    CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "MPI_File_close sets MPI_FILE_NULL");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_File_delete(path, MPI_INFO_NULL) == MPI_SUCCESS, "MPI_File_delete");
        CHECK(access(path, F_OK) != 0, "the file is gone");
        rmdir(dir);
    }
    /* Errors on no file go to MPI_FILE_NULL's handler, MPI_ERRORS_RETURN by default. */
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir/for/tessera", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    int cls = -1;
    CHECK(rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) == MPI_SUCCESS &&
              (cls == MPI_ERR_NO_SUCH_FILE || cls == MPI_ERR_FILE || cls == MPI_ERR_IO || cls == MPI_ERR_ACCESS),
          "opening a missing file: class %d", cls);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_io");
}
