/* Datatype engine benchmark: plain MPI C, one rank, built with Tessera's mpicc, mpicc.openmpi and
 * mpicc.mpich (see ddt_bench.py and docs/benchmarks-ddt.md).
 *
 * usage: ddt_bench [options] [file.ddt ...]
 *   --check          verify only: every type builds, commits, has the size and bounds the MPI rules
 *                    give, and MPI_Pack / MPI_Unpack (and the hand loop) match its type map byte for
 *                    byte, for 1, 2 and the benchmark's count of instances. Exit status 1 on a mismatch.
 *   --no-builtin     only the types of the files
 *   --all            keep duplicates (by default a type whose text appeared before is named "dup")
 *   --filter S       only types whose name contains S
 *   --payload B      bytes packed per call (default 1 MiB): count = B / MPI_Type_size, at least 1
 *   --time-ms T      one timed measurement lasts at least T ms (default 50); --reps R of them (default 3),
 *                    the median is printed
 *   --warmup-ms W    calls before timing, for at least W ms (default 20)
 *   --first-warmup-ms F  a longer warm-up before a type's first figure (MPI_Pack), for a JIT that compiles
 *                    in the background after the commit (default 0: W); with --check, the check is
 *                    repeated after packing for F ms
 *   --commit-ms C    MPI_Type_commit timing: fresh types built and committed for about C ms (default 20,
 *                    11 to 2001 commits), median
 *   --timeline-ms T  instead of the figures below: the type's buffers are made first, then the type is
 *                    committed and packed back to back for T ms; the payload GB/s of each window of
 *                    --window-ms W (default 10) is printed as "<name> window_<end ms> <GB/s>" (how soon
 *                    a JIT's code arrives, when the type is the first the process commits: --type)
 *   --type NAME      only the type of exactly this name
 *
 * Built-in layouts (elements are doubles unless said): contig; vec_b1_s2, vec_b1_s16, vec_b8_s16,
 * vec_b8_s128 (vector blocklen b stride s); indexed (irregular MPI_Type_indexed); indexed_block;
 * struct {int, double, char} (13 bytes of data in 24); subarray2d (64 columns of a 2048 x 512 array);
 * subarray3d_z, subarray3d_y (faces 8 deep of a 128^3 array, innermost / middle dimension); resized
 * (a column of a 512 x 256 array resized to one element: count 256 packs the transpose);
 * vec_of_struct (vector of blocks of 4 structs every 8); struct_di {double, int}, struct_cisd {char, short,
 * int, double}, struct_6f {int, double[2], char, float, short[3]}. Files: see ddt_parse.h.
 *
 * Output, one line per (type, figure), "<name> <figure> <value>":
 *   anchor memcpy_gbs <GB/s of memcpy of the payload size>
 *   <name> source <text as written> | dup <first name> | size, extent, true_extent, count, depth, dense
 *   <name> commit_first_us  the first MPI_Type_commit of the type
 *   <name> commit_us        median MPI_Type_commit of freshly built types
 *   <name> build_us         median time of the constructor calls that built them
 *   <name> pack_gbs / unpack_gbs            MPI_Pack / MPI_Unpack of count instances, payload GB/s
 *   <name> hand_pack_gbs / hand_unpack_gbs  the hand-written C loop (simple layouts only)
 *   <name> check ok | <name> error <reason>
 * Before each type, "ddt_bench: type <name>" goes to stderr (to attribute a runtime's own stderr lines).
 * GB/s = 10^9 bytes of payload (count x MPI_Type_size) per second. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */

#include "ddt_parse.h"

#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    int check, builtin, all;
    const char *filter;
    long payload;
    double time_ms, warmup_ms, commit_ms, first_warmup_ms, timeline_ms, window_ms;
    int reps;
    const char *type;
} opt = {0, 1, 0, NULL, 1L << 20, 50.0, 20.0, 20.0, 0.0, 0.0, 10.0, 3, NULL};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *alloc64(size_t n)
{
    void *p = NULL;
    return posix_memalign(&p, 64, (n + 63) / 64 * 64) == 0 ? p : NULL;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char *errstr(int rc)
{
    static char s[MPI_MAX_ERROR_STRING + 32];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) {
        snprintf(s, sizeof s, "MPI error %d", rc);
    } else {
        snprintf(s + len, sizeof s - (size_t)len, " (error %d)", rc);
    }
    for (char *c = s; *c; ++c) {
        if (*c == '\n') {
            *c = ' ';
        }
    }
    return s;
}

/* ---- hand-written loops for the simple built-in layouts ---- */

typedef enum { H_NONE, H_CONTIG, H_VEC, H_IDXB, H_STRUCT, H_SUB2D, H_SUB3D } hand_kind;

typedef struct {
    int i;
    double d;
    char c;
} S; /* the struct layout: struct(0,1[int] 8,1[double] 16,1[char]) on x86-64 */

typedef struct {
    hand_kind kind;
    const ddt_node *node;
    int *disp; /* H_IDXB */
} hand;

/* One body for pack and unpack: MOVE(packed, memory) copies one way or the other. */
#define HAND_BODY(MOVE)                                                                                            \
    const ddt_node *n = h->node;                                                                                   \
    const long ext = (n->ub - n->lb) / (long)sizeof(double);                                                       \
    long k = 0;                                                                                                    \
    switch (h->kind) {                                                                                             \
    case H_CONTIG:                                                                                                 \
        for (long c = 0; c < count; ++c) {                                                                         \
            for (long i = 0; i < n->a; ++i) {                                                                      \
                MOVE(p[k++], m[c * ext + i]);                                                                      \
            }                                                                                                      \
        }                                                                                                          \
        break;                                                                                                     \
    case H_VEC: {                                                                                                  \
        const long cnt = n->a, bl = n->b, st = n->c;                                                               \
        for (long c = 0; c < count; ++c) {                                                                         \
            double *mc = m + c * ext;                                                                              \
            if (bl == 1 && st == 2) { /* what one writes for a known layout: constants the compiler sees */   \
                for (long i = 0; i < cnt; ++i) {                                                                   \
                    MOVE(p[k + i], mc[2 * i]);                                                                     \
                }                                                                                                  \
                k += cnt;                                                                                          \
            } else if (bl == 1) {                                                                                  \
                for (long i = 0; i < cnt; ++i) {                                                                   \
                    MOVE(p[k + i], mc[i * st]);                                                                    \
                }                                                                                                  \
                k += cnt;                                                                                          \
            } else if (bl == 8) {                                                                                  \
                for (long i = 0; i < cnt; ++i) {                                                                   \
                    for (long j = 0; j < 8; ++j) {                                                                 \
                        MOVE(p[k + 8 * i + j], mc[i * st + j]);                                                    \
                    }                                                                                              \
                }                                                                                                  \
                k += 8 * cnt;                                                                                      \
            } else {                                                                                               \
                for (long i = 0; i < cnt; ++i) {                                                                   \
                    for (long j = 0; j < bl; ++j) {                                                                \
                        MOVE(p[k++], mc[i * st + j]);                                                              \
                    }                                                                                              \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        break;                                                                                                     \
    }                                                                                                              \
    case H_IDXB: {                                                                                                 \
        const int nd = n->n;                                                                                       \
        const long bl = n->b;                                                                                      \
        for (long c = 0; c < count; ++c) {                                                                         \
            double *mc = m + c * ext;                                                                              \
            for (int i = 0; i < nd; ++i) {                                                                         \
                for (long j = 0; j < bl; ++j) {                                                                    \
                    MOVE(p[k++], mc[h->disp[i] + j]);                                                              \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        break;                                                                                                     \
    }                                                                                                              \
    case H_SUB2D: {                                                                                                \
        const long s1 = n->v1[1], r0 = n->v3[0], c0 = n->v3[1], nr = n->v2[0], nc = n->v2[1];                      \
        for (long c = 0; c < count; ++c) {                                                                         \
            double *mc = m + c * ext;                                                                              \
            for (long r = 0; r < nr; ++r) {                                                                        \
                for (long j = 0; j < nc; ++j) {                                                                    \
                    MOVE(p[k++], mc[(r0 + r) * s1 + c0 + j]);                                                      \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        break;                                                                                                     \
    }                                                                                                              \
    case H_SUB3D: {                                                                                                \
        const long s1 = n->v1[1], s2 = n->v1[2];                                                                   \
        for (long c = 0; c < count; ++c) {                                                                         \
            double *mc = m + c * ext;                                                                              \
            for (long a = n->v3[0]; a < n->v3[0] + n->v2[0]; ++a) {                                                \
                for (long b = n->v3[1]; b < n->v3[1] + n->v2[1]; ++b) {                                            \
                    const double *row = mc + (a * s1 + b) * s2 + n->v3[2];                                         \
                    for (long j = 0; j < n->v2[2]; ++j) {                                                          \
                        MOVE(p[k++], ((double *)row)[j]);                                                          \
                    }                                                                                              \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        break;                                                                                                     \
    }                                                                                                              \
    case H_STRUCT: {                                                                                               \
        char *q = (char *)p;                                                                                       \
        S *sv = (S *)(void *)m;                                                                                    \
        for (long c = 0; c < count; ++c) {                                                                         \
            MOVE_STRUCT(q, sv[c]);                                                                                 \
            q += 13;                                                                                               \
        }                                                                                                          \
        break;                                                                                                     \
    }                                                                                                              \
    case H_NONE:                                                                                                   \
        break;                                                                                                     \
    }

#define PACK(pk, mem) (pk) = (mem)
#define UNPACK(pk, mem) (mem) = (pk)

static void hand_pack(const hand *h, const void *mem, void *packed, long count)
{
    double *p = packed;
    double *m = (double *)mem;
#define MOVE_STRUCT(q, s)                                                                                          \
    do {                                                                                                           \
        memcpy((q), &(s).i, 4);                                                                                    \
        memcpy((q) + 4, &(s).d, 8);                                                                                \
        (q)[12] = (s).c;                                                                                           \
    } while (0)
    HAND_BODY(PACK)
#undef MOVE_STRUCT
}

static void hand_unpack(const hand *h, void *mem, const void *packed, long count)
{
    double *p = (double *)packed;
    double *m = mem;
#define MOVE_STRUCT(q, s)                                                                                          \
    do {                                                                                                           \
        memcpy(&(s).i, (q), 4);                                                                                    \
        memcpy(&(s).d, (q) + 4, 8);                                                                                \
        (s).c = (q)[12];                                                                                           \
    } while (0)
    HAND_BODY(UNPACK)
#undef MOVE_STRUCT
}

/* ---- the types ---- */

typedef struct {
    char name[96];
    const char *text;   /* canonical */
    const char *source; /* as written */
    const ddt_node *root;
    hand_kind hand;
    const char *dup_of;
} item;

static uint32_t lcg_state = 12345;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 16) & 0x7fff;
}

typedef struct {
    char *s;
    size_t n, cap;
} strbuf;

static void sb_put(strbuf *b, const char *s)
{
    const size_t l = strlen(s);
    if (b->n + l + 1 > b->cap) {
        b->cap = 2 * (b->n + l + 1);
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, l + 1);
    b->n += l;
}

/* The built-in layouts as notation text; sized for a 1 MiB payload per call. */
static const struct {
    const char *name;
    const char *text; /* NULL: generated */
    hand_kind hand;
} kBuiltins[] = {
    {"contig", "ctg(131072)[double]", H_CONTIG},
    {"vec_b1_s2", "vec(131072 1 2)[double]", H_VEC},
    {"vec_b1_s16", "vec(131072 1 16)[double]", H_VEC},
    {"vec_b8_s16", "vec(16384 8 16)[double]", H_VEC},
    {"vec_b8_s128", "vec(16384 8 128)[double]", H_VEC},
    {"indexed", NULL, H_NONE},
    {"indexed_block", NULL, H_IDXB},
    {"struct", "struct(0,1[int] 8,1[double] 16,1[char])", H_STRUCT},
    {"subarray2d", "subarray(2048,2048,0 512,64,1)[double]", H_SUB2D},
    {"subarray3d_z", "subarray(128,128,0 128,128,0 128,8,120)[double]", H_SUB3D},
    {"subarray3d_y", "subarray(128,128,0 128,8,120 128,128,0)[double]", H_SUB3D},
    {"resized", "resized(0,8)[vec(512 1 256)[double]]", H_NONE},
    {"vec_of_struct", "vec(20165 4 8)[struct(0,1[int] 8,1[double] 16,1[char])]", H_NONE},
    /* small heterogeneous structs: fields that touch become one block of an odd length */
    {"struct_di", "struct(0,1[double] 8,1[int])", H_NONE},
    {"struct_cisd", "struct(0,1[char] 2,1[short] 4,1[int] 8,1[double])", H_NONE},
    {"struct_6f", "struct(0,1[int] 8,2[double] 24,1[char] 28,1[float] 32,3[short])", H_NONE},
};

static char *gen_builtin(const char *name)
{
    strbuf b = {NULL, 0, 0};
    char num[64];
    long elems = 0, pos = 0;
    const long target = 131072; /* doubles: 1 MiB */
    lcg_state = 12345;
    if (strcmp(name, "indexed") == 0) {
        /* irregular blocks of 1 to 16 doubles with gaps of 0 to 16 */
        sb_put(&b, "idx(");
        for (int i = 0; elems < target; ++i) {
            long bl = 1 + (long)(lcg() % 16);
            if (elems + bl > target) {
                bl = target - elems;
            }
            snprintf(num, sizeof num, "%s%ld,%ld", i ? " " : "", pos, bl);
            sb_put(&b, num);
            elems += bl;
            pos += bl + (long)(lcg() % 17);
        }
        sb_put(&b, ")[double]");
    } else {
        /* blocks of 4 doubles, gaps of 0 to 12 */
        sb_put(&b, "idxb(4:");
        for (; elems < target; elems += 4) {
            snprintf(num, sizeof num, " %ld", pos);
            sb_put(&b, num);
            pos += 4 + (long)(lcg() % 13);
        }
        sb_put(&b, ")[double]");
    }
    return b.s;
}

/* ---- one type ---- */

typedef struct {
    char *packed;
    long k;
    const char *mem;
} gather_ctx;

static void gather_block(void *ctx, long disp, long len)
{
    gather_ctx *g = ctx;
    memcpy(g->packed + g->k, g->mem + disp, (size_t)len);
    g->k += len;
}

typedef struct {
    const char *a, *b;
    long bad;
} cmp_ctx;

static void compare_block(void *ctx, long disp, long len)
{
    cmp_ctx *c = ctx;
    if (c->bad < 0 && memcmp(c->a + disp, c->b + disp, (size_t)len) != 0) {
        c->bad = disp;
    }
}

static void zero_block(void *ctx, long disp, long len)
{
    memset((char *)ctx + disp, 0, (size_t)len);
}

typedef struct {
    char *alloc_src, *alloc_dst;
    char *src, *dst;  /* displacement 0 of the first instance */
    long span_lo, span; /* bytes [src + span_lo, src + span_lo + span) hold the instances */
    char *packed, *ref;
    long packsize, payload, count;
} buffers;

static void free_buffers(buffers *b)
{
    free(b->alloc_src);
    free(b->alloc_dst);
    free(b->packed);
    free(b->ref);
    memset(b, 0, sizeof *b);
}

static int alloc_buffers(buffers *b, const ddt_node *n, long count, long packsize)
{
    const long ext = n->ub - n->lb, last = (count - 1) * ext;
    long lo = n->true_lb + (last < 0 ? last : 0), hi = n->true_ub + (last > 0 ? last : 0);
    if (n->size == 0) {
        lo = hi = 0;
    }
    b->span_lo = lo;
    b->span = hi - lo;
    b->count = count;
    b->payload = count * n->size;
    b->packsize = packsize > b->payload ? packsize : b->payload;
    const size_t bytes = (size_t)b->span + 64;
    b->alloc_src = alloc64(bytes);
    b->alloc_dst = alloc64(bytes);
    b->packed = alloc64((size_t)b->packsize + 64);
    b->ref = alloc64((size_t)b->payload + 64);
    if (!b->alloc_src || !b->alloc_dst || !b->packed || !b->ref) {
        free_buffers(b);
        return -1;
    }
    b->src = b->alloc_src - lo;
    b->dst = b->alloc_dst - lo;
    /* first touch, and a pattern without zero bytes */
    for (long i = 0; i < b->span; ++i) {
        b->alloc_src[i] = (char)(1 + (i * 131 + 7) % 251);
    }
    memset(b->alloc_dst, 0, (size_t)b->span);
    memset(b->packed, 0, (size_t)b->packsize);
    gather_ctx g = {b->ref, 0, b->src};
    ddt_walk(n, count, gather_block, &g);
    return 0;
}

/* Checks MPI_Pack and MPI_Unpack (or the hand loop when h is given) of b->count instances against the
 * type map. Returns NULL or what differs. */
static const char *verify(const ddt_node *n, MPI_Datatype t, const hand *h, buffers *b, char *why, size_t whylen)
{
    int pos = 0, rc;
    memset(b->packed, 0, (size_t)b->packsize);
    if (h) {
        hand_pack(h, b->src, b->packed, b->count);
        pos = (int)b->payload;
    } else if ((rc = MPI_Pack(b->src, (int)b->count, t, b->packed, (int)b->packsize, &pos, MPI_COMM_WORLD)) !=
               MPI_SUCCESS) {
        snprintf(why, whylen, "MPI_Pack: %s", errstr(rc));
        return why;
    }
    if (pos != b->payload) {
        snprintf(why, whylen, "%s packed %d bytes, expected %ld", h ? "hand loop" : "MPI_Pack", pos, b->payload);
        return why;
    }
    for (long i = 0; i < b->payload; ++i) {
        if (b->packed[i] != b->ref[i]) {
            snprintf(why, whylen, "%s output differs from the type map at packed byte %ld of %ld (count %ld)",
                     h ? "hand loop" : "MPI_Pack", i, b->payload, b->count);
            return why;
        }
    }
    memset(b->alloc_dst, 0, (size_t)b->span);
    pos = 0;
    if (h) {
        hand_unpack(h, b->dst, b->packed, b->count);
    } else if ((rc = MPI_Unpack(b->packed, (int)b->packsize, &pos, b->dst, (int)b->count, t, MPI_COMM_WORLD)) !=
               MPI_SUCCESS) {
        snprintf(why, whylen, "MPI_Unpack: %s", errstr(rc));
        return why;
    }
    cmp_ctx c = {b->src, b->dst, -1};
    ddt_walk(n, b->count, compare_block, &c);
    if (c.bad >= 0) {
        snprintf(why, whylen, "%s: the byte at displacement %ld differs after the round trip (count %ld)",
                 h ? "hand loop" : "MPI_Unpack", c.bad, b->count);
        return why;
    }
    ddt_walk(n, b->count, zero_block, b->dst);
    for (long i = 0; i < b->span; ++i) {
        if (b->alloc_dst[i] != 0) {
            snprintf(why, whylen, "%s wrote the byte at displacement %ld, outside the type map (count %ld)",
                     h ? "hand loop" : "MPI_Unpack", i + b->span_lo, b->count);
            return why;
        }
    }
    return NULL;
}

typedef enum { OP_PACK, OP_UNPACK, OP_HAND_PACK, OP_HAND_UNPACK, OP_MEMCPY } op_kind;

typedef struct {
    op_kind op;
    MPI_Datatype t;
    const hand *h;
    buffers *b;
} job;

static volatile int rc_sink;

static double timed(const job *j, long iters)
{
    buffers *b = j->b;
    int rc = 0;
    const double t0 = now();
    for (long it = 0; it < iters; ++it) {
        int pos = 0;
        switch (j->op) {
        case OP_PACK:
            rc |= MPI_Pack(b->src, (int)b->count, j->t, b->packed, (int)b->packsize, &pos, MPI_COMM_WORLD);
            break;
        case OP_UNPACK:
            rc |= MPI_Unpack(b->packed, (int)b->packsize, &pos, b->dst, (int)b->count, j->t, MPI_COMM_WORLD);
            break;
        case OP_HAND_PACK:
            hand_pack(j->h, b->src, b->packed, b->count);
            break;
        case OP_HAND_UNPACK:
            hand_unpack(j->h, b->dst, b->packed, b->count);
            break;
        case OP_MEMCPY:
            memcpy(it % 2 ? b->packed : b->ref, it % 2 ? b->ref : b->packed, (size_t)b->payload);
            break;
        }
        __asm__ volatile("" ::: "memory");
    }
    const double t = now() - t0;
    rc_sink = rc;
    return t;
}

/* payload GB/s: warm up for warmup_ms, grow the iteration count until one run lasts opt.time_ms, median
 * of opt.reps */
static double gbs(const job *j, double warmup_ms)
{
    const double t_warm = now();
    do {
        timed(j, 1);
    } while (now() - t_warm < warmup_ms * 1e-3);
    long iters = 1;
    double t;
    for (;;) {
        t = timed(j, iters);
        if (t >= opt.time_ms * 1e-3) {
            break;
        }
        double grow = t > 0 ? opt.time_ms * 1e-3 / t * 1.2 : 10.0;
        grow = grow < 2 ? 2 : grow > 100 ? 100 : grow;
        iters = (long)((double)iters * grow) + 1;
    }
    double v[opt.reps];
    v[0] = t;
    for (int r = 1; r < opt.reps; ++r) {
        v[r] = timed(j, iters);
    }
    return (double)j->b->payload * (double)iters / median(v, opt.reps) / 1e9;
}

/* Median MPI_Type_commit of freshly built types, and median time of building them (the constructor
 * calls, intermediate types freed). */
static void commit_times(const item *it, double *median_us, double *build_us)
{
    enum { kMax = 2001, kMin = 11 };
    static double v[kMax], vb[kMax];
    int n = 0;
    const double t_start = now();
    while (n < kMax && (n < kMin || now() - t_start < opt.commit_ms * 1e-3)) {
        MPI_Datatype t;
        const double tb = now();
        if (ddt_build(it->root, &t, NULL) != MPI_SUCCESS) {
            break;
        }
        const double t0 = now();
        const int rc = MPI_Type_commit(&t);
        v[n] = (now() - t0) * 1e6;
        vb[n++] = (t0 - tb) * 1e6;
        if (t != MPI_DATATYPE_NULL && it->root->kind != DDT_PRIM) {
            MPI_Type_free(&t);
        }
        if (rc != MPI_SUCCESS) {
            break;
        }
    }
    *median_us = n ? median(v, n) : -1.0;
    *build_us = n ? median(vb, n) : -1.0;
}

static int check_model(const item *it, MPI_Datatype t, char *why, size_t whylen)
{
    int size = 0;
    MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0;
    int rc;
    if ((rc = MPI_Type_size(t, &size)) != MPI_SUCCESS || (rc = MPI_Type_get_extent(t, &lb, &ext)) != MPI_SUCCESS ||
        (rc = MPI_Type_get_true_extent(t, &tlb, &text)) != MPI_SUCCESS) {
        snprintf(why, whylen, "size/extent query: %s", errstr(rc));
        return -1;
    }
    const ddt_node *n = it->root;
    if (size != n->size || lb != n->lb || ext != n->ub - n->lb || tlb != n->true_lb ||
        text != n->true_ub - n->true_lb) {
        snprintf(why, whylen,
                 "MPI says size %d lb %ld extent %ld true_lb %ld true_extent %ld; the MPI rules give %ld %ld %ld "
                 "%ld %ld",
                 size, (long)lb, (long)ext, (long)tlb, (long)text, n->size, n->lb, n->ub - n->lb, n->true_lb,
                 n->true_ub - n->true_lb);
        return -1;
    }
    return 0;
}

/* Returns 0, or 1 when a check failed. */
static int run_item(const item *it)
{
    const ddt_node *n = it->root;
    char why[2048];
    fprintf(stderr, "ddt_bench: type %s\n", it->name);
    fflush(stderr);
    long count = n->size > 0 ? (opt.payload + n->size / 2) / n->size : 1;
    count = count < 1 ? 1 : count;
    const int dense = n->true_ub - n->true_lb == n->size && n->ub - n->lb == n->size;
    printf("%s size %ld\n%s extent %ld\n%s true_extent %ld\n%s count %ld\n%s depth %d\n%s dense %d\n", it->name,
           n->size, it->name, n->ub - n->lb, it->name, n->true_ub - n->true_lb, it->name, count, it->name, n->depth,
           it->name, dense);
    fflush(stdout);

    MPI_Datatype t;
    const char *call = "";
    int rc = ddt_build(n, &t, &call);
    if (rc != MPI_SUCCESS) {
        printf("%s error %s: %s\n", it->name, call, errstr(rc));
        return 1;
    }
    double t0 = now();
    rc = MPI_Type_commit(&t);
    const double first_us = (now() - t0) * 1e6;
    if (rc != MPI_SUCCESS) {
        printf("%s error MPI_Type_commit: %s\n", it->name, errstr(rc));
        return 1;
    }
    int failed = 0;
    if (check_model(it, t, why, sizeof why) != 0) {
        printf("%s error %s\n", it->name, why);
        failed = 1;
    }
    int packsize = 0;
    if ((rc = MPI_Pack_size((int)count, t, MPI_COMM_WORLD, &packsize)) != MPI_SUCCESS) {
        printf("%s error MPI_Pack_size: %s\n", it->name, errstr(rc));
        failed = 1;
    }
    hand h = {it->hand, n, NULL};
    if (h.kind == H_IDXB) {
        h.disp = malloc((size_t)n->n * sizeof *h.disp);
        for (int i = 0; i < n->n; ++i) {
            h.disp[i] = (int)n->v1[i];
        }
    }
    buffers b;
    memset(&b, 0, sizeof b);
    /* check with 1 and 2 instances (--check), then with the benchmark's count */
    const long counts[3] = {1, 2, count};
    for (int c = opt.check ? 0 : 2; c < 3 && !failed; ++c) {
        int ps = 0;
        if (c < 2 && MPI_Pack_size((int)counts[c], t, MPI_COMM_WORLD, &ps) != MPI_SUCCESS) {
            ps = 0;
        }
        free_buffers(&b);
        if (alloc_buffers(&b, n, counts[c], c < 2 ? ps : packsize) != 0) {
            printf("%s error cannot allocate %ld bytes\n", it->name, b.span);
            failed = 1;
            break;
        }
        const char *bad = verify(n, t, NULL, &b, why, sizeof why);
        if (bad == NULL && h.kind != H_NONE) {
            bad = verify(n, t, &h, &b, why, sizeof why);
        }
        if (bad != NULL) {
            printf("%s error %s\n", it->name, bad);
            failed = 1;
        }
    }
    if (!failed && opt.check && opt.first_warmup_ms > 0) {
        /* a JIT may switch to compiled code in the background: pack for a while, then check again */
        job w = {OP_PACK, t, &h, &b};
        const double t_warm = now();
        do {
            timed(&w, 1);
        } while (now() - t_warm < opt.first_warmup_ms * 1e-3);
        const char *bad = verify(n, t, NULL, &b, why, sizeof why);
        if (bad != NULL) {
            printf("%s error after %.0f ms: %s\n", it->name, opt.first_warmup_ms, bad);
            failed = 1;
        }
    }
    if (!failed && opt.check) {
        printf("%s check ok\n", it->name);
    }
    if (!failed && !opt.check) {
        printf("%s commit_first_us %.4f\n", it->name, first_us);
        job j = {OP_PACK, t, &h, &b};
        printf("%s pack_gbs %.4f\n", it->name,
               gbs(&j, opt.first_warmup_ms > opt.warmup_ms ? opt.first_warmup_ms : opt.warmup_ms));
        fflush(stdout);
        j.op = OP_UNPACK;
        printf("%s unpack_gbs %.4f\n", it->name, gbs(&j, opt.warmup_ms));
        fflush(stdout);
        if (h.kind != H_NONE) {
            j.op = OP_HAND_PACK;
            printf("%s hand_pack_gbs %.4f\n", it->name, gbs(&j, opt.warmup_ms));
            j.op = OP_HAND_UNPACK;
            printf("%s hand_unpack_gbs %.4f\n", it->name, gbs(&j, opt.warmup_ms));
        }
        double us, bus;
        commit_times(it, &us, &bus);
        if (us >= 0) {
            printf("%s commit_us %.4f\n%s build_us %.4f\n", it->name, us, it->name, bus);
        }
    }
    fflush(stdout);
    free_buffers(&b);
    free(h.disp);
    MPI_Type_free(&t);
    return failed;
}

/* --timeline-ms: GB/s of MPI_Pack window by window from the commit on. Returns 0, or 1 on an error. */
static int run_timeline(const item *it)
{
    const ddt_node *n = it->root;
    fprintf(stderr, "ddt_bench: type %s\n", it->name);
    fflush(stderr);
    long count = n->size > 0 ? (opt.payload + n->size / 2) / n->size : 1;
    count = count < 1 ? 1 : count;
    MPI_Datatype t;
    const char *call = "";
    int rc = ddt_build(n, &t, &call);
    if (rc != MPI_SUCCESS) {
        printf("%s error %s: %s\n", it->name, call, errstr(rc));
        return 1;
    }
    buffers b;
    memset(&b, 0, sizeof b);
    /* count * size: MPI_Pack_size would need the type committed, and the clock starts at the commit */
    if (alloc_buffers(&b, n, count, count * n->size) != 0) {
        printf("%s error cannot allocate %ld bytes\n", it->name, b.span);
        return 1;
    }
    const double t0 = now();
    if ((rc = MPI_Type_commit(&t)) != MPI_SUCCESS) {
        printf("%s error MPI_Type_commit: %s\n", it->name, errstr(rc));
        free_buffers(&b);
        return 1;
    }
    /* each pack counts in the window where it ends: a pack never straddles two measurements */
    job j = {OP_PACK, t, NULL, &b};
    const int windows = (int)(opt.timeline_ms / opt.window_ms + 0.5);
    long *packs = calloc((size_t)windows, sizeof *packs);
    for (;;) {
        timed(&j, 1);
        const int w = (int)((now() - t0) * 1e3 / opt.window_ms);
        if (w >= windows) {
            break;
        }
        ++packs[w];
    }
    for (int w = 0; w < windows; ++w) {
        printf("%s window_%.0f %.4f\n", it->name, (w + 1) * opt.window_ms,
               (double)b.payload * (double)packs[w] / (opt.window_ms * 1e-3) / 1e9);
    }
    free(packs);
    fflush(stdout);
    free_buffers(&b);
    MPI_Type_free(&t);
    return 0;
}

static void print_source(const item *it)
{
    const size_t l = strlen(it->source);
    if (l > 160) {
        printf("%s source %.150s ... (%zu characters)\n", it->name, it->source, l);
    } else {
        printf("%s source %s\n", it->name, it->source);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ddt_set set;
    ddt_set_init(&set);
    const char *files[256];
    int nfiles = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (strcmp(a, "--check") == 0) {
            opt.check = 1;
        } else if (strcmp(a, "--no-builtin") == 0) {
            opt.builtin = 0;
        } else if (strcmp(a, "--all") == 0) {
            opt.all = 1;
        } else if (strcmp(a, "--filter") == 0 && more) {
            opt.filter = argv[++i];
        } else if (strcmp(a, "--payload") == 0 && more) {
            opt.payload = atol(argv[++i]);
        } else if (strcmp(a, "--time-ms") == 0 && more) {
            opt.time_ms = atof(argv[++i]);
        } else if (strcmp(a, "--warmup-ms") == 0 && more) {
            opt.warmup_ms = atof(argv[++i]);
        } else if (strcmp(a, "--first-warmup-ms") == 0 && more) {
            opt.first_warmup_ms = atof(argv[++i]);
        } else if (strcmp(a, "--timeline-ms") == 0 && more) {
            opt.timeline_ms = atof(argv[++i]);
        } else if (strcmp(a, "--window-ms") == 0 && more) {
            opt.window_ms = atof(argv[++i]);
            opt.window_ms = opt.window_ms < 0.1 ? 0.1 : opt.window_ms;
        } else if (strcmp(a, "--type") == 0 && more) {
            opt.type = argv[++i];
        } else if (strcmp(a, "--commit-ms") == 0 && more) {
            opt.commit_ms = atof(argv[++i]);
        } else if (strcmp(a, "--reps") == 0 && more) {
            opt.reps = atoi(argv[++i]);
            opt.reps = opt.reps < 1 ? 1 : opt.reps > 99 ? 99 : opt.reps;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "ddt_bench: unknown option %s (see the comment at the top of ddt_bench.c)\n", a);
            MPI_Finalize();
            return 2;
        } else if (nfiles < 256) {
            files[nfiles++] = a;
        }
    }

    /* parse everything first: a syntax error stops before any measurement */
    const int nb = (int)(sizeof kBuiltins / sizeof kBuiltins[0]);
    char err[1024];
    char *generated[sizeof kBuiltins / sizeof kBuiltins[0]] = {NULL};
    if (opt.builtin) {
        for (int i = 0; i < nb; ++i) {
            const char *text = kBuiltins[i].text;
            if (text == NULL) {
                text = generated[i] = gen_builtin(kBuiltins[i].name);
            }
            if (ddt_parse_string(&set, text, kBuiltins[i].name, 1, err, sizeof err) != 0) {
                fprintf(stderr, "ddt_bench: built-in %s: %s\n", kBuiltins[i].name, err);
                MPI_Finalize();
                return 2;
            }
        }
    }
    const int nbuiltin = set.n;
    for (int f = 0; f < nfiles; ++f) {
        if (ddt_parse_file(&set, files[f], err, sizeof err) != 0) {
            fprintf(stderr, "ddt_bench: %s\n", err);
            MPI_Finalize();
            return 2;
        }
    }
    item *items = calloc((size_t)set.n + 1, sizeof *items);
    for (int i = 0; i < set.n; ++i) {
        const ddt_type *ty = &set.types[i];
        item *it = &items[i];
        if (i < nbuiltin) {
            snprintf(it->name, sizeof it->name, "%s", kBuiltins[i].name);
            it->hand = kBuiltins[i].hand;
        } else {
            const char *base = strrchr(ty->origin, '/');
            base = base ? base + 1 : ty->origin;
            int bl = (int)strlen(base);
            if (bl > 4 && strcmp(base + bl - 4, ".ddt") == 0) {
                bl -= 4;
            }
            /* the k-th type starting on a line (k > 1) is named file:line.k */
            int k = 1;
            for (int j = nbuiltin; j < i; ++j) {
                const ddt_type *o = &set.types[j];
                if (o->variant == 0 && o->line == ty->line && o->origin == ty->origin && o->source != ty->source) {
                    ++k;
                }
            }
            char at[32] = "";
            if (k > 1) {
                snprintf(at, sizeof at, ".%d", k);
            }
            if (ty->nvariants > 1) {
                snprintf(it->name, sizeof it->name, "%.*s:%d%s#%d", bl, base, ty->line, at, ty->variant);
            } else {
                snprintf(it->name, sizeof it->name, "%.*s:%d%s", bl, base, ty->line, at);
            }
            it->hand = H_NONE;
        }
        it->text = ty->text;
        it->source = ty->nvariants > 1 ? ty->text : ty->source;
        it->root = ty->root;
        for (int j = 0; j < i && !opt.all; ++j) {
            if (items[j].dup_of == NULL && strcmp(items[j].text, it->text) == 0) {
                it->dup_of = items[j].name;
                break;
            }
        }
    }

    if (!opt.check && opt.timeline_ms <= 0) {
        buffers b;
        memset(&b, 0, sizeof b);
        b.payload = opt.payload;
        b.packed = alloc64((size_t)opt.payload);
        b.ref = alloc64((size_t)opt.payload);
        memset(b.packed, 1, (size_t)opt.payload);
        memset(b.ref, 2, (size_t)opt.payload);
        job j = {OP_MEMCPY, MPI_DATATYPE_NULL, NULL, &b};
        printf("anchor memcpy_gbs %.4f\n", gbs(&j, opt.warmup_ms));
        fflush(stdout);
        free_buffers(&b);
    }
    int failures = 0, checked = 0;
    for (int i = 0; i < set.n; ++i) {
        const item *it = &items[i];
        if ((opt.filter && strstr(it->name, opt.filter) == NULL) || (opt.type && strcmp(it->name, opt.type) != 0)) {
            continue;
        }
        print_source(it);
        if (it->dup_of) {
            printf("%s dup %s\n", it->name, it->dup_of);
            continue;
        }
        failures += opt.timeline_ms > 0 && !opt.check ? run_timeline(it) : run_item(it);
        ++checked;
    }
    if (opt.check) {
        printf("checked %d types, %d failed\n", checked, failures);
    }
    free(items);
    for (int i = 0; i < nb; ++i) {
        free(generated[i]);
    }
    ddt_set_free(&set);
    MPI_Finalize();
    return failures ? 1 : 0;
}
