/* Derived datatypes committed from several threads at once (run with the dte JIT and with the
 * interpreter: the JIT compiles a committed type's pack and unpack code, and threads committing equal
 * descriptions meet in its compile cache). Every thread builds six shapes of MPI_INT (vector,
 * indexed, struct, subarray, resized vector in a contiguous, hvector of vectors), half of them with
 * parameters shared by all threads and half with its own, then in each of R rounds all threads
 * create, commit, use and free their types at the same time. Use: thread t sends one element of each
 * type to thread t of the next rank, which receives it as contiguous ints and compares it with the
 * elements the shape selects (worked out here by hand, not by MPI); then the reverse, contiguous ints
 * received into the type, which must fill exactly the selected elements.
 *
 * usage: threads_types [T threads (default 4)] [R rounds (default 10)]
 */
#include "threads_check.h"

enum { kShapes = 6, kSpan = 512, kTag = 700 };

static int T, R, next_rank, prev_rank;
static start_line start;

/* Builds shape `s` with variant `v` (0: as every thread, else this thread's own); `offsets` receives the
 * indices (in ints) of the elements one instance selects, in type-map order. Returns their number. */
static int build(int s, int v, MPI_Datatype *type, int *offsets)
{
    int n = 0;
    switch (s) {
    case 0: { /* vector */
        const int count = 5 + v % 3, blocklen = 3, stride = 7 + v % 2;
        MPI_Type_vector(count, blocklen, stride, MPI_INT, type);
        for (int i = 0; i < count; ++i)
            for (int j = 0; j < blocklen; ++j) offsets[n++] = i * stride + j;
        break;
    }
    case 1: { /* indexed */
        int lens[4] = {2, 5, 1, 3 + v % 4}, displs[4] = {0, 9, 20, 30 + v % 5};
        MPI_Type_indexed(4, lens, displs, MPI_INT, type);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < lens[i]; ++j) offsets[n++] = displs[i] + j;
        break;
    }
    case 2: { /* struct of two int blocks */
        int lens[2] = {1, 4 + v % 3};
        MPI_Aint displs[2] = {4, 40 + 4 * (v % 6)};
        MPI_Datatype types[2] = {MPI_INT, MPI_INT};
        MPI_Type_create_struct(2, lens, displs, types, type);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < lens[i]; ++j) offsets[n++] = (int)(displs[i] / 4) + j;
        break;
    }
    case 3: { /* subarray of a 2-D array, C order */
        int sizes[2] = {8, 10}, subs[2] = {3, 4 + v % 3}, starts[2] = {2, 3 + v % 2};
        MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, type);
        for (int i = 0; i < subs[0]; ++i)
            for (int j = 0; j < subs[1]; ++j) offsets[n++] = (starts[0] + i) * sizes[1] + starts[1] + j;
        break;
    }
    case 4: { /* vector resized to 12 ints, three of them in a row */
        MPI_Datatype vec, resized;
        const int extent = 12 + v % 4;
        MPI_Type_vector(2, 2, 5, MPI_INT, &vec);
        MPI_Type_create_resized(vec, 0, (MPI_Aint)extent * 4, &resized);
        MPI_Type_contiguous(3, resized, type);
        MPI_Type_free(&vec);
        MPI_Type_free(&resized);
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) offsets[n++] = k * extent + i * 5 + j;
        break;
    }
    default: { /* hvector of vectors */
        MPI_Datatype vec;
        const int stride_bytes = 64 + 4 * (v % 5);
        MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
        MPI_Type_create_hvector(3, 1, stride_bytes, vec, type);
        MPI_Type_free(&vec);
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 2; ++i) offsets[n++] = k * stride_bytes / 4 + i * 3;
        break;
    }
    }
    return n;
}

static int element(int rank, int t, int round, int i)
{
    return rank * 10000000 + t * 100000 + round * 1000 + i;
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Datatype types[kShapes];
    int offsets[kShapes][kSpan], counts[kShapes];
    int *src = malloc(sizeof(int) * kSpan), *dst = malloc(sizeof(int) * kSpan);
    int *packed = malloc(sizeof(int) * kSpan);
    for (int round = 0; round < R; ++round) {
        start_line_wait(&start);
        for (int s = 0; s < kShapes; ++s) {
            counts[s] = build(s, s % 2 ? t + 1 + round % 2 : 0, &types[s], offsets[s]);
            MPI_Type_commit(&types[s]);
        }
        for (int s = 0; s < kShapes; ++s) {
            int size = -1;
            MPI_Type_size(types[s], &size);
            CHECK(size == counts[s] * 4, "thread %d shape %d: MPI_Type_size %d, expected %d", t, s, size, counts[s] * 4);
            for (int i = 0; i < kSpan; ++i) {
                src[i] = element(world_rank, t, round, i);
            }
            /* typed send, contiguous receive: the selected elements in type-map order */
            MPI_Sendrecv(src, 1, types[s], next_rank, kTag + t, packed, counts[s], MPI_INT, prev_rank, kTag + t,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int k = 0; k < counts[s]; ++k) {
                const int expect = element(prev_rank, t, round, offsets[s][k]);
                CHECK(packed[k] == expect, "thread %d round %d shape %d: element %d is %d, expected %d (index %d)", t,
                      round, s, k, packed[k], expect, offsets[s][k]);
            }
            /* contiguous send, typed receive: exactly the selected elements written */
            for (int i = 0; i < kSpan; ++i) {
                dst[i] = -1;
            }
            MPI_Sendrecv(packed, counts[s], MPI_INT, next_rank, kTag + t, dst, 1, types[s], prev_rank, kTag + t,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int written = 0;
            for (int k = 0; k < counts[s]; ++k) {
                const int expect = element((prev_rank + world_size - 1) % world_size, t, round, offsets[s][k]);
                CHECK(dst[offsets[s][k]] == expect, "thread %d round %d shape %d: index %d holds %d after the typed "
                      "receive, expected %d", t, round, s, offsets[s][k], dst[offsets[s][k]], expect);
            }
            for (int i = 0; i < kSpan; ++i) {
                written += dst[i] != -1;
            }
            CHECK(written == counts[s], "thread %d round %d shape %d: the typed receive wrote %d ints, expected %d", t,
                  round, s, written, counts[s]);
        }
        for (int s = 0; s < kShapes; ++s) {
            MPI_Type_free(&types[s]);
            CHECK(types[s] == MPI_DATATYPE_NULL, "thread %d: MPI_Type_free left the handle set", t);
        }
    }
    free(src), free(dst), free(packed);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, kMaxThreads, "threads");
    R = threads_arg(argc, argv, 2, 10, 1, 10000, "rounds");
    next_rank = (world_rank + 1) % world_size;
    prev_rank = (world_rank + world_size - 1) % world_size;
    start_line_init(&start, T);
    threads_run(T, worker);
    start_line_destroy(&start);
    char what[64];
    snprintf(what, sizeof what, "%d threads, %d rounds", T, R);
    return threads_pass("threads_types", what);
}
