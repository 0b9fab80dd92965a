/*
 * dte: datatype engine. Layer: ompi (libmpi). Selection: per type — the components stay open and, at
 * MPI_Type_commit, each one is offered the type; the plan with the highest priority serves it
 * (`--mca dte interp` or `jit` restricts the offer). Components: interp (an optimizing interpreter),
 * jit (LLVM ORC).
 *
 * ompi/datatype keeps the type tree as constructed; what a component sees is its normalized loop
 * description (mca_dte_type_desc_t), so that every engine starts from the same facts. A plan packs and
 * unpacks any byte range of the packed stream of `count` elements — the btl cuts a message into
 * fragments at arbitrary offsets, and fragments may be packed or unpacked in any order.
 */
#ifndef TESSERA_FRAMEWORKS_DTE_DTE_H
#define TESSERA_FRAMEWORKS_DTE_DTE_H

#include <stddef.h>
#include <stdint.h>

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Framework API version: components must be built for the same major and at most this minor. */
#define MCA_DTE_BASE_VERSION {1, 0, 0}

/* mca_dte_elem_t.op */
#define MCA_DTE_OP_BLOCKS   1u /* `count` blocks of `blocklen` bytes, `stride` apart, the first at `disp` */
#define MCA_DTE_OP_LOOP     2u /* repeat the next `items` elements `count` times, the base moving `stride` */
#define MCA_DTE_OP_END_LOOP 3u /* closes the innermost LOOP */

/*
 * One element of a normalized description, read in order; displacements are relative to the base of
 * the innermost enclosing loop iteration (the element's start for the outermost level). The packed
 * stream is the blocks' bytes in this order.
 */
typedef struct mca_dte_elem {
    uint32_t op;
    uint32_t items;    /* LOOP: elements in its body, up to and excluding its END_LOOP */
    uint64_t count;    /* BLOCKS: number of blocks; LOOP: iterations */
    uint64_t blocklen; /* BLOCKS: bytes per block */
    int64_t disp;      /* BLOCKS: byte displacement of the first block */
    int64_t stride;    /* BLOCKS: bytes between block starts; LOOP: bytes between iterations */
} mca_dte_elem_t;

/* mca_dte_type_desc_t.flags */
#define MCA_DTE_TYPE_CONTIGUOUS 0x1u /* one block of `size` bytes at true_lb, and extent == size */

/* A committed type as the engines see it. Valid only during plan creation: a plan copies what it keeps. */
typedef struct mca_dte_type_desc {
    const mca_dte_elem_t *elems;
    size_t elem_count;
    uint64_t size;     /* bytes of data in one element (packed size) */
    int64_t extent;    /* bytes from one element to the next in memory */
    int64_t true_lb;   /* lowest byte touched, relative to the buffer */
    int64_t true_ub;   /* one past the highest byte touched */
    uint64_t flags;    /* MCA_DTE_TYPE_* */
    void *reserved[4];
} mca_dte_type_desc_t;

struct mca_dte_plan;
typedef struct mca_dte_plan mca_dte_plan_t;

/*
 * Packs bytes [offset, offset + length) of the packed stream of `count` elements starting at `buf`
 * into `out`. offset + length must not exceed count * size (TESSERA_ERR_BAD_PARAM). Allocates nothing;
 * may be called concurrently on one plan from several threads.
 */
typedef int (*mca_dte_pack_fn_t)(const mca_dte_plan_t *plan, const void *buf, size_t count, size_t offset,
                                 void *out, size_t length);
/* The inverse: stores bytes [offset, offset + length) of the stream from `in` into `buf`. */
typedef int (*mca_dte_unpack_fn_t)(const mca_dte_plan_t *plan, void *buf, size_t count, size_t offset,
                                   const void *in, size_t length);

struct mca_dte_plan {
    const struct mca_dte_base_component *plan_component;
    int plan_priority; /* among the plans offered for one type, the highest serves it */
    int plan_reserved;
    mca_dte_pack_fn_t plan_pack;
    mca_dte_unpack_fn_t plan_unpack;
    /* Frees the plan when its type is freed and no operation uses it any more. */
    void (*plan_release)(mca_dte_plan_t *plan);
    void *plan_state; /* the component's own */
    void *reserved[8];
};

/*
 * Makes a plan for a committed type: TESSERA_SUCCESS with *plan set, or TESSERA_ERR_NOT_SUPPORTED to
 * leave this type to another engine. Must return quickly (MPI_Type_commit waits for it): slow work,
 * such as compiling, happens later or in the background behind a plan that already works.
 */
typedef int (*mca_dte_plan_create_fn_t)(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan);

typedef struct mca_dte_base_component {
    mca_base_component_t base;
    mca_dte_plan_create_fn_t dte_plan_create;
    void *reserved[4];
} mca_dte_base_component_t;

#ifdef __cplusplus
}
#endif

#endif
