/*
 * dte base: building a program from a normalized description (dte.h). The description is parsed into
 * a small tree, simplified bottom-up, then laid out flat (dte_base_program_internal.h). Simplifying
 * never changes the packed stream: every rewrite below keeps the order of the bytes and the address
 * each one comes from, so pack and unpack of the result equal those of the description.
 *
 * Rewrites (docs/dte.md):
 *  - empty blocks and loops (count 0, blocklen 0, empty body) vanish;
 *  - blocks at stride == blocklen are one contiguous block;
 *  - a loop of one iteration is its body, spliced into the enclosing sequence;
 *  - a loop around one contiguous block is a vector (count blocks at the loop's stride);
 *  - a loop around one vector whose stride continues evenly (loop stride == count * vector stride)
 *    is one longer vector; the same for a loop around one such loop;
 *  - adjacent blocks merge: contiguous runs into one block, equal-length blocks at a common stride
 *    into one vector.
 */
#include <algorithm>
#include <memory>
#include <new>
#include <numeric>

#include "frameworks/dte/base/dte_base_program_internal.h"
#include "opal/held_apart.h"
#include "mca/constants.h"

namespace tessera::ompi::dte {

/* Blocks up to this size that are a multiple of 32 bytes are unpacked 32 bytes at a time inline (rows
 * of a subarray): a memcpy call per block unpacked a fifth slower here (11.4 against 14.1 GB/s for rows
 * of 512 bytes; packing was as fast either way). */
constexpr uint64_t kMaxChunked = 2048;

/* dte_base_field_chunk (docs/dte.md): 4 KiB of memory per chunk stays in the L1 cache across the fields. */
size_t field_chunk_bytes = kDefaultFieldChunkBytes;

CopyKind copy_kind_for(uint64_t blocklen)
{
    switch (blocklen) {
    case 1: return CopyKind::B1;
    case 2: return CopyKind::B2;
    case 4: return CopyKind::B4;
    case 8: return CopyKind::B8;
    case 16: return CopyKind::B16;
    /* Blocks of a few doubles (indexed_block, short rows): an inline copy of constant size instead
     * of a memcpy call per block. */
    case 24: return CopyKind::B24;
    case 32: return CopyKind::B32;
    case 48: return CopyKind::B48;
    case 64: return CopyKind::B64;
    default:
        if (blocklen % 32 == 0 && blocklen <= kMaxChunked) {
            return CopyKind::Chunks32;
        }
        /* Other short lengths: two overlapping moves of a fixed size instead of a memcpy call per block
         * (the struct {int, double, char}'s 9-byte double and char packed at 1.9 GB/s by memcpy calls). */
        if (blocklen < 4) {
            return CopyKind::Over2;
        }
        if (blocklen < 8) {
            return CopyKind::Over4;
        }
        if (blocklen < 16) {
            return CopyKind::Over8;
        }
        if (blocklen < 32) {
            return CopyKind::Over16;
        }
        if (blocklen < 64) {
            return CopyKind::Over32;
        }
        return blocklen < 128 ? CopyKind::Over64 : CopyKind::Generic;
    }
}

namespace {

/*
 * Nesting refused when parsing, to bound the recursion of parse (a few hundred bytes of
 * stack per level). The walker recurses far less: one-iteration loops are spliced away, and more than
 * 64 nested loops of two or more iterations would overflow the 64-bit packed size.
 */
constexpr int kMaxDepth = 256;

struct Node {
    OpKind kind = OpKind::Blocks;
    uint64_t count = 0;
    uint64_t blocklen = 0; /* Blocks */
    int64_t disp = 0;      /* Blocks */
    int64_t stride = 0;
    uint64_t size = 0;     /* packed bytes, set by compute_sizes */

    /* A loop's body or a table, in the program's layout (Op::table; Indexed: a displacement per block;
     * Ragged: a displacement and a packed start per block, then (0, size)), is held apart, so that the
     * single blocks of an indexed type, tens of thousands of them, stay 56 bytes: building is bound by
     * their memory. */
    struct Parts {
        std::vector<Node> body;
        std::vector<int64_t> disps;
    };
    tessera::opal::HeldApart<Parts> parts;
    std::vector<Node> &body() { return parts.get().body; }
    const std::vector<Node> &body() const { return parts.get().body; }
    std::vector<int64_t> &disps() { return parts.get().disps; }
    const std::vector<int64_t> &disps() const { return parts.get().disps; }
};
static_assert(sizeof(Node) == 56, "a single block's node holds no parts inline");

/* Runs of at least this many single blocks become an Indexed op (one length) or a Ragged one (changing
 * lengths): below it a few ops cost no more than a table. */
constexpr size_t kMinIndexed = 8;
/* Vectors of at most this many blocks join an Indexed op's table (a longer one stays a vector). */
constexpr uint64_t kMaxTableVector = 4;
/* Blocks of at most this many units of the table's block length join it, cut into units. */
constexpr uint64_t kMaxPieces = 4;

bool mul_u64(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_mul_overflow(a, b, r); }
bool add_u64(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_add_overflow(a, b, r); }

/* count * stride as a signed displacement, false on overflow. */
bool span_of(uint64_t count, int64_t stride, int64_t *r)
{
    if (count > static_cast<uint64_t>(INT64_MAX)) {
        return false;
    }
    return !__builtin_mul_overflow(static_cast<int64_t>(count), stride, r);
}

int add_simplified(Node n, std::vector<Node> *out);

/* Parses elems[first, last) as a sequence, simplified as it goes (add_simplified): an indexed type's
 * tens of thousands of blocks are never held twice. */
int parse(const mca_dte_elem_t *elems, size_t first, size_t last, int depth, std::vector<Node> *out)
{
    if (depth > kMaxDepth) {
        return TESSERA_ERR_BAD_PARAM;
    }
    size_t siblings = 0; /* a reservation: an indexed type has tens of thousands */
    for (size_t i = first; i < last; i += elems[i].op == MCA_DTE_OP_LOOP ? elems[i].items + 2 : 1) {
        ++siblings;
    }
    out->reserve(siblings);
    for (size_t i = first; i < last;) {
        const mca_dte_elem_t &e = elems[i];
        Node n;
        n.count = e.count;
        n.stride = e.stride;
        if (e.op == MCA_DTE_OP_BLOCKS) {
            n.kind = OpKind::Blocks;
            n.blocklen = e.blocklen;
            n.disp = e.disp;
            ++i;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            /* items counts everything up to the matching END_LOOP, nested END_LOOPs included. */
            const size_t body_last = i + 1 + e.items;
            if (e.items == 0 || body_last >= last || elems[body_last].op != MCA_DTE_OP_END_LOOP) {
                return TESSERA_ERR_BAD_PARAM;
            }
            n.kind = OpKind::Loop;
            if (const int rc = parse(elems, i + 1, body_last, depth + 1, &n.body()); rc != TESSERA_SUCCESS) {
                return rc;
            }
            i = body_last + 1;
        } else {
            return TESSERA_ERR_BAD_PARAM; /* a stray END_LOOP or an unknown op */
        }
        if (const int rc = add_simplified(std::move(n), out); rc != TESSERA_SUCCESS) {
            return rc;
        }
    }
    return TESSERA_SUCCESS;
}

/* Blocks that follow each other in memory at stride == blocklen are one block. */
bool normalize_blocks(Node &n)
{
    if (n.count > 1 && n.stride == static_cast<int64_t>(n.blocklen)) {
        if (!mul_u64(n.count, n.blocklen, &n.blocklen)) {
            return false;
        }
        n.count = 1;
    }
    if (n.count == 1) {
        n.stride = static_cast<int64_t>(n.blocklen); /* irrelevant for one block; canonical for merging */
    }
    return true;
}

/* Whether b can join a (a's blocks, then b's) as one op; if so a becomes the merged op. */
bool try_merge(Node &a, const Node &b, bool *overflow)
{
    if (a.kind != OpKind::Blocks || b.kind != OpKind::Blocks) {
        return false;
    }
    /* Displacements far apart (overflowing differences) never merge. */
    int64_t a_span = 0;
    int64_t gap = 0;
    int64_t a_end = 0;
    int64_t b_prev = 0;
    if (!span_of(a.count, a.stride, &a_span) || __builtin_sub_overflow(b.disp, a.disp, &gap) ||
        __builtin_add_overflow(a.disp, a_span, &a_end) || __builtin_sub_overflow(b.disp, b.stride, &b_prev)) {
        return false;
    }
    Node m; /* a's shape: blocks have no parts to copy */
    m.count = a.count;
    m.blocklen = a.blocklen;
    m.disp = a.disp;
    m.stride = a.stride;
    if (a.count == 1 && b.count == 1 && gap == static_cast<int64_t>(a.blocklen)) {
        if (!add_u64(a.blocklen, b.blocklen, &m.blocklen)) {
            *overflow = true;
            return false;
        }
    } else if (a.blocklen != b.blocklen) {
        return false;
    } else if (a.count == 1 && b.count == 1) {
        m.count = 2; /* two equal blocks are a vector of two: a third at the same stride extends it */
        m.stride = gap;
    } else if (b.count == 1 && a.count > 1 && b.disp == a_end) {
        m.count = a.count + 1;
    } else if (a.count == 1 && b.count > 1 && b_prev == a.disp) {
        m.count = b.count + 1;
        m.stride = b.stride;
    } else if (a.count > 1 && b.count > 1 && a.stride == b.stride && b.disp == a_end) {
        if (!add_u64(a.count, b.count, &m.count)) {
            return false;
        }
    } else {
        return false;
    }
    if (!normalize_blocks(m)) {
        *overflow = true;
        return false;
    }
    a = std::move(m);
    return true;
}

/* Appends n to seq, merging it with the ops before it while they merge. */
bool push_merge(std::vector<Node> &seq, Node n)
{
    bool overflow = false;
    if (seq.empty() || !try_merge(seq.back(), n, &overflow)) {
        if (!overflow) {
            seq.push_back(std::move(n));
        }
        return !overflow;
    }
    /* The last op grew: it may now join the one before it. */
    while (seq.size() >= 2 && try_merge(seq[seq.size() - 2], seq.back(), &overflow)) {
        seq.pop_back();
    }
    return !overflow;
}

/* Appends node n, its loop body already simplified, to the simplified sequence out (see the rewrites at
 * the top of this file). */
int add_simplified(Node n, std::vector<Node> *out)
{
    if (n.count == 0) {
        return TESSERA_SUCCESS;
    }
    if (n.kind == OpKind::Blocks) {
        if (n.blocklen == 0) {
            return TESSERA_SUCCESS;
        }
        return normalize_blocks(n) && push_merge(*out, std::move(n)) ? TESSERA_SUCCESS : TESSERA_ERR_BAD_PARAM;
    }
    std::vector<Node> &body = n.body();
    if (body.empty()) {
        return TESSERA_SUCCESS;
    }
    if (n.count == 1) {
        /* One iteration's base is the enclosing base: the body stands in for the loop. */
        for (Node &b : body) {
            if (!push_merge(*out, std::move(b))) {
                return TESSERA_ERR_BAD_PARAM;
            }
        }
        return TESSERA_SUCCESS;
    }
    Node r;
    if (body.size() == 1 && body[0].kind == OpKind::Blocks && body[0].count == 1) {
        r = std::move(body[0]); /* a vector: one block per iteration */
        r.count = n.count;
        r.stride = n.stride;
    } else if (int64_t span = 0; body.size() == 1 && span_of(body[0].count, body[0].stride, &span) &&
                                 span == n.stride && mul_u64(n.count, body[0].count, &r.count)) {
        /* Iteration k's j-th item sits at k * count * stride + j * stride: one run of count * n. */
        const uint64_t total = r.count;
        r = std::move(body[0]);
        r.count = total;
    } else {
        r.kind = OpKind::Loop;
        r.count = n.count;
        r.stride = n.stride;
        r.body() = std::move(body);
    }
    if ((r.kind == OpKind::Blocks && !normalize_blocks(r)) || !push_merge(*out, std::move(r))) {
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

/* Blocks an Indexed op takes over: single blocks, and the short vectors merging makes of irregular
 * ones (two equal blocks always merge into a vector of two, a third joins it only at the same stride). */
bool table_block(const Node &n) { return n.kind == OpKind::Blocks && n.count <= kMaxTableVector; }

/* The unit of a table over seq[i, end): the greatest common divisor of their block lengths, when each
 * block is at most kMaxPieces such units (0 otherwise). Irregular blocks of one length merge where
 * they touch (indexed_block with some zero gaps): cut back into units, the touching ones stay in the
 * one table instead of splitting it into many ops. */
uint64_t shared_unit(const std::vector<Node> &seq, size_t i, size_t end)
{
    uint64_t unit = 0;
    uint64_t longest = 0;
    for (size_t k = i; k < end; ++k) {
        const uint64_t len = seq[k].blocklen;
        if (len != unit) { /* most blocks repeat the unit: no division for them */
            unit = std::gcd(unit, len);
            longest = std::max(longest, len);
            if (longest / unit > kMaxPieces) {
                return 0; /* the unit only shrinks and the longest only grows */
            }
        }
    }
    return unit;
}

/* Replaces the runs of table blocks (single blocks or short vectors) in seq, and in loop bodies, by
 * tables: a run of kMinIndexed or more blocks all of one length, or small multiples of a shared one,
 * becomes one Indexed node; otherwise its stretches of one length that hold kMinIndexed blocks become
 * Indexed nodes and the stretches between them, of changing lengths, Ragged nodes when they hold
 * kMinIndexed blocks (an op per block below that). Runs after parsing: merging has already joined
 * what continues. */
void gather_indexed(std::vector<Node> &seq)
{
    std::vector<Node> out; /* not reserved: the tables make it short */
    const auto blocks_in = [&](size_t i, size_t j) {
        uint64_t blocks = 0;
        for (size_t k = i; k < j; ++k) {
            blocks += seq[k].count;
        }
        return blocks;
    };
    /* Calls f(displacement, length) for each block of seq[i, j), in order. */
    const auto each_block = [&](size_t i, size_t j, auto &&f) {
        for (size_t k = i; k < j; ++k) {
            for (uint64_t b = 0; b < seq[k].count; ++b) {
                f(seq[k].disp + static_cast<int64_t>(b) * seq[k].stride, seq[k].blocklen);
            }
        }
    };
    /* The blocks of `unit` bytes seq[i, j) holds, its blocks cut into units. */
    const auto pieces_in = [&](size_t i, size_t j, uint64_t unit) {
        uint64_t pieces = 0;
        for (size_t k = i; k < j; ++k) {
            pieces += seq[k].count * (seq[k].blocklen / unit);
        }
        return pieces;
    };
    /* Whether they are enough for a table. */
    const auto indexable = [&](size_t i, size_t j, uint64_t unit) { return j - i >= 2 && pieces_in(i, j, unit) >= kMinIndexed; };
    const auto indexed = [&](size_t i, size_t j, uint64_t unit) {
        Node n;
        n.kind = OpKind::Indexed;
        n.blocklen = unit;
        std::vector<int64_t> &table = n.disps();
        table.reserve(pieces_in(i, j, unit));
        each_block(i, j, [&](int64_t disp, uint64_t len) {
            for (uint64_t at = 0; at < len; at += unit) {
                table.push_back(disp + static_cast<int64_t>(at));
            }
        });
        n.count = table.size();
        out.push_back(std::move(n));
    };
    const auto keep = [&](size_t i, size_t j) {
        for (size_t k = i; k < j; ++k) {
            out.push_back(std::move(seq[k]));
        }
    };
    /* seq[i, j), blocks of changing lengths: one Ragged node, or the nodes themselves when few. */
    const auto ragged = [&](size_t i, size_t j) {
        const uint64_t blocks = blocks_in(i, j);
        if (blocks < kMinIndexed) {
            keep(i, j);
            return;
        }
        Node n;
        n.kind = OpKind::Ragged;
        n.count = blocks;
        std::vector<int64_t> &table = n.disps();
        table.reserve(2 * blocks + 2);
        int64_t at = 0;
        bool overflow = false;
        each_block(i, j, [&](int64_t disp, uint64_t len) {
            table.push_back(disp);
            table.push_back(at);
            overflow = overflow || len > static_cast<uint64_t>(INT64_MAX) ||
                       __builtin_add_overflow(at, static_cast<int64_t>(len), &at);
        });
        if (overflow) {
            keep(i, j); /* starts that do not fit: compute_sizes refuses the ops instead */
            return;
        }
        table.push_back(0);
        table.push_back(at);
        out.push_back(std::move(n));
    };
    for (size_t i = 0; i < seq.size();) {
        size_t end = i;
        while (end < seq.size() && table_block(seq[end]) && seq[end].blocklen != 0) {
            ++end;
        }
        if (end > i) {
            if (const uint64_t unit = shared_unit(seq, i, end); unit != 0 && indexable(i, end, unit)) {
                indexed(i, end, unit);
                i = end;
                continue;
            }
            size_t loose = i; /* the first block not in a table yet */
            for (size_t k = i; k < end;) {
                size_t j = k;
                while (j < end && seq[j].blocklen == seq[k].blocklen) {
                    ++j;
                }
                if (indexable(k, j, seq[k].blocklen)) {
                    ragged(loose, k);
                    indexed(k, j, seq[k].blocklen);
                    loose = j;
                }
                k = j;
            }
            ragged(loose, end);
            i = end;
            continue;
        }
        if (seq[i].kind == OpKind::Loop) {
            gather_indexed(seq[i].body());
        }
        out.push_back(std::move(seq[i]));
        ++i;
    }
    seq = std::move(out);
}

/* Packed sizes of every node of seq and their sum; false on overflow. */
bool compute_sizes(std::vector<Node> &seq, uint64_t *total)
{
    uint64_t sum = 0;
    for (Node &n : seq) {
        uint64_t unit = n.blocklen;
        uint64_t units = n.count;
        if (n.kind == OpKind::Loop && !compute_sizes(n.body(), &unit)) {
            return false;
        }
        if (n.kind == OpKind::Ragged) { /* one unit: the whole table, whose last start is its size */
            units = 1;
            unit = static_cast<uint64_t>(n.disps().back());
        }
        if (!mul_u64(units, unit, &n.size) || !add_u64(sum, n.size, &sum)) {
            return false;
        }
        if (n.kind != OpKind::Blocks && n.kind != OpKind::Indexed) {
            n.blocklen = unit; /* a loop's unit is its body's packed size, a Ragged node's its own */
        }
    }
    *total = sum;
    return true;
}

bool is_leaf(const Node &n) { return n.kind != OpKind::Loop; }
bool is_field(const Node &n) { return n.kind == OpKind::Blocks && n.count == 1; }
bool are_fields(const std::vector<Node> &seq) { return seq.size() >= 2 && std::all_of(seq.begin(), seq.end(), is_field); }

/* Lays seq out at the end of ops, then each loop's body after it (bodies are contiguous ranges);
 * Indexed displacements go to the end of disps. */
bool emit(const std::vector<Node> &seq, std::vector<Op> &ops, std::vector<int64_t> &disps)
{
    const size_t base = ops.size();
    uint64_t start = 0;
    for (const Node &n : seq) {
        Op op;
        op.kind = n.kind;
        op.count = n.count;
        op.unit = n.blocklen;
        op.disp = n.kind == OpKind::Blocks ? n.disp : 0;
        op.stride = n.stride;
        op.start = start;
        op.size = n.size;
        op.copy = n.kind == OpKind::Blocks || n.kind == OpKind::Indexed ? copy_kind_for(n.blocklen) : CopyKind::Generic;
        if (n.kind == OpKind::Indexed || n.kind == OpKind::Ragged) {
            op.table = disps.size();
            disps.insert(disps.end(), n.disps().begin(), n.disps().end());
        }
        start += n.size;
        ops.push_back(op);
    }
    for (size_t i = 0; i < seq.size(); ++i) {
        if (seq[i].kind != OpKind::Loop) {
            continue;
        }
        const size_t begin = ops.size();
        if (begin + seq[i].body().size() > UINT32_MAX) {
            return false;
        }
        ops[base + i].leaf_body = std::all_of(seq[i].body().begin(), seq[i].body().end(), is_leaf);
        ops[base + i].field_body = are_fields(seq[i].body());
        ops[base + i].body_begin = static_cast<uint32_t>(begin);
        ops[base + i].body_end = static_cast<uint32_t>(begin + seq[i].body().size());
        if (!emit(seq[i].body(), ops, disps)) {
            return false;
        }
    }
    return true;
}

int build(const mca_dte_type_desc_t &type, mca_dte_base_program &p)
{
    std::vector<Node> top;
    if (type.elem_count > 0 && type.elems == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (const int rc = parse(type.elems, 0, type.elem_count, 0, &top); rc != TESSERA_SUCCESS) {
        return rc;
    }
    gather_indexed(top);
    uint64_t size = 0;
    /* A size that disagrees with the blocks would make every byte range wrong: refuse it. */
    if (!compute_sizes(top, &size) || size != type.size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (!emit(top, p.ops, p.disps)) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    p.top_end = static_cast<uint32_t>(top.size());
    p.size = size;
    p.extent = type.extent;
    p.top_leaf = std::all_of(top.begin(), top.end(), is_leaf);
    p.top_fields = are_fields(top);
    if (top.size() == 1 && top[0].kind == OpKind::Blocks) {
        int64_t span = 0;
        if (top[0].count == 1) {
            p.single_block = true;
            p.single_disp = top[0].disp;
        } else if (span_of(top[0].count, top[0].stride, &span) && span == type.extent) {
            p.element_vector = true;
        }
    }
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::ompi::dte

extern "C" {

int mca_dte_base_program_create(const mca_dte_type_desc_t *type, mca_dte_base_program_t **program)
{
    if (type == nullptr || program == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    try {
        auto p = std::make_unique<mca_dte_base_program>();
        if (const int rc = tessera::ompi::dte::build(*type, *p); rc != TESSERA_SUCCESS) {
            return rc;
        }
        *program = p.release();
        return TESSERA_SUCCESS;
    } catch (const std::bad_alloc &) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
}

void mca_dte_base_program_free(mca_dte_base_program_t *program)
{
    std::unique_ptr<mca_dte_base_program> owned(program);
}

uint64_t mca_dte_base_program_size(const mca_dte_base_program_t *program)
{
    return program->size;
}

} // extern "C"
