/*
 * dte base: the in-memory form of a program, shared by the builder (dte_base_program.cpp) and the
 * walker (dte_base_walk.cpp). Nothing outside frameworks/dte/base includes this.
 *
 * A program is a flat array of ops. A sequence is a contiguous index range of that array; the top
 * sequence is one element of the type, and every LOOP op names its body as another range. Each op
 * knows its packed offset inside its sequence (`start`, a prefix sum) and its packed size, so a walk
 * that starts at an arbitrary stream offset binary-searches each level instead of scanning blocks:
 * resuming costs O(depth * log width), independent of how many blocks precede the offset.
 */
#ifndef TESSERA_FRAMEWORKS_DTE_BASE_DTE_BASE_PROGRAM_INTERNAL_H
#define TESSERA_FRAMEWORKS_DTE_BASE_DTE_BASE_PROGRAM_INTERNAL_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frameworks/dte/base/dte_base_program.h"

namespace tessera::ompi::dte {

/* Indexed: `count` single blocks of `unit` bytes at irregular displacements, listed in the program's
 * displacement table from `table` on (an indexed_block type, or the irregular blocks of an indexed one):
 * 8 bytes of metadata per block instead of an op, and the k-th block found by index when resuming.
 * Ragged: `count` blocks of changing lengths (an irregular indexed type, a struct of many fields): the
 * table holds each block's displacement and packed start, then (0, size), so a block's length is the
 * difference of two starts and resuming binary-searches the starts. */
enum class OpKind : uint8_t { Blocks, Loop, Indexed, Ragged };

/* How a run of whole blocks is copied: a fixed size becomes one load/store per block; OverL, a length
 * between L and 2L, two moves of L bytes per block, the second ending where the block ends (a struct's
 * double and char that touch are one block of 9 bytes). */
enum class CopyKind : uint8_t {
    Generic, B1, B2, B4, B8, B16, B24, B32, B48, B64, Chunks32, Over2, Over4, Over8, Over16, Over32, Over64
};

struct Op {
    OpKind kind = OpKind::Blocks;
    CopyKind copy = CopyKind::Generic; /* Blocks only */
    bool leaf_body = false;            /* Loop: its body is blocks only, walked without recursion */
    /* Loop: its body is two or more single blocks (the fields of a struct), copied field by field over
     * a chunk of iterations (dte_base_field_chunk) instead of iteration by iteration. */
    bool field_body = false;
    uint32_t body_begin = 0;           /* Loop: its body is ops[body_begin, body_end) */
    uint32_t body_end = 0;
    uint64_t table = 0;  /* Indexed, Ragged: its first entry in mca_dte_base_program::disps */
    uint64_t count = 0;  /* blocks, or loop iterations */
    uint64_t unit = 0;   /* packed bytes of one block (Blocks, Indexed) or of one iteration's body (Loop);
                            Ragged: its size */
    int64_t disp = 0;    /* Blocks: first block's displacement from the sequence's base; others: 0 */
    int64_t stride = 0;  /* bytes between blocks / iterations */
    uint64_t start = 0;  /* packed offset of this op inside its sequence */
    uint64_t size = 0;   /* count * unit (Ragged: unit), never 0 (empty ops are dropped at build time) */
};

CopyKind copy_kind_for(uint64_t blocklen);

/* dte_base_field_chunk: bytes of memory (an iteration's stride, or its packed size when larger) a
 * field-by-field copy covers before the next field; 0 copies iteration by iteration. */
constexpr size_t kDefaultFieldChunkBytes = 4096;
extern size_t field_chunk_bytes;

} // namespace tessera::ompi::dte

struct mca_dte_base_program {
    std::vector<tessera::ompi::dte::Op> ops;
    std::vector<int64_t> disps; /* the tables of Indexed and Ragged ops (displacements from their
                                   sequence's base) */
    uint32_t top_end = 0; /* the top sequence (one element) is ops[0, top_end) */
    uint64_t size = 0;    /* packed bytes of one element */
    int64_t extent = 0;
    bool top_leaf = false; /* the top sequence is blocks only (Op::leaf_body of the element loop) */
    bool top_fields = false; /* the top sequence is single blocks (Op::field_body of the element loop) */
    /* The element is one block of `size` bytes at `single_disp` (possibly with extent != size). */
    bool single_block = false;
    int64_t single_disp = 0;
    /* The top sequence is one vector whose blocks continue evenly into the next element
     * (extent == count * stride): count elements are one longer vector. */
    bool element_vector = false;
};

#endif
