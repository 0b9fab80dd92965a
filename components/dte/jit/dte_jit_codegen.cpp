/*
 * dte jit: LLVM IR of a type's pack and unpack functions of whole elements.
 *
 *   void pack(const i8 *noalias buf, i64 first, i64 n, i8 *noalias out)
 *   void unpack(i8 *noalias buf, i64 first, i64 n, const i8 *noalias in)
 *
 * Every LOOP and every BLOCKS of more than one block becomes a counted loop with its trip count,
 * strides and block length as constants, and every address is affine in the loop counters (base +
 * counter * stride), so that scalar evolution sees the whole access pattern and the loop vectorizer can
 * turn strided small blocks into vector loads, shuffles and stores (libpack's approach, with our
 * normalized description as input: docs/dte.md).
 */
#include <algorithm>
#include <cstring>

#include "components/dte/jit/dte_jit.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace tessera::ompi::dte_jit {
namespace {

/* Blocks up to this size are copied straight, with loads and stores the vectorizer can work with; longer
 * ones by a loop of 32-byte moves, which unpacks as fast as straight-line code here (rows of 576 to 1536
 * bytes) or faster (384 bytes: 18.1 against 16.8 GB/s; 768: 21.4 against 20.2), with a fraction of its
 * code and compile time. */
constexpr uint64_t kInlineCopyMax = 256;
/* Elements smaller than this are handled several per loop iteration, at most kMaxUnroll. */
constexpr uint64_t kUnrollBytes = 64;
constexpr uint64_t kMaxUnroll = 8;

/* Unpacking stores into the user's buffer at the type's stride: here 16-byte stores do that faster
 * than 32-byte ones, whether the lines are in cache or not (64-byte blocks 1 KiB apart: 6.5 against
 * 8.6 GB/s; 64 KiB of 64-byte blocks 128 bytes apart: 28 against 44). Packing reads strided and stores
 * contiguously, and keeps 32-byte pieces. */
constexpr uint64_t kUnpackPieceMax = 16;
/* The copy loop runs up to this size instead of a memcpy call, which costs here whether the lines are
 * in cache or not (blocks 2304 bytes apart by 4224: pack 22.1 against 19.7 GB/s, unpack 22.2 against
 * 19.1; 768 bytes by 3456: 16.1 against 14.9 and 17.5 against 14.6). Longer blocks are left to
 * memcpy's own large-copy paths. */
constexpr uint64_t kLoopCopyMax = 8192;
/* Strided blocks up to this size get narrower pieces in the paced code (Emitter::paced_blocks): 8 bytes
 * unpacking, 16 packing. */
constexpr uint64_t kPacedBlockMax = 64;
constexpr uint64_t kPacedPackPiece = 16;
/* A cache line: blocks at least this far apart each touch lines of their own. */
constexpr uint64_t kLine = 64;
/* The paced unpack also asks for the lines of the block about this many bytes ahead in a strided loop
 * of at least kPrefetchMinBlocks blocks of at most kPrefetchBlockMax bytes: out of cache, storing
 * waits for each line to be fetched, and asking early overlaps the fetches (MILC's strided vectors of
 * 96-144-byte rows: 10.4-11.2 -> 12.7-13.4 GB/s; of 192-byte rows: 12.7-13.9 -> 17.7-19.3). 1024
 * bytes measured as good as 2048 and better than 4096. */
constexpr uint64_t kPrefetchAhead = 1024;
constexpr uint64_t kPrefetchMinBlocks = 4;
/* Blocks shorter than this are not asked for ahead: a prefetch per block of a scalar or two costs more
 * than it saves (AMD EPYC, Zen 5: 8-byte blocks 16 bytes apart 18.8 -> 28.9 GB/s without it, 272 bytes
 * apart as in NAS LU 8.3 -> 11.1; the 64-byte blocks 1 KiB apart keep gaining from it). */
constexpr uint64_t kPrefetchBlockMin = 16;
constexpr uint64_t kPrefetchBlockMax = 1024;

/* Loops over strided blocks of at most kUnrollBlockMax bytes run kUnrollSmallBlocks bodies a trip
 * (loop metadata: the fast pipeline unrolls nothing else). A body of one or two scalar copies is mostly
 * loop overhead; full O3, which unrolls, packed NAS LU's 8-byte blocks 272 bytes apart at 10.7 GB/s
 * against 9.6 (AMD EPYC, stop 20). With this: 10.5 -> 10.7-10.8 in a 3-run A/B, the built-in resized
 * layout unchanged within noise. */
constexpr uint64_t kUnrollBlockMax = 16;
constexpr unsigned kUnrollSmallBlocks = 8;

uint64_t magnitude(int64_t v)
{
    return static_cast<uint64_t>(v < 0 ? -v : v);
}

/* How many steps of `stride` bytes reach kPrefetchAhead bytes. */
uint64_t steps_ahead(uint64_t stride)
{
    return (kPrefetchAhead + stride - 1) / stride;
}

/* Whether a BLOCKS node has several blocks with gaps (or overlaps) between them. */
bool strided(const Node &node)
{
    return !node.loop && node.count > 1 && node.stride != static_cast<int64_t>(node.blocklen);
}

/* Whether the paced unpack copies a node's blocks in narrower pieces (Emitter::paced_blocks). */
bool paced_pieces(const Node &node)
{
    return strided(node) && node.blocklen <= kPacedBlockMax;
}

/* Whether the paced pack reads a node's blocks differently (Emitter::paced_blocks): blocks of 17-64 bytes
 * in 16-byte pieces, and blocks shorter than 16 bytes, each in a line of its own, by scalar loads
 * instead of the vectorizer's gathers. */
bool paced_pack_pieces(const Node &node)
{
    return paced_pieces(node) && (node.blocklen > kPacedPackPiece ||
                                  (node.blocklen < kPacedPackPiece && magnitude(node.stride) >= kLine));
}

/* Whether the paced unpack asks for a node's blocks ahead (Emitter::prefetch_ahead). */
bool prefetched(const Node &node)
{
    return strided(node) && node.stride != 0 && node.count >= kPrefetchMinBlocks && node.blocklen >= kPrefetchBlockMin &&
           node.blocklen <= kPrefetchBlockMax;
}

/* Whether the paced unpack asks for the lines of the element ahead (Emitter::prefetch_element): elements
 * of fewer than kPrefetchMinBlocks blocks of at most kPrefetchBlockMax bytes, no loops, spread over an
 * extent at least twice their size. Such an element is to the element loop what a block is to a
 * strided loop (MILC's pairs of 768-byte rows, 6144 bytes apart in elements 6912 apart). */
bool prefetched_elements(const std::vector<Node> &tree, uint64_t size, int64_t extent)
{
    uint64_t blocks = 0;
    for (const Node &n : tree) {
        if (n.loop || n.blocklen > kPrefetchBlockMax)
            return false;
        blocks += n.packed == 0 ? 0 : n.count;
    }
    return size > 0 && magnitude(extent) >= 2 * size && blocks > 0 && blocks < kPrefetchMinBlocks;
}

/* Whether some node of the tree, at any depth, is `paced`. */
template <class Paced>
bool any_node(const std::vector<Node> &tree, Paced &&paced)
{
    for (const Node &n : tree) {
        if (n.loop ? any_node(n.body, paced) : paced(n))
            return true;
    }
    return false;
}

class Emitter {
public:
    /* `paced`: the variant for calls whose bytes miss the cache. */
    Emitter(llvm::LLVMContext &ctx, llvm::Module &module, bool packing, bool paced = false)
        : ctx_(ctx), module_(module), b_(ctx), packing_(packing), paced_(paced)
    {
    }

    /* The whole function: a loop over n elements, each element's tree inside it. */
    void function(const std::string &name, const std::vector<Node> &tree, uint64_t size, int64_t extent)
    {
        auto *i8p = llvm::Type::getInt8PtrTy(ctx_);
        auto *i64 = llvm::Type::getInt64Ty(ctx_);
        auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_), {i8p, i64, i64, i8p}, false);
        fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
        fn_->addFnAttr(llvm::Attribute::NoUnwind);
        /* The copy loops stay loops: else loop idiom recognition turns them back into memcpy calls. */
        fn_->addFnAttr("no-builtins");
        /* MPI forbids the user buffer and the packed stream to overlap; saying so spares the vectorizer
         * its run-time overlap checks. */
        fn_->addParamAttr(0, llvm::Attribute::NoAlias);
        fn_->addParamAttr(3, llvm::Attribute::NoAlias);
        llvm::Value *buf = fn_->getArg(0);
        llvm::Value *first = fn_->getArg(1);
        llvm::Value *n = fn_->getArg(2);
        llvm::Value *stream = fn_->getArg(3);

        b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
        /* The user-buffer side uses plain GEPs, not inbounds: with MPI_BOTTOM the buffer is NULL and the
         * displacements are absolute addresses, and an inbounds offset from NULL would be poison. */
        llvm::Value *base = b_.CreateGEP(b_.getInt8Ty(), buf, b_.CreateMul(first, b_.getInt64(extent)));

        if (is_contiguous(tree, size, extent)) {
            /* Elements follow each other without gaps: the whole range is one copy. */
            llvm::Value *start = mem_gep(base, tree[0].disp);
            llvm::Value *len = b_.CreateMul(n, b_.getInt64(size));
            if (packing_)
                b_.CreateMemCpy(stream, llvm::MaybeAlign(1), start, llvm::MaybeAlign(1), len);
            else
                b_.CreateMemCpy(start, llvm::MaybeAlign(1), stream, llvm::MaybeAlign(1), len);
            b_.CreateRetVoid();
            return;
        }

        auto *body = llvm::BasicBlock::Create(ctx_, "elements", fn_);
        auto *exit = llvm::BasicBlock::Create(ctx_, "exit", fn_);
        const bool prefetch = paced_ && !packing_ && prefetched_elements(tree, size, extent);
        const auto element = [&](llvm::Value *i) {
            llvm::Value *elem = b_.CreateGEP(b_.getInt8Ty(), base, b_.CreateMul(i, b_.getInt64(extent)));
            if (prefetch)
                prefetch_element(base, i, n, tree, extent);
            llvm::Value *out = b_.CreateInBoundsGEP(b_.getInt8Ty(), stream, b_.CreateMul(i, b_.getInt64(size)));
            nodes(tree, elem, out);
        };
        const uint64_t k = elements_per_iteration(size);
        if (k == 1) {
            b_.CreateCondBr(b_.CreateICmpEQ(n, b_.getInt64(0)), exit, body);
            loop(body, exit, n, element);
        } else {
            /* Small elements, k per iteration (the optimizer's unroller is off: see dte_jit_compiler.cpp),
             * then the n % k left. */
            auto *rest_check = llvm::BasicBlock::Create(ctx_, "rest.check", fn_);
            auto *rest = llvm::BasicBlock::Create(ctx_, "rest", fn_);
            llvm::Value *groups = b_.CreateUDiv(n, b_.getInt64(k));
            llvm::Value *done = b_.CreateMul(groups, b_.getInt64(k));
            b_.CreateCondBr(b_.CreateICmpEQ(groups, b_.getInt64(0)), rest_check, body);
            loop(body, rest_check, groups, [&](llvm::Value *g) {
                llvm::Value *first_of_group = b_.CreateMul(g, b_.getInt64(k));
                for (uint64_t j = 0; j < k; ++j)
                    element(b_.CreateAdd(first_of_group, b_.getInt64(j)));
            });
            llvm::Value *left = b_.CreateSub(n, done);
            b_.CreateCondBr(b_.CreateICmpEQ(left, b_.getInt64(0)), exit, rest);
            loop(rest, exit, left, [&](llvm::Value *r) { element(b_.CreateAdd(done, r)); });
        }
        b_.SetInsertPoint(exit);
        b_.CreateRetVoid();
    }

private:
    /* Elements handled per iteration of the element loop: enough small ones to move about 64 bytes. */
    static uint64_t elements_per_iteration(uint64_t size)
    {
        return size == 0 || size >= kUnrollBytes ? 1 : std::min<uint64_t>(kMaxUnroll, (kUnrollBytes + size - 1) / size);
    }

    static bool is_contiguous(const std::vector<Node> &tree, uint64_t size, int64_t extent)
    {
        return tree.size() == 1 && !tree[0].loop && size > 0 && static_cast<int64_t>(size) == extent &&
               (tree[0].count == 1 || tree[0].stride == static_cast<int64_t>(tree[0].blocklen));
    }

    /* Into the packed stream, which is always a real buffer. */
    llvm::Value *gep(llvm::Value *ptr, int64_t offset)
    {
        return offset == 0 ? ptr : b_.CreateInBoundsGEP(b_.getInt8Ty(), ptr, b_.getInt64(offset));
    }

    /* Into the user buffer (see function(): maybe NULL plus absolute addresses). */
    llvm::Value *mem_gep(llvm::Value *ptr, int64_t offset)
    {
        return offset == 0 ? ptr : b_.CreateGEP(b_.getInt8Ty(), ptr, b_.getInt64(offset));
    }

    /* Emits `body` into a rotated loop i = 0 .. trip-1 starting at block `header` (trip >= 1), then
     * continues in `exit`. */
    template <class Body>
    void loop(llvm::BasicBlock *header, llvm::BasicBlock *exit, llvm::Value *trip, Body &&body, unsigned unroll = 0)
    {
        llvm::BasicBlock *pre = b_.GetInsertBlock();
        if (pre->getTerminator() == nullptr)
            b_.CreateBr(header);
        b_.SetInsertPoint(header);
        llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
        i->addIncoming(b_.getInt64(0), pre);
        body(i);
        llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1), "i.next", true, true);
        i->addIncoming(next, b_.GetInsertBlock());
        llvm::BranchInst *back = b_.CreateCondBr(b_.CreateICmpULT(next, trip), header, exit);
        if (unroll > 1)
            back->setMetadata(llvm::LLVMContext::MD_loop, unroll_by(unroll));
        b_.SetInsertPoint(exit);
    }

    /* Loop metadata asking for `count` copies of the body: the fast pipeline unrolls only where asked. */
    llvm::MDNode *unroll_by(unsigned count)
    {
        llvm::Metadata *what[] = {llvm::MDString::get(ctx_, "llvm.loop.unroll.count"),
                                  llvm::ConstantAsMetadata::get(b_.getInt32(count))};
        llvm::TempMDTuple self = llvm::MDNode::getTemporary(ctx_, {});
        llvm::Metadata *ops[] = {self.get(), llvm::MDNode::get(ctx_, what)};
        llvm::MDNode *id = llvm::MDNode::getDistinct(ctx_, ops);
        id->replaceOperandWith(0, id);
        return id;
    }

    template <class Body>
    void counted(uint64_t trip, Body &&body, unsigned unroll = 0)
    {
        if (trip == 1) {
            body(b_.getInt64(0));
            return;
        }
        auto *header = llvm::BasicBlock::Create(ctx_, "loop", fn_);
        auto *exit = llvm::BasicBlock::Create(ctx_, "loop.exit", fn_);
        loop(header, exit, b_.getInt64(trip), body, unroll);
    }

    /* The nodes of one loop body (or element): `mem` is the body's base in the user buffer, `out` where its
     * packed bytes begin. */
    void nodes(const std::vector<Node> &list, llvm::Value *mem, llvm::Value *out)
    {
        uint64_t offset = 0;
        for (const Node &node : list) {
            if (node.packed == 0)
                continue; /* no blocks, or empty ones: nothing to copy (and no loop of zero trips) */
            llvm::Value *node_out = gep(out, static_cast<int64_t>(offset));
            if (node.loop) {
                const uint64_t per_iter = node.count > 0 ? node.packed / node.count : 0;
                counted(node.count, [&](llvm::Value *k) {
                    llvm::Value *m = b_.CreateGEP(b_.getInt8Ty(), mem, b_.CreateMul(k, b_.getInt64(node.stride)));
                    llvm::Value *o = b_.CreateInBoundsGEP(b_.getInt8Ty(), node_out, b_.CreateMul(k, b_.getInt64(per_iter)));
                    nodes(node.body, m, o);
                });
            } else if (node.count == 1 || node.stride == static_cast<int64_t>(node.blocklen)) {
                copy(mem_gep(mem, node.disp), node_out, node.count * node.blocklen);
            } else if (node.count <= kMaxUnroll && node.packed <= kUnrollBytes) {
                /* A few small strided blocks (a short vector inside a struct or resized type): straight-line
                 * copies instead of a loop of a few trips in every element. */
                for (uint64_t k = 0; k < node.count; ++k)
                    copy(mem_gep(mem, node.disp + static_cast<int64_t>(k) * node.stride),
                         gep(node_out, static_cast<int64_t>(k * node.blocklen)), node.blocklen, paced_blocks(node));
            } else {
                llvm::Value *first = mem_gep(mem, node.disp);
                counted(node.count, [&](llvm::Value *k) {
                    llvm::Value *m = b_.CreateGEP(b_.getInt8Ty(), first, b_.CreateMul(k, b_.getInt64(node.stride)));
                    llvm::Value *o = b_.CreateInBoundsGEP(b_.getInt8Ty(), node_out, b_.CreateMul(k, b_.getInt64(node.blocklen)));
                    if (prefetches(node))
                        prefetch_ahead(first, k, node);
                    copy(m, o, node.blocklen, paced_blocks(node));
                }, node.blocklen <= kUnrollBlockMax ? kUnrollSmallBlocks : 0);
            }
            offset += node.packed;
        }
    }

    /* Whether the blocks of a strided BLOCKS node are copied paced. An unpack whose blocks miss the cache
     * is bound by fetching their lines for writing, and narrower stores pace that better here: the
     * paced variant copies blocks of a line or less in 8-byte pieces (64-byte blocks 1 KiB apart: 10.4
     * GB/s against 8.5 with 16-byte ones; 128 bytes apart, 2 MiB: 13.8 against 13.0; MPICH copies such
     * blocks 8 bytes at a time) — in cache they are 5-15 % slower, so the plan picks the variant by the
     * bytes a call touches (docs/dte.md). A pack reading such blocks from beyond the cache does so
     * faster in 16-byte pieces than in 32-byte ones (64-byte blocks 768 bytes to 4 KiB apart, 16 MiB:
     * 8.9-10.1 GB/s against 5.0-8.1), while in cache 32-byte ones are faster (60 against 70 GB/s).
     * Shorter blocks a line or more apart it reads by scalar loads: the vectorizer's gathers wait longer
     * for lines that miss (8-byte blocks 272 bytes apart, 35 MB: 2.3-2.5 against 1.9-2.5 GB/s). */
    bool paced_blocks(const Node &node) const
    {
        return paced_ && (packing_ ? paced_pack_pieces(node) : paced_pieces(node));
    }

    /* Copies `len` bytes between the user buffer (`mem`) and the stream (`out`), in the plan's direction:
     * up to kInlineCopyMax straight, in 32-byte pieces when packing, 16-byte ones when unpacking, and when
     * paced 16-byte ones packing and 8-byte ones unpacking, the scalar ones volatile; then by the copy
     * loop up to kLoopCopyMax; then by memcpy. */
    void copy(llvm::Value *mem, llvm::Value *out, uint64_t len, bool paced = false)
    {
        const uint64_t widest = packing_ ? (paced ? kPacedPackPiece : 32) : paced ? 8 : kUnpackPieceMax;
        if (len > kInlineCopyMax) {
            if (len <= kLoopCopyMax) {
                copy_loop(mem, out, len);
                return;
            }
            if (packing_)
                b_.CreateMemCpy(out, llvm::MaybeAlign(1), mem, llvm::MaybeAlign(1), b_.getInt64(len));
            else
                b_.CreateMemCpy(mem, llvm::MaybeAlign(1), out, llvm::MaybeAlign(1), b_.getInt64(len));
            return;
        }
        /* Widest pieces first: 32 (packing) and 16 byte vectors, then scalars, each unaligned. */
        uint64_t at = 0;
        for (uint64_t piece : {32u, 16u, 8u, 4u, 2u, 1u}) {
            if (piece > widest)
                continue;
            llvm::Type *type = piece >= 16 ? static_cast<llvm::Type *>(llvm::FixedVectorType::get(b_.getInt8Ty(), piece))
                                           : b_.getIntNTy(static_cast<unsigned>(piece * 8));
            /* LLVM 14 pointers are still typed: i8* is cast to the piece's pointer type. */
            llvm::Type *ptr = type->getPointerTo();
            while (len - at >= piece) {
                /* Paced scalar copies are volatile: else the vectorizers join them again (or gather them). */
                move(type, b_.CreateBitCast(mem_gep(mem, static_cast<int64_t>(at)), ptr),
                     b_.CreateBitCast(gep(out, static_cast<int64_t>(at)), ptr), paced && piece < 16);
                at += piece;
            }
        }
    }

    /* Whether the paced unpack asks for the lines of a strided BLOCKS node's blocks ahead (see
     * kPrefetchAhead; asking ahead for reading gained nothing in the pack). */
    bool prefetches(const Node &node) const { return paced_ && !packing_ && prefetched(node); }

    /* Asks for writing the lines of the block some kPrefetchAhead bytes of the node's stride after block
     * k: exactly the lines it touches (a line it does not write would be fetched for nothing, which
     * halved the speed in a test), or block k's own when the block ahead is past the node. */
    void prefetch_ahead(llvm::Value *first, llvm::Value *k, const Node &node)
    {
        const uint64_t blocks = std::min(steps_ahead(magnitude(node.stride)), node.count / 2);
        llvm::Value *block = b_.CreateGEP(b_.getInt8Ty(), first,
                                          b_.CreateMul(ahead(k, blocks, b_.getInt64(node.count)), b_.getInt64(node.stride)));
        prefetch_lines(block, node.blocklen);
    }

    /* The same for the element about kPrefetchAhead bytes after element i of n (see
     * prefetched_elements): the lines of each of its blocks. */
    void prefetch_element(llvm::Value *base, llvm::Value *i, llvm::Value *n, const std::vector<Node> &tree, int64_t extent)
    {
        llvm::Value *elem = b_.CreateGEP(b_.getInt8Ty(), base,
                                         b_.CreateMul(ahead(i, steps_ahead(magnitude(extent)), n), b_.getInt64(extent)));
        for (const Node &node : tree) {
            for (uint64_t k = 0; node.packed != 0 && k < node.count; ++k)
                prefetch_lines(mem_gep(elem, node.disp + static_cast<int64_t>(k) * node.stride), node.blocklen);
        }
    }

    /* Iteration k + distance of a loop of `trip`, or k itself past the end. */
    llvm::Value *ahead(llvm::Value *k, uint64_t distance, llvm::Value *trip)
    {
        llvm::Value *next = b_.CreateAdd(k, b_.getInt64(distance));
        return b_.CreateSelect(b_.CreateICmpULT(next, trip), next, k);
    }

    /* Asks for writing exactly the lines of `len` bytes at `block`. */
    void prefetch_lines(llvm::Value *block, uint64_t len)
    {
        llvm::Function *prefetch = llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::prefetch, {b_.getInt8PtrTy()});
        const auto line_of = [&](uint64_t at) {
            /* llvm.prefetch(address, write, locality 3: keep, data cache) */
            b_.CreateCall(prefetch, {mem_gep(block, static_cast<int64_t>(at)), b_.getInt32(1), b_.getInt32(3), b_.getInt32(1)});
        };
        for (uint64_t at = 0; at < len; at += kLine)
            line_of(at);
        if ((len - 1) % kLine != 0)
            line_of(len - 1); /* its last byte's: one line more when the block starts mid-line */
    }

    /* One unaligned piece of `type` between the user buffer (`mem`) and the stream (`out`), in the plan's
     * direction. */
    void move(llvm::Type *type, llvm::Value *mem, llvm::Value *out, bool is_volatile)
    {
        llvm::Value *src = packing_ ? mem : out;
        llvm::Value *dst = packing_ ? out : mem;
        llvm::Value *piece = b_.CreateAlignedLoad(type, src, llvm::MaybeAlign(1), is_volatile);
        b_.CreateAlignedStore(piece, dst, llvm::MaybeAlign(1), is_volatile);
    }

    /* `len` bytes as a counted loop of 32-byte moves, then the rest straight. */
    void copy_loop(llvm::Value *mem, llvm::Value *out, uint64_t len)
    {
        constexpr uint64_t kPiece = 32;
        llvm::Type *type = llvm::FixedVectorType::get(b_.getInt8Ty(), kPiece);
        llvm::Type *ptr = type->getPointerTo();
        counted(len / kPiece, [&](llvm::Value *k) {
            llvm::Value *at = b_.CreateMul(k, b_.getInt64(kPiece));
            move(type, b_.CreateBitCast(b_.CreateGEP(b_.getInt8Ty(), mem, at), ptr),
                 b_.CreateBitCast(b_.CreateInBoundsGEP(b_.getInt8Ty(), out, at), ptr), false);
        });
        const uint64_t done = len - len % kPiece;
        if (done != len)
            copy(mem_gep(mem, static_cast<int64_t>(done)), gep(out, static_cast<int64_t>(done)), len - done);
    }

    llvm::LLVMContext &ctx_;
    llvm::Module &module_;
    llvm::IRBuilder<> b_;
    bool packing_;
    bool paced_;
    llvm::Function *fn_ = nullptr;
};

} // namespace

bool has_paced_unpack(const std::vector<Node> &tree, uint64_t size, int64_t extent)
{
    return any_node(tree, [](const Node &n) { return paced_pieces(n) || prefetched(n); }) ||
           prefetched_elements(tree, size, extent);
}

bool has_paced_pack(const std::vector<Node> &tree)
{
    return any_node(tree, paced_pack_pieces);
}

std::unique_ptr<llvm::Module> codegen_module(llvm::LLVMContext &ctx, const std::vector<Node> &tree, uint64_t size,
                                             int64_t extent, const FunctionNames &names)
{
    auto module = std::make_unique<llvm::Module>("tessera_dte_jit", ctx);
    const auto emit = [&](const std::string &name, bool packing, bool paced) {
        if (!name.empty())
            Emitter(ctx, *module, packing, paced).function(name, tree, size, extent);
    };
    emit(names.pack, true, false);
    emit(names.unpack, false, false);
    emit(names.pack_paced, true, true);
    emit(names.unpack_paced, false, true);
    return module;
}

} // namespace tessera::ompi::dte_jit
