/*
 * The normalized description of a datatype (frameworks/dte/dte.h): the structural form of
 * datatype_derived.h unrolled into BLOCKS and LOOPs, then simplified so that every engine starts from
 * the fewest, largest runs: one-iteration loops vanish, a loop over one block becomes a strided block,
 * strided blocks that touch become one, adjacent blocks merge. Equal layouts built differently (a
 * contiguous of vectors, a vector of contiguous) so end up with equal descriptions, which the jit's
 * cache relies on.
 */
#include <algorithm>
#include <vector>

#include "ompi/datatype/datatype_derived.h"
#include "opal/held_apart.h"

namespace tessera::ompi {

namespace {

struct Node {
    uint32_t op = MCA_DTE_OP_BLOCKS;
    uint64_t count = 1;
    uint64_t blocklen = 0; /* BLOCKS */
    int64_t disp = 0;      /* BLOCKS */
    int64_t stride = 0;
    /* A LOOP's body, held apart: an indexed type's tens of thousands of blocks stay 48 bytes each
     * (describing it is bound by their memory). */
    tessera::opal::HeldApart<std::vector<Node>> loop_body;
    std::vector<Node> &body() { return loop_body.get(); }
    const std::vector<Node> &body() const { return loop_body.get(); }
};

void shift(std::vector<Node> &nodes, int64_t by)
{
    for (Node &n : nodes) {
        if (n.op == MCA_DTE_OP_BLOCKS) {
            n.disp += by;
        } else {
            shift(n.body(), by);
        }
    }
}

/* A strided block whose blocks touch is one block. */
template <class Item>
void tidy_blocks(Item &b)
{
    if (b.count == 1) {
        b.stride = 0;
    } else if (b.stride == static_cast<int64_t>(b.blocklen)) {
        b.blocklen *= b.count;
        b.count = 1;
        b.stride = 0;
    }
}

/* Appends block n (a Node, or an element of the description itself) to a simplified list, merging it
 * into the previous block when they continue each other. */
template <class Item>
void append_block(std::vector<Item> &out, Item n)
{
    if (n.count == 0 || n.blocklen == 0) {
        return;
    }
    tidy_blocks(n);
    if (!out.empty() && out.back().op == MCA_DTE_OP_BLOCKS && out.back().count == 1 && n.count == 1 &&
        out.back().disp + static_cast<int64_t>(out.back().blocklen) == n.disp) {
        out.back().blocklen += n.blocklen;
        return;
    }
    out.push_back(std::move(n));
}

/* Appends `n` to a simplified list, merging it into the previous node when they continue each other. */
void append(std::vector<Node> &out, Node n)
{
    if (n.op == MCA_DTE_OP_BLOCKS) {
        append_block(out, std::move(n));
        return;
    }
    if (n.body().empty() || n.count == 0) {
        return;
    }
    if (n.count == 1) { /* one iteration: its body, in place */
        for (Node &b : n.body()) {
            append(out, std::move(b));
        }
        return;
    }
    if (n.body().size() == 1 && n.body()[0].op == MCA_DTE_OP_BLOCKS) {
        Node &b = n.body()[0];
        if (b.count == 1) { /* a loop over one block: a strided block */
            Node s;
            s.count = n.count;
            s.blocklen = b.blocklen;
            s.disp = b.disp;
            s.stride = n.stride;
            append(out, std::move(s));
            return;
        }
        if (b.stride * static_cast<int64_t>(b.count) == n.stride) { /* the loop continues the blocks' stride */
            b.count *= n.count;
            append(out, std::move(b));
            return;
        }
    }
    out.push_back(std::move(n));
}

void build(const Datatype *type, std::vector<Node> &out);

/* Whether a run is of a dense predefined type (every block of an indexed type of doubles). */
bool dense_run(const TypeRun &r)
{
    const Datatype &c = *r.child;
    return c.derived == nullptr && c.block_count == 1 && static_cast<MPI_Aint>(c.blocks[0].length) == c.extent;
}

/* Such a run as blocks: what the loops of build_run come to, without building them. */
template <class Item>
Item dense_block(const TypeRun &r)
{
    const Datatype &c = *r.child;
    Item n{};
    n.op = MCA_DTE_OP_BLOCKS;
    n.count = static_cast<uint64_t>(r.count);
    n.blocklen = static_cast<uint64_t>(r.blocklen) * c.blocks[0].length;
    n.disp = r.disp + c.blocks[0].offset;
    n.stride = r.stride;
    return n;
}

/* `blocklen` elements of `child` one extent apart, `count` times `stride` apart, at `disp`. */
void build_run(const TypeRun &r, std::vector<Node> &out)
{
    if (r.child->size == 0) {
        return;
    }
    if (dense_run(r)) {
        append(out, dense_block<Node>(r));
        return;
    }
    std::vector<Node> child;
    build(r.child, child);
    Node inner;
    inner.op = MCA_DTE_OP_LOOP;
    inner.count = static_cast<uint64_t>(r.blocklen);
    inner.stride = r.child->extent;
    inner.body() = std::move(child);
    std::vector<Node> block;
    append(block, std::move(inner));
    Node outer;
    outer.op = MCA_DTE_OP_LOOP;
    outer.count = static_cast<uint64_t>(r.count);
    outer.stride = r.stride;
    outer.body() = std::move(block);
    std::vector<Node> run;
    append(run, std::move(outer));
    shift(run, r.disp);
    for (Node &n : run) {
        append(out, std::move(n));
    }
}

void build(const Datatype *type, std::vector<Node> &out)
{
    if (type->derived == nullptr) {
        for (int b = 0; b < type->block_count; ++b) {
            Node n;
            n.blocklen = type->blocks[b].length;
            n.disp = type->blocks[b].offset;
            append(out, std::move(n));
        }
        return;
    }
    for (const TypeRun &r : type->derived->runs) {
        build_run(r, out);
    }
}

void serialize(const std::vector<Node> &nodes, std::vector<mca_dte_elem_t> &out)
{
    for (const Node &n : nodes) {
        mca_dte_elem_t e{};
        e.op = n.op;
        e.count = n.count;
        if (n.op == MCA_DTE_OP_BLOCKS) {
            e.blocklen = n.blocklen;
            e.disp = n.disp;
            e.stride = n.stride;
            out.push_back(e);
            continue;
        }
        e.stride = n.stride;
        const std::size_t at = out.size();
        out.push_back(e);
        serialize(n.body(), out);
        out[at].items = static_cast<uint32_t>(out.size() - at - 1);
        mca_dte_elem_t end{};
        end.op = MCA_DTE_OP_END_LOOP;
        out.push_back(end);
    }
}

} // namespace

void datatype_describe(const Datatype *type, std::vector<mca_dte_elem_t> *out)
{
    out->clear();
    if (type->derived != nullptr && std::all_of(type->derived->runs.begin(), type->derived->runs.end(), dense_run)) {
        /* Runs of dense predefined types only (indexed, struct of basic types): their blocks go straight
         * into the description, with no tree between. */
        out->reserve(type->derived->runs.size());
        for (const TypeRun &r : type->derived->runs) {
            if (r.child->size != 0) {
                append_block(*out, dense_block<mca_dte_elem_t>(r));
            }
        }
        return;
    }
    std::vector<Node> nodes;
    build(type, nodes);
    out->reserve(nodes.size());
    serialize(nodes, *out);
}

} // namespace tessera::ompi
