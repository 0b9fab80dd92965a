/* Files as objects: open and close with every access-mode rule and the error classes the file system's
 * answers map to, MPI_File_delete, MPI_MODE_DELETE_ON_CLOSE, size, preallocate, group, amode, hints
 * (the values in force reported), atomicity, sync, and the file error handlers (MPI_ERRORS_RETURN by
 * default, MPI_FILE_NULL's handler inherited by new files, user handlers called with the file). */
#include "io_test_util.h"

static int last_code = MPI_SUCCESS;
static MPI_File last_file = MPI_FILE_NULL;

static void on_error(MPI_File *fh, int *code, ...)
{
    last_file = *fh;
    last_code = *code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[512], missing[512];
    job_path(path, sizeof path, "basic");
    job_path(missing, sizeof missing, "missing/none");

    if (argc > 1 && strcmp(argv[1], "fatal_open") == 0) {
        /* Run with no io component: the open's error, made fatal, says why. */
        MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
        MPI_File_close(&fh);
        MPI_File_delete(path, MPI_INFO_NULL);
        MPI_Finalize();
        return 0;
    }

    /* The default handler of files is MPI_ERRORS_RETURN. */
    MPI_Errhandler eh;
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler is not MPI_ERRORS_RETURN");

    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(error_class(rc) == MPI_ERR_NO_SUCH_FILE, "open of a missing file: class %d", error_class(rc));
    CHECK(fh == MPI_FILE_NULL, "a failed open left a handle");
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(error_class(rc) == MPI_ERR_AMODE, "RDWR|RDONLY: class %d", error_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK(error_class(rc) == MPI_ERR_AMODE, "RDONLY|CREATE: class %d", error_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh);
    CHECK(error_class(rc) == MPI_ERR_AMODE, "RDWR|SEQUENTIAL: class %d", error_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, path, rank == 0 ? MPI_MODE_RDWR | MPI_MODE_CREATE : MPI_MODE_RDWR,
                       MPI_INFO_NULL, &fh);
    if (size > 1) {
        CHECK(error_class(rc) == MPI_ERR_NOT_SAME, "different modes: class %d", error_class(rc));
    } else {
        CHECK(rc == MPI_SUCCESS, "create: %d", rc);
        MPI_File_close(&fh);
        MPI_File_delete(path, MPI_INFO_NULL);
    }

    /* Create with hints; the values in force come back. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "65536");
    MPI_Info_set(info, "romio_ds_write", "disable");
    MPI_Info_set(info, "unknown_key_of_the_application", "kept");
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL, info, &fh);
    CHECK(rc == MPI_SUCCESS, "create exclusive: %d", rc);
    MPI_Info_free(&info);
    MPI_Info used;
    MPI_File_get_info(fh, &used);
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "65536") == 0, "cb_buffer_size in force: %s", flag ? value : "(none)");
    MPI_Info_get(used, "romio_ds_write", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "disable") == 0, "romio_ds_write in force: %s", flag ? value : "(none)");
    MPI_Info_get(used, "romio_ds_read", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "automatic") == 0, "romio_ds_read default: %s", flag ? value : "(none)");
    MPI_Info_free(&used);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "131072");
    MPI_File_set_info(fh, info);
    MPI_Info_free(&info);
    MPI_File_get_info(fh, &used);
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "131072") == 0, "cb_buffer_size after set_info: %s", flag ? value : "(none)");
    MPI_Info_free(&used);

    /* Handle queries. */
    int amode = 0;
    MPI_File_get_amode(fh, &amode);
    CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL), "amode %d", amode);
    MPI_Group group, world;
    MPI_File_get_group(fh, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int same = MPI_UNEQUAL;
    MPI_Group_compare(group, world, &same);
    CHECK(same == MPI_IDENT, "the file's group is not the communicator's");
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "a new file's handler is not MPI_ERRORS_RETURN");

    /* Size, preallocate, sync, atomicity. */
    MPI_Offset fsize = -1;
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == 0, "new file size %lld", (long long)fsize);
    CHECK(MPI_File_set_size(fh, 1000) == MPI_SUCCESS, "set_size");
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == 1000, "size after set_size(1000): %lld", (long long)fsize);
    CHECK(MPI_File_preallocate(fh, 500) == MPI_SUCCESS, "preallocate");
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == 1000, "preallocate(500) shrank the file: %lld", (long long)fsize);
    CHECK(MPI_File_preallocate(fh, 4096) == MPI_SUCCESS, "preallocate");
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == 4096, "size after preallocate(4096): %lld", (long long)fsize);
    CHECK(MPI_File_set_size(fh, 10) == MPI_SUCCESS, "set_size down");
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == 10, "size after set_size(10): %lld", (long long)fsize);
    rc = MPI_File_set_size(fh, rank == 0 ? 5 : 6);
    if (size > 1) {
        CHECK(error_class(rc) == MPI_ERR_NOT_SAME, "different sizes: class %d", error_class(rc));
    }
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS, "sync");

    /* Past 2 GiB through the _c forms (a sparse file). */
    const MPI_Offset far = ((MPI_Offset)3 << 30) + 5;
    double big = 42.5 + rank;
    if (rank == 0) {
        CHECK(MPI_File_write_at_c(fh, far, &big, 1, MPI_DOUBLE, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write at 3 GiB");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == far + 8, "size after a write at 3 GiB: %lld", (long long)fsize);
    double back = 0;
    MPI_Status bigst;
    CHECK(MPI_File_read_at_c(fh, far, &back, 1, MPI_DOUBLE, &bigst) == MPI_SUCCESS && back == 42.5,
          "read at 3 GiB: %g", back);
    MPI_Count bigcount = 0;
    MPI_Get_count_c(&bigst, MPI_DOUBLE, &bigcount);
    CHECK(bigcount == 1, "read at 3 GiB count %lld", (long long)bigcount);
    CHECK(MPI_File_set_size(fh, 10) == MPI_SUCCESS, "set_size back");
    int atomic = -1;
    MPI_File_get_atomicity(fh, &atomic);
    CHECK(atomic == 0, "atomicity starts false");
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &atomic);
    CHECK(atomic == 1, "atomicity not set");

    /* A user handler on the file is called with the file and the code. */
    MPI_Errhandler mine;
    MPI_File_create_errhandler(on_error, &mine);
    MPI_File_set_errhandler(fh, mine);
    MPI_File_call_errhandler(fh, MPI_ERR_IO);
    CHECK(last_code == MPI_ERR_IO && last_file == fh, "the user handler was not called with the file");
    last_code = MPI_SUCCESS;
    MPI_File_seek(fh, 0, 12345);
    CHECK(error_class(last_code) == MPI_ERR_ARG, "a bad whence raised class %d", error_class(last_code));
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "close");

    /* Exists already, with MPI_MODE_EXCL. */
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
    CHECK(error_class(rc) == MPI_ERR_FILE_EXISTS, "EXCL on an existing file: class %d", error_class(rc));

    /* Read-only: writing is MPI_ERR_READ_ONLY; write-only: reading is MPI_ERR_ACCESS. */
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS, "open ro");
    char byte = 'x';
    rc = MPI_File_write_at(fh, 0, &byte, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPI_ERR_READ_ONLY, "write on read-only: class %d", error_class(rc));
    rc = MPI_File_set_size(fh, 0);
    CHECK(error_class(rc) == MPI_ERR_READ_ONLY, "set_size on read-only: class %d", error_class(rc));
    MPI_File_close(&fh);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS, "open wo");
    rc = MPI_File_read_at(fh, 0, &byte, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPI_ERR_ACCESS, "read on write-only: class %d", error_class(rc));
    MPI_File_close(&fh);

    /* A stale handle is MPI_ERR_FILE. */
    MPI_File stale = fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS, "open");
    stale = fh;
    MPI_File_close(&fh);
    rc = MPI_File_get_amode(stale, &amode);
    CHECK(error_class(rc) == MPI_ERR_FILE, "a closed handle: class %d", error_class(rc));

    /* Delete: once, then MPI_ERR_NO_SUCH_FILE. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_File_delete(path, MPI_INFO_NULL) == MPI_SUCCESS, "delete");
        CHECK(!file_exists(path), "the file is still there after delete");
        rc = MPI_File_delete(path, MPI_INFO_NULL);
        CHECK(error_class(rc) == MPI_ERR_NO_SUCH_FILE, "delete of a missing file: class %d", error_class(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_MODE_DELETE_ON_CLOSE: gone after the close. */
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open delete-on-close");
    CHECK(file_exists(path), "the file does not exist while open");
    MPI_File_close(&fh);
    CHECK(!file_exists(path), "a MPI_MODE_DELETE_ON_CLOSE file is still there after close");

    /* MPI_FILE_NULL's handler is inherited by files opened afterwards. */
    MPI_File_set_errhandler(MPI_FILE_NULL, mine);
    last_code = MPI_SUCCESS;
    last_file = (MPI_File)1;
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(error_class(last_code) == MPI_ERR_NO_SUCH_FILE && last_file == MPI_FILE_NULL,
          "open did not call MPI_FILE_NULL's handler");
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == mine, "a new file did not inherit MPI_FILE_NULL's handler");
    MPI_Errhandler_free(&eh);
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    MPI_File_close(&fh);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&mine);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("io_basic: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
