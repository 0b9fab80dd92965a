/* Collective access from every rank with interleaved views (two-phase collective buffering forced on
 * with small buffers and several aggregators, forced off, and automatic), zero-length participants,
 * read back collectively and checked byte by byte with POSIX; then the shared file pointer (_shared,
 * _ordered, seek_shared, get_position_shared), split collectives, nonblocking access, atomic mode. */
#include "io_test_util.h"

static int rank, size;

static void check_interleaved(const char *path, int B, const int *per, const char *what)
{
    if (rank != 0) {
        return;
    }
    int maxper = 0;
    for (int p = 0; p < size; ++p) {
        maxper = per[p] > maxper ? per[p] : maxper;
    }
    const long blocks = (maxper + B - 1) / B;
    const long n = blocks * B * size;
    int *all = calloc((size_t)n + 1, sizeof(int));
    const long got = posix_read_all(path, all, (size_t)n * sizeof(int)) / (long)sizeof(int);
    for (long j = 0; j < n; ++j) {
        const long b = j / B;
        const int owner = (int)(b % size);
        const long idx = (b / size) * B + j % B;
        if (idx >= per[owner]) {
            continue;
        }
        CHECK(j < got, "%s: the file ends at int %ld, int %ld was written", what, got, j);
        CHECK(all[j] == owner * 1000000 + idx, "%s: file int %ld is %d, expected %d", what, j, all[j],
              owner * 1000000 + (int)idx);
    }
    free(all);
}

static void interleaved(const char *path, const char *cb, const char *buffer, const char *nodes, int B)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", cb);
    MPI_Info_set(info, "romio_cb_read", cb);
    MPI_Info_set(info, "cb_buffer_size", buffer);
    MPI_Info_set(info, "cb_nodes", nodes);
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh) == MPI_SUCCESS, "open");
    MPI_Info_free(&info);
    MPI_Datatype block, filetype;
    MPI_Type_contiguous(B, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)B * size * (MPI_Aint)sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_File_set_view(fh, (MPI_Offset)rank * B * (MPI_Offset)sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);
    /* Odd, different counts; the last rank of 3 or more writes nothing. */
    int per[8];
    for (int p = 0; p < size; ++p) {
        per[p] = (size >= 3 && p == size - 1) ? 0 : 777 + 131 * p;
    }
    int *data = malloc(((size_t)per[rank] + 1) * sizeof(int));
    for (int i = 0; i < per[rank]; ++i) {
        data[i] = rank * 1000000 + i;
    }
    MPI_Status st;
    CHECK(MPI_File_write_all(fh, data, per[rank], MPI_INT, &st) == MPI_SUCCESS, "write_all");
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == per[rank], "write_all count %d", count);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    char what[128];
    snprintf(what, sizeof what, "write_all cb=%s buffer=%s nodes=%s B=%d", cb, buffer, nodes, B);
    check_interleaved(path, B, per, what);
    /* Read back collectively into a spread memory type, plus one more than written at the end. */
    int *back = malloc(((size_t)per[rank] + 1) * 2 * sizeof(int));
    for (int i = 0; i < 2 * (per[rank] + 1); ++i) {
        back[i] = -1;
    }
    MPI_Datatype spread;
    MPI_Type_vector(per[rank] > 0 ? per[rank] : 1, 1, 2, MPI_INT, &spread);
    MPI_Type_commit(&spread);
    CHECK(MPI_File_read_at_all(fh, 0, back, per[rank] > 0 ? 1 : 0, spread, &st) == MPI_SUCCESS, "read_at_all");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == per[rank], "%s: read_at_all count %d, expected %d", what, count, per[rank]);
    for (int i = 0; i < per[rank]; ++i) {
        CHECK(back[2 * i] == data[i], "%s: read_at_all int %d: %d", what, i, back[2 * i]);
        CHECK(back[2 * i + 1] == -1, "%s: a hole of the memory type was written", what);
    }
    MPI_Type_free(&spread);
    /* The other ranks' data too, through a plain byte view read collectively by every rank. */
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_Offset fsize = 0;
    MPI_File_get_size(fh, &fsize);
    int *whole = malloc((size_t)fsize + 4);
    CHECK(MPI_File_read_all(fh, whole, (int)fsize, MPI_BYTE, &st) == MPI_SUCCESS, "read_all of the whole file");
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == (int)fsize, "read_all of the whole file got %d of %lld", count, (long long)fsize);
    for (long j = 0; j < fsize / 4; ++j) {
        const long b = j / B;
        const int owner = (int)(b % size);
        const long idx = (b / size) * B + j % B;
        if (idx < per[owner]) {
            CHECK(whole[j] == owner * 1000000 + idx, "%s: read_all int %ld is %d", what, j, whole[j]);
        }
    }
    free(whole);
    free(back);
    free(data);
    MPI_Type_free(&block);
    MPI_Type_free(&filetype);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A write-only file with holes between the ranks' ints: collective buffering and data sieving read
 * the holes before they write, which a write-only descriptor cannot. */
static void write_only_holes(const char *path)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_ds_write", "enable");
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, info, &fh) == MPI_SUCCESS, "open");
    MPI_Info_free(&info);
    MPI_Datatype one, filetype;
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, 2 * size * (MPI_Aint)sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_File_set_view(fh, 2 * rank * (MPI_Offset)sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);
    int v[50];
    for (int i = 0; i < 50; ++i) {
        v[i] = 1 + rank * 1000 + i;
    }
    CHECK(MPI_File_write_at_all(fh, 0, v, 25, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_at_all write-only");
    CHECK(MPI_File_write_at(fh, 25, v + 25, 25, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_at write-only");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int all[2 * 8 * 50];
        long n = posix_read_all(path, all, sizeof all) / 4;
        CHECK(n == 2 * size * 49 + 2 * (size - 1) + 1, "write-only file of %ld ints", n);
        for (long j = 0; j < n; ++j) {
            const int owner = (int)((j / 2) % size), i = (int)(j / (2 * size));
            CHECK(all[j] == (j % 2 ? 0 : 1 + owner * 1000 + i), "write-only file int %ld is %d", j, all[j]);
        }
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Type_free(&one);
    MPI_Type_free(&filetype);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void shared_pointers(const char *path)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    /* Ordered: rank r writes r + 1 ints, in rank order. */
    int vals[8];
    for (int i = 0; i <= rank; ++i) {
        vals[i] = rank * 100 + i;
    }
    CHECK(MPI_File_write_ordered(fh, vals, rank + 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_ordered");
    MPI_Offset pos = -1;
    MPI_File_get_position_shared(fh, &pos);
    const int total = size * (size + 1) / 2;
    CHECK(pos == total, "shared position after write_ordered: %lld, expected %d", (long long)pos, total);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    if (rank == 0) {
        int all[64];
        posix_read_all(path, all, sizeof all);
        int k = 0;
        for (int r = 0; r < size; ++r) {
            for (int i = 0; i <= r; ++i, ++k) {
                CHECK(all[k] == r * 100 + i, "ordered int %d is %d", k, all[k]);
            }
        }
    }
    /* Read it back in order. */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    int got[8] = {0};
    CHECK(MPI_File_read_ordered(fh, got, rank + 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "read_ordered");
    for (int i = 0; i <= rank; ++i) {
        CHECK(got[i] == vals[i], "read_ordered int %d: %d", i, got[i]);
    }
    /* Independent shared writes: every int lands once. */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_END);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == total, "seek_shared end: %lld", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD); /* nobody writes before every rank has looked */
    for (int i = 0; i < 10; ++i) {
        int v = 10000 + rank * 10 + i;
        CHECK(MPI_File_write_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_shared");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == total + 10 * size, "shared position after write_shared: %lld", (long long)pos);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    if (rank == 0) {
        int all[512];
        long n = posix_read_all(path, all, sizeof all) / 4;
        CHECK(n == total + 10 * size, "file of %ld ints", n);
        int seen[64] = {0};
        for (long k = total; k < n; ++k) {
            const int v = all[k] - 10000;
            CHECK(v >= 0 && v / 10 < size && v % 10 < 10 && !seen[v], "shared int %ld is %d", k, all[k]);
            seen[v] = 1;
        }
    }
    MPI_File_close(&fh);
}

/* MPI_MODE_SEQUENTIAL: only shared pointers, and a view at MPI_DISPLACEMENT_CURRENT. */
static void sequential(const char *path)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL,
                        &fh) == MPI_SUCCESS,
          "open sequential");
    int v = 7 + rank;
    CHECK(MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_ordered sequential");
    int rc = MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "write_at on a sequential file: class %d",
          error_class(rc));
    CHECK(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) == MPI_SUCCESS,
          "view at MPI_DISPLACEMENT_CURRENT");
    MPI_Offset vdisp;
    MPI_Datatype e, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &vdisp, &e, &ft, rep);
    CHECK(vdisp == size * (MPI_Offset)sizeof(int), "MPI_DISPLACEMENT_CURRENT became %lld", (long long)vdisp);
    v = 100 + rank;
    CHECK(MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_ordered after view");
    MPI_File_close(&fh);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open sequential read");
    int got[2] = {0, 0};
    CHECK(MPI_File_read_ordered(fh, &got[0], 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "read_ordered sequential");
    MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    CHECK(MPI_File_read_ordered(fh, &got[1], 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "read_ordered 2");
    CHECK(got[0] == 7 + rank && got[1] == 100 + rank, "sequential read %d %d", got[0], got[1]);
    MPI_File_close(&fh);
}

static void split_nonblocking_atomic(const char *path)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    double d[100];
    for (int i = 0; i < 100; ++i) {
        d[i] = rank + i / 1000.0;
    }
    /* Split collective. */
    CHECK(MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * 800, d, 100, MPI_DOUBLE) == MPI_SUCCESS, "begin");
    int rc = MPI_File_write_at_all_begin(fh, 0, d, 1, MPI_DOUBLE);
    CHECK(rc != MPI_SUCCESS, "a second split collective was accepted");
    MPI_Status st;
    CHECK(MPI_File_write_at_all_end(fh, d, &st) == MPI_SUCCESS, "end");
    int count = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 100, "split write count %d", count);
    double back[100] = {0};
    MPI_File_read_at_all_begin(fh, (MPI_Offset)((rank + 1) % size) * 800, back, 100, MPI_DOUBLE);
    MPI_File_read_at_all_end(fh, back, &st);
    for (int i = 0; i < 100; ++i) {
        CHECK(back[i] == (rank + 1) % size + i / 1000.0, "split read %d: %g", i, back[i]);
    }
    /* Nonblocking: independent, at, and collective. */
    MPI_Request req[3];
    double e[100];
    for (int i = 0; i < 100; ++i) {
        e[i] = -rank - i;
    }
    MPI_Offset base = (MPI_Offset)size * 800 + (MPI_Offset)rank * 1600;
    CHECK(MPI_File_iwrite_at(fh, base, e, 50, MPI_DOUBLE, &req[0]) == MPI_SUCCESS, "iwrite_at");
    CHECK(MPI_File_iwrite_at(fh, base + 400, e + 50, 50, MPI_DOUBLE, &req[1]) == MPI_SUCCESS, "iwrite_at");
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    double f[100] = {0};
    MPI_File_seek(fh, base, MPI_SEEK_SET);
    CHECK(MPI_File_iread(fh, f, 100, MPI_DOUBLE, &req[0]) == MPI_SUCCESS, "iread");
    MPI_Offset pos;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == base + 800, "the pointer moves at iread: %lld", (long long)pos);
    MPI_Wait(&req[0], &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 100, "iread count %d", count);
    for (int i = 0; i < 100; ++i) {
        CHECK(f[i] == e[i], "iread %d: %g", i, f[i]);
    }
    double g[100] = {0};
    CHECK(MPI_File_iread_at_all(fh, base, g, 100, MPI_DOUBLE, &req[2]) == MPI_SUCCESS, "iread_at_all");
    int done = 0;
    while (!done) {
        MPI_Test(&req[2], &done, MPI_STATUS_IGNORE);
    }
    CHECK(g[99] == e[99], "iread_at_all");
    /* Atomic mode: overlapping writes from all ranks leave one rank's whole block. */
    MPI_File_set_atomicity(fh, 1);
    int block[256];
    for (int i = 0; i < 256; ++i) {
        block[i] = rank;
    }
    MPI_Datatype every_other;
    MPI_Type_vector(128, 1, 2, MPI_INT, &every_other);
    MPI_Datatype ft;
    MPI_Type_create_resized(every_other, 0, 256 * sizeof(int), &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, 100000, MPI_INT, ft, "native", MPI_INFO_NULL);
    for (int k = 0; k < 5; ++k) {
        MPI_File_write_at(fh, 0, block, 128, MPI_INT, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int r[128];
    MPI_File_read_at(fh, 0, r, 128, MPI_INT, MPI_STATUS_IGNORE);
    for (int i = 1; i < 128; ++i) {
        CHECK(r[i] == r[0], "atomic mode: int %d is %d, int 0 is %d", i, r[i], r[0]);
    }
    MPI_Type_free(&every_other);
    MPI_Type_free(&ft);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char path[512];
    job_path(path, sizeof path, "coll");
    interleaved(path, "enable", "4096", "2", 3);
    interleaved(path, "enable", "65536", "1", 1);
    interleaved(path, "enable", "8192", "4", 100);
    interleaved(path, "disable", "4096", "2", 3);
    interleaved(path, "automatic", "16777216", "0", 7);
    write_only_holes(path);
    sequential(path);
    shared_pointers(path);
    split_nonblocking_atomic(path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("io_coll: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
