/* Views and independent access: each rank writes its blocks of an interleaved view (vector, subarray,
 * indexed and struct filetypes, odd sizes), with non-contiguous memory types; the file is checked byte
 * by byte against what the views say with plain POSIX reads, and read back through the views; data
 * sieving forced on and off by hints; file pointers (seek with every whence, get_position,
 * get_byte_offset), get_view, get_type_extent, reads at the end of the file, unsupported datareps. */
#include "io_test_util.h"

static int rank, size;

/* The ints of a file of `n` ints through POSIX (rank 0 checks). */
static int *file_ints(const char *path, long n, long *got)
{
    int *all = calloc((size_t)n + 1, sizeof(int));
    *got = posix_read_all(path, all, (size_t)n * sizeof(int)) / (long)sizeof(int);
    return all;
}

/* Interleaved blocks: int j of the file belongs to rank (j / B) % size, as its element ((j / B) / size)
 * * B + j % B; each rank writes `per` ints. */
static void vector_view(const char *path, const char *ds_write, const char *ds_read, int B, int per)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_write", ds_write);
    MPI_Info_set(info, "romio_ds_read", ds_read);
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh) == MPI_SUCCESS, "open");
    MPI_Info_free(&info);
    MPI_Datatype block, filetype;
    MPI_Type_contiguous(B, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)B * size * (MPI_Aint)sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    CHECK(MPI_File_set_view(fh, (MPI_Offset)rank * B * (MPI_Offset)sizeof(int), MPI_INT, filetype, "native",
                            MPI_INFO_NULL) == MPI_SUCCESS,
          "set_view");
    int *data = malloc((size_t)per * sizeof(int));
    for (int i = 0; i < per; ++i) {
        data[i] = rank * 1000000 + i;
    }
    /* Half with the individual pointer, the rest at an explicit offset. */
    MPI_Status st;
    int half = per / 2;
    CHECK(MPI_File_write(fh, data, half, MPI_INT, &st) == MPI_SUCCESS, "write");
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == half, "write count %d, expected %d", count, half);
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == half, "position %lld after writing %d", (long long)pos, half);
    CHECK(MPI_File_write_at(fh, half, data + half, per - half, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_at");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);

    /* Byte by byte. */
    const long total = (long)per * size;
    const long blocks = (per + B - 1) / B;
    const long extent_ints = blocks * B * size;
    if (rank == 0) {
        long got = 0;
        int *all = file_ints(path, extent_ints, &got);
        for (long j = 0; j < extent_ints; ++j) {
            const long b = j / B;
            const int owner = (int)(b % size);
            const long idx = (b / size) * B + j % B;
            if (idx >= per) {
                continue; /* a hole, or past what the last rank wrote */
            }
            CHECK(j < got, "the file ends at int %ld, int %ld was written", got, j);
            CHECK(all[j] == owner * 1000000 + idx, "%s/%s: file int %ld is %d, expected %d (rank %d's %ld)", ds_write,
                  ds_read, j, all[j], owner * 1000000 + (int)idx, owner, idx);
        }
        free(all);
    }
    (void)total;

    /* Read back through the view with a non-contiguous memory type: every other int. */
    MPI_Datatype spread;
    MPI_Type_vector(per, 1, 2, MPI_INT, &spread);
    MPI_Type_commit(&spread);
    int *back = malloc((size_t)per * 2 * sizeof(int));
    for (int i = 0; i < 2 * per; ++i) {
        back[i] = -7;
    }
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    CHECK(MPI_File_read(fh, back, 1, spread, &st) == MPI_SUCCESS, "read");
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == per * (int)sizeof(int), "read %d bytes, expected %d", count, per * (int)sizeof(int));
    for (int i = 0; i < per; ++i) {
        CHECK(back[2 * i] == data[i], "%s/%s: read int %d is %d, expected %d", ds_write, ds_read, i, back[2 * i],
              data[i]);
        CHECK(back[2 * i + 1] == -7, "the memory type's hole %d was written", i);
    }
    MPI_Type_free(&spread);
    free(back);
    free(data);
    MPI_Type_free(&block);
    MPI_Type_free(&filetype);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

/* A 2-D subarray per rank (rows split among the ranks, odd sizes), written through the view from a
 * memory subarray with a halo; the file is the global array in row-major order. */
static void subarray_view(const char *path)
{
    const int rows = 7 * size, cols = 13;
    int gsizes[2] = {rows, cols}, lsizes[2] = {7, cols}, starts[2] = {7 * rank, 0};
    MPI_Datatype filetype, memtype;
    MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &filetype);
    MPI_Type_commit(&filetype);
    int msizes[2] = {9, cols + 2}, mstarts[2] = {1, 1};
    MPI_Type_create_subarray(2, msizes, lsizes, mstarts, MPI_ORDER_C, MPI_DOUBLE, &memtype);
    MPI_Type_commit(&memtype);
    double local[9][15];
    for (int r = 0; r < 9; ++r) {
        for (int c = 0; c < 15; ++c) {
            local[r][c] = (r >= 1 && r <= 7 && c >= 1 && c <= cols) ? (7 * rank + r - 1) * 100.0 + (c - 1) : -1.0;
        }
    }
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL);
    CHECK(MPI_File_write_at(fh, 0, local, 1, memtype, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write subarray");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    if (rank == 0) {
        double *all = calloc((size_t)rows * cols, sizeof(double));
        long got = posix_read_all(path, all, (size_t)rows * cols * sizeof(double));
        CHECK(got == (long)(rows * cols * sizeof(double)), "subarray file of %ld bytes", got);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) {
                CHECK(all[r * cols + c] == r * 100.0 + c, "subarray file [%d][%d] = %g", r, c, all[r * cols + c]);
            }
        }
        free(all);
    }
    /* The byte offset of the view's first etype is the rank's first row. */
    MPI_Offset disp = -1;
    MPI_File_get_byte_offset(fh, 0, &disp);
    CHECK(disp == (MPI_Offset)7 * rank * cols * (MPI_Offset)sizeof(double), "byte offset of etype 0: %lld",
          (long long)disp);
    MPI_File_get_byte_offset(fh, cols + 1, &disp);
    CHECK(disp == ((MPI_Offset)(7 * rank + 1) * cols + 1) * (MPI_Offset)sizeof(double), "byte offset of etype %d: %lld",
          cols + 1, (long long)disp);
    /* get_view gives the view back; derived types as new handles. */
    MPI_Offset vdisp;
    MPI_Datatype e, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &vdisp, &e, &ft, rep);
    CHECK(vdisp == 0 && e == MPI_DOUBLE && strcmp(rep, "native") == 0, "get_view");
    int ni, na, nd, comb;
    MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_SUBARRAY || comb == MPI_COMBINER_DUP, "get_view's filetype combiner %d", comb);
    MPI_Type_free(&ft);
    MPI_Aint extent = 0;
    MPI_File_get_type_extent(fh, filetype, &extent);
    MPI_Aint lb, tex;
    MPI_Type_get_extent(filetype, &lb, &tex);
    CHECK(extent == tex, "get_type_extent %ld, expected %ld", (long)extent, (long)tex);
    /* Read back into the memory subarray. */
    double back[9][15];
    for (int r = 0; r < 9; ++r) {
        for (int c = 0; c < 15; ++c) {
            back[r][c] = -2.0;
        }
    }
    CHECK(MPI_File_read_at(fh, 0, back, 1, memtype, MPI_STATUS_IGNORE) == MPI_SUCCESS, "read subarray");
    for (int r = 0; r < 9; ++r) {
        for (int c = 0; c < 15; ++c) {
            const double want = (r >= 1 && r <= 7 && c >= 1 && c <= cols) ? local[r][c] : -2.0;
            CHECK(back[r][c] == want, "read back [%d][%d] = %g, expected %g", r, c, back[r][c], want);
        }
    }
    MPI_File_close(&fh);
    MPI_Type_free(&filetype);
    MPI_Type_free(&memtype);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

/* An indexed filetype with odd block lengths and a struct filetype with a gap, on one rank's own file
 * region (rank * 4096 displacement), then seek with every whence and reads at the end of the file. */
static void indexed_struct_view(const char *path)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    int lens[3] = {3, 1, 5}, displs[3] = {0, 7, 11};
    MPI_Datatype idx;
    MPI_Type_indexed(3, lens, displs, MPI_CHAR, &idx); /* 9 bytes in an extent of 16 */
    MPI_Type_commit(&idx);
    const MPI_Offset base = (MPI_Offset)rank * 4096;
    MPI_File_set_view(fh, base, MPI_CHAR, idx, "native", MPI_INFO_NULL);
    char text[30];
    for (int i = 0; i < 27; ++i) {
        text[i] = (char)('a' + (i + rank) % 26);
    }
    CHECK(MPI_File_write(fh, text, 27, MPI_CHAR, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write indexed");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    unsigned char raw[48];
    memset(raw, 0, sizeof raw);
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "posix open");
    CHECK(pread(fd, raw, 48, base) >= 43, "posix read");
    close(fd);
    int k = 0;
    for (int el = 0; el < 3; ++el) {
        for (int b = 0; b < 3; ++b) {
            for (int i = 0; i < lens[b]; ++i) {
                const int at = el * 16 + displs[b] + i;
                CHECK(raw[at] == (unsigned char)text[k], "indexed: file byte %d is %d, expected %d", at, raw[at],
                      text[k]);
                ++k;
            }
        }
    }
    for (int at = 0; at < 43; ++at) {
        const int r = at % 16;
        const int data = r < 3 || r == 7 || (r >= 11 && r < 16);
        if (!data) {
            CHECK(raw[at] == 0, "indexed: hole byte %d was written (%d)", at, raw[at]);
        }
    }
    /* Seek: SET, CUR, END (the end of the file counts in etypes of the view). */
    MPI_Offset pos;
    MPI_File_seek(fh, 4, MPI_SEEK_SET);
    MPI_File_seek(fh, 2, MPI_SEEK_CUR);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 6, "seek set+cur: %lld", (long long)pos);
    char c = 0;
    MPI_File_read(fh, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(c == text[6], "read after seek: %c, expected %c", c, text[6]);
    if (rank == size - 1) {
        /* The last rank's region ends the file: its end is after its 27 etypes. */
        MPI_File_seek(fh, 0, MPI_SEEK_END);
        MPI_File_get_position(fh, &pos);
        CHECK(pos == 27, "seek end: %lld, expected 27", (long long)pos);
        MPI_File_seek(fh, -2, MPI_SEEK_END);
        MPI_Status st;
        char two[8];
        MPI_File_read(fh, two, 8, MPI_CHAR, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_CHAR, &count);
        CHECK(count == 2, "a read of 8 at 2 before the end got %d", count);
        CHECK(two[0] == text[25] && two[1] == text[26], "the last bytes");
        MPI_File_get_position(fh, &pos);
        CHECK(pos == 27, "position after a short read: %lld", (long long)pos);
    }
    int rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    CHECK(error_class(rc) == MPI_ERR_ARG, "seek before the start: class %d", error_class(rc));
    /* A struct filetype: two doubles with a gap, as a view of doubles. */
    int blens[2] = {1, 1};
    MPI_Aint sdispl[2] = {0, 24};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE}, st2, st2r;
    MPI_Type_create_struct(2, blens, sdispl, types, &st2);
    MPI_Type_create_resized(st2, 0, 40, &st2r);
    MPI_Type_commit(&st2r);
    MPI_File_set_view(fh, base + 1024, MPI_DOUBLE, st2r, "native", MPI_INFO_NULL);
    double d[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5 + rank};
    CHECK(MPI_File_write_at(fh, 0, d, 6, MPI_DOUBLE, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write struct view");
    double dr[6] = {0};
    MPI_File_read_at(fh, 0, dr, 6, MPI_DOUBLE, MPI_STATUS_IGNORE);
    for (int i = 0; i < 6; ++i) {
        CHECK(dr[i] == d[i], "struct view double %d: %g", i, dr[i]);
    }
    double plain[14];
    MPI_File_set_view(fh, base + 1024, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL);
    MPI_File_read_at(fh, 0, plain, 14, MPI_DOUBLE, MPI_STATUS_IGNORE);
    CHECK(plain[0] == 1.5 && plain[3] == 2.5 && plain[5] == 3.5 && plain[8] == 4.5 && plain[10] == 5.5 &&
              plain[13] == 6.5 + rank,
          "struct view placement");
    /* Data representations. */
    rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "no_such_rep", MPI_INFO_NULL);
    CHECK(error_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep: class %d", error_class(rc));
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "internal", MPI_INFO_NULL) == MPI_SUCCESS, "internal");
    /* external32: big-endian in the file, native in memory. */
    CHECK(MPI_File_set_view(fh, base + 2048, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL) == MPI_SUCCESS,
          "external32 view");
    int x[3] = {0x01020304, 5, -1}, xr[3] = {0, 0, 0};
    CHECK(MPI_File_write_at(fh, 0, x, 3, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "external32 write");
    MPI_File_sync(fh);
    unsigned char ext[12];
    fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && pread(fd, ext, 12, base + 2048) == 12, "posix read of external32 data");
    close(fd);
    const unsigned char want[12] = {1, 2, 3, 4, 0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff};
    CHECK(memcmp(ext, want, 12) == 0, "external32 bytes %02x %02x %02x %02x", ext[0], ext[1], ext[2], ext[3]);
    CHECK(MPI_File_read_at(fh, 0, xr, 3, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "external32 read");
    CHECK(xr[0] == x[0] && xr[1] == x[1] && xr[2] == x[2], "external32 read back %x %d %d", xr[0], xr[1], xr[2]);
    /* Filetypes and etypes with negative, decreasing or (for writing) overlapping displacements. */
    int bl[2] = {1, 1}, negd[2] = {-2, 2}, decd[2] = {3, 1}, ovl[2] = {2, 2}, ovd[2] = {0, 1};
    MPI_Datatype neg, dec, ov;
    MPI_Type_indexed(2, bl, negd, MPI_INT, &neg);
    MPI_Type_indexed(2, bl, decd, MPI_INT, &dec);
    MPI_Type_indexed(2, ovl, ovd, MPI_INT, &ov);
    MPI_Type_commit(&neg);
    MPI_Type_commit(&dec);
    MPI_Type_commit(&ov);
    rc = MPI_File_set_view(fh, 0, MPI_INT, neg, "native", MPI_INFO_NULL);
    CHECK(error_class(rc) == MPI_ERR_IO, "negative filetype displacement: class %d", error_class(rc));
    rc = MPI_File_set_view(fh, 0, dec, dec, "native", MPI_INFO_NULL);
    CHECK(error_class(rc) == MPI_ERR_IO, "decreasing etype displacements: class %d", error_class(rc));
    rc = MPI_File_set_view(fh, 0, MPI_INT, ov, "native", MPI_INFO_NULL);
    CHECK(error_class(rc) == MPI_ERR_IO, "overlapping filetype for writing: class %d", error_class(rc));
    MPI_Type_free(&neg);
    MPI_Type_free(&dec);
    MPI_Type_free(&ov);
    MPI_File_close(&fh);
    MPI_Type_free(&idx);
    MPI_Type_free(&st2);
    MPI_Type_free(&st2r);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[512];
    job_path(path, sizeof path, "view");
    const char *modes[3] = {"enable", "disable", "automatic"};
    for (int w = 0; w < 3; ++w) {
        for (int r = 0; r < 3; ++r) {
            vector_view(path, modes[w], modes[r], 3, 1001);
        }
    }
    vector_view(path, "enable", "enable", 1, 4096); /* every size-th int: many small pieces */
    vector_view(path, "automatic", "automatic", 1000, 2500);
    subarray_view(path);
    indexed_struct_view(path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("io_view: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
