/*
 * dte base: the interpreter core every engine shares. A program is a type's normalized description
 * (dte.h) flattened and optimized for walking: merged contiguous runs, vector fast paths, loops
 * specialized for small block lengths. It packs and unpacks any byte range of the packed stream of
 * `count` elements, allocating nothing, and may be used from several threads at once.
 *
 * The interp component serves types with it directly; the jit component serves a type with it until
 * the compiled code is ready, and for the partial elements at the edges of a byte range.
 */
#ifndef TESSERA_FRAMEWORKS_DTE_BASE_DTE_BASE_PROGRAM_H
#define TESSERA_FRAMEWORKS_DTE_BASE_DTE_BASE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "frameworks/dte/dte.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mca_dte_base_program mca_dte_base_program_t;

/* Builds the program of a type (the description is copied). TESSERA_SUCCESS, TESSERA_ERR_BAD_PARAM
 * for a malformed description (unbalanced loops, zero items), TESSERA_ERR_OUT_OF_RESOURCE. */
int mca_dte_base_program_create(const mca_dte_type_desc_t *type, mca_dte_base_program_t **program);

void mca_dte_base_program_free(mca_dte_base_program_t *program);

/* Bytes [offset, offset + length) of the packed stream of `count` elements at `buf` (element i at
 * buf + i * extent) into `out`. TESSERA_ERR_BAD_PARAM when offset + length > count * size. */
int mca_dte_base_program_pack(const mca_dte_base_program_t *program, const void *buf, size_t count,
                              size_t offset, void *out, size_t length);

/* The inverse: bytes [offset, offset + length) of the stream from `in` into the elements at `buf`. */
int mca_dte_base_program_unpack(const mca_dte_base_program_t *program, void *buf, size_t count,
                                size_t offset, const void *in, size_t length);

/* Packed bytes of one element (the description's size). */
uint64_t mca_dte_base_program_size(const mca_dte_base_program_t *program);

/*
 * Plans for committed types (ompi/datatype calls these). The framework is opened on the first call,
 * not at MPI_Init, so that a process that never commits a derived type loads no engine (and no LLVM).
 * Each open component is offered the type; the plan of highest priority is kept, the others released.
 * TESSERA_ERR_NOT_FOUND when no component makes a plan.
 */
int mca_dte_base_plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan);

/* Releases a plan (its component's plan_release). */
void mca_dte_base_plan_release(mca_dte_plan_t *plan);

#ifdef __cplusplus
}
#endif

#endif
