/* Parser of the datatype corpus notation (libpack's ddtplayer notation, /work/shared/ddt-corpus and
 * docs/benchmarks-ddt.md), and a builder of each parsed type through plain MPI calls. Plain C99 + MPI:
 * builds with Tessera's mpicc, mpicc.openmpi and mpicc.mpich.
 *
 *   ctg(n)[T]                         MPI_Type_contiguous
 *   vec(count blen stride)[T]         MPI_Type_vector (stride in elements of T; commas optional)
 *   hvec(count blen stride)[T]        MPI_Type_create_hvector (stride in bytes)
 *   hidx(disp,blen disp,blen ...)[T]  MPI_Type_create_hindexed (displacements in bytes; ';' optional)
 *   idxb(blen: d1 d2 ...)[T]          MPI_Type_create_indexed_block (displacements in extents of T)
 *   resized(lb,extent)[T]             MPI_Type_create_resized
 *   struct(disp,blen[T] ...)          MPI_Type_create_struct (displacements in bytes)    (Tessera's)
 *   idx(disp,blen ...)[T]             MPI_Type_indexed (displacements in extents of T)   (Tessera's)
 *   subarray(size,sub,start ...)[T]   MPI_Type_create_subarray, one triple per dimension, C order
 *                                                                                    (Tessera's)
 *   byte char short int long float double        the element types
 *
 * Any number may be a range start:step:stop (stop included; the step may be negative), which expands
 * the type into one type per value (all combinations when there are several ranges, also in subtypes).
 * "//" starts a comment up to the end of the line. A type may span lines; several types may share one.
 *
 * Besides the MPI type, each parsed type keeps its tree (ddt_node) with the size, bounds and true
 * bounds computed by the MPI rules, and ddt_walk() lists its type map: an independent reference for
 * checking an MPI library's MPI_Pack / MPI_Unpack byte for byte. */
#ifndef TESSERA_BENCH_DDT_PARSE_H
#define TESSERA_BENCH_DDT_PARSE_H

#include <mpi.h>

#include <stddef.h>

typedef enum {
    DDT_PRIM,
    DDT_CTG,
    DDT_VEC,
    DDT_HVEC,
    DDT_HIDX,
    DDT_IDX,
    DDT_IDXB,
    DDT_RESIZED,
    DDT_STRUCT,
    DDT_SUBARRAY
} ddt_kind;

typedef struct ddt_node {
    ddt_kind kind;
    int prim;                /* DDT_PRIM: index into the element table (ddt_prim_name) */
    long a, b, c;            /* ctg: a = count; vec, hvec: count, blen, stride; idxb: b = blen;
                                resized: a = lb, b = extent */
    int n;                   /* entries of hidx, idx, idxb, struct; dimensions of subarray */
    long *v1, *v2, *v3;      /* hidx, idx, struct: v1 = displacements, v2 = block lengths; idxb: v1 =
                                displacements; subarray: sizes, subsizes, starts */
    struct ddt_node **kids;  /* the subtype (kids[0]), or one per struct entry */
    /* Computed by the MPI rules when the node is made: */
    long size;               /* bytes of data (MPI_Type_size) */
    long lb, ub;             /* MPI_Type_get_extent: lb, extent = ub - lb */
    long true_lb, true_ub;   /* MPI_Type_get_true_extent: true_lb, true extent = true_ub - true_lb */
    int align;               /* largest alignment of an element (struct padding) */
    int depth;               /* constructors nested: 0 for an element type */
    long nblocks;            /* primitive elements in the type map */
} ddt_node;

typedef struct {
    char *origin;       /* file name as given, or the origin passed to ddt_parse_string */
    int line;           /* line where the type's text starts */
    int variant;        /* index among the types its ranges expand to */
    int nvariants;      /* how many types that text expands to (1: no range) */
    char *source;       /* the text as written (whitespace runs collapsed to one space) */
    char *text;         /* canonical text of this expanded type */
    const ddt_node *root;
} ddt_type;

typedef struct {
    ddt_type *types;
    int n, cap;
    void **blocks;      /* every allocation, freed by ddt_set_free */
    int nblocks, capblocks;
} ddt_set;

void ddt_set_init(ddt_set *set);
void ddt_set_free(ddt_set *set);

/* Append every type in the file / text to set. 0 on success; -1 with "file:line: message" in err
 * (naming the bad token) on a syntax error, a bad number or a type that is too large. */
int ddt_parse_file(ddt_set *set, const char *path, char *err, size_t errlen);
int ddt_parse_string(ddt_set *set, const char *text, const char *origin, int first_line, char *err,
                     size_t errlen);

/* Build node through MPI type constructors (intermediate types are freed). Returns MPI_SUCCESS or the
 * error code of the failing call, whose name is stored in *failed_call when failed_call is not NULL.
 * The result is not committed. Elements are predefined types and are returned as they are. */
int ddt_build(const ddt_node *node, MPI_Datatype *out, const char **failed_call);

/* The type map of count consecutive instances (instance i at i * extent): calls fn for each element in
 * type-map order with its byte displacement and size. */
typedef void (*ddt_block_fn)(void *ctx, long disp, long len);
void ddt_walk(const ddt_node *node, long count, ddt_block_fn fn, void *ctx);

/* Canonical text of node (malloc'ed; the caller frees it). */
char *ddt_format(const ddt_node *node);

const char *ddt_prim_name(int prim);
MPI_Datatype ddt_prim_type(int prim);

#endif
