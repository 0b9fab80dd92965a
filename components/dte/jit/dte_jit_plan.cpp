/*
 * dte jit: the plan. It works from the moment it is created: until the type's compiled code is
 * published it serves every byte range through the shared interpreter program; afterwards the whole
 * elements of a range go through the compiled functions and only a partial first or last element (the
 * btl cuts fragments anywhere) through the program.
 */
#include <cstdio>
#include <new>

#include "components/dte/jit/dte_jit.h"
#include "frameworks/dte/base/dte_base_program.h"

extern "C" const mca_dte_base_component_t mca_dte_jit_component;

namespace tessera::ompi::dte_jit {
namespace {

constexpr size_t kMaxElems = 1024;

struct JitPlan {
    mca_dte_plan_t plan{}; /* first: the framework sees only this */
    mca_dte_base_program_t *program = nullptr;
    /* Shared with equal types and with a compile in flight, so releasing the plan never races it. */
    std::shared_ptr<CodeEntry> code;
    uint64_t size = 0;
    mutable std::atomic<int64_t> uses_left{0}; /* dte_jit_compile=uses: packs/unpacks before compiling */

    ~JitPlan() { mca_dte_base_program_free(program); }
};

const JitPlan *jit_plan(const mca_dte_plan_t *plan) { return reinterpret_cast<const JitPlan *>(plan); }

/* Counts a use of `bytes` while the code is not there; the use that reaches dte_jit_compile_after, or
 * dte_jit_compile_bytes, queues it (dte_jit_compile=uses). The bytes also rank it in the queue. */
void count_use(const JitPlan *p, size_t bytes)
{
    if (!p->code)
        return; /* interpreted for good */
    const uint64_t moved = p->code->interpreted.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    auto &left = p->uses_left;
    if (left.load(std::memory_order_relaxed) <= 0)
        return;
    if (left.fetch_sub(1, std::memory_order_relaxed) == 1 || (params.compile_bytes > 0 && moved >= params.compile_bytes))
        compiler_submit(p->code); /* once: the entry remembers it was requested */
}

/*
 * Splits [offset, offset + length) into a partial head element, whole elements and a partial tail, and
 * calls `program` for the partial parts and `compiled` for the whole elements.
 */
template <class Program, class Compiled>
int split(const JitPlan *p, size_t count, size_t offset, size_t length, Program &&program, Compiled &&compiled)
{
    const uint64_t size = p->size;
    if (length == 0 || size == 0 || offset + length > count * size)
        return program(offset, length, 0);
    size_t done = 0;
    if (offset % size != 0) {
        const size_t head = std::min<size_t>(length, size - offset % size);
        if (int rc = program(offset, head, 0); rc != TESSERA_SUCCESS)
            return rc;
        done = head;
    }
    const size_t whole = (length - done) / size;
    if (whole > 0) {
        compiled((offset + done) / size, whole, done);
        done += whole * size;
    }
    if (done < length)
        return program(offset + done, length - done, done);
    return TESSERA_SUCCESS;
}

/* The code for n whole elements: the paced one when it exists and the call touches more than the cache
 * holds (CodeEntry::paced_above), else `plain`. */
template <class Fn>
Fn choose(const JitPlan *p, const std::atomic<Fn> &paced_code, Fn plain, uint64_t n)
{
    const Fn paced = paced_code.load(std::memory_order_acquire);
    if (paced == nullptr)
        return plain;
    const int64_t extent = p->code->extent;
    const uint64_t touched_per_element = p->size + static_cast<uint64_t>(extent < 0 ? -extent : extent);
    return n * touched_per_element > p->code->paced_above ? paced : plain;
}

int pack(const mca_dte_plan_t *plan, const void *buf, size_t count, size_t offset, void *out, size_t length)
{
    const JitPlan *p = jit_plan(plan);
    const pack_fn_t fn = p->code ? p->code->pack.load(std::memory_order_acquire) : nullptr;
    if (fn == nullptr) {
        count_use(p, length);
        return mca_dte_base_program_pack(p->program, buf, count, offset, out, length);
    }
    auto *dst = static_cast<char *>(out);
    return split(
        p, count, offset, length,
        [&](size_t off, size_t len, size_t at) {
            return mca_dte_base_program_pack(p->program, buf, count, off, dst + at, len);
        },
        [&](uint64_t first, uint64_t n, size_t at) {
            choose(p, p->code->pack_paced, fn, n)(static_cast<const char *>(buf), first, n, dst + at);
        });
}

int unpack(const mca_dte_plan_t *plan, void *buf, size_t count, size_t offset, const void *in, size_t length)
{
    const JitPlan *p = jit_plan(plan);
    /* The compiler stores unpack, then pack with release: seeing pack (acquire) means unpack is there. */
    const unpack_fn_t fn = p->code && p->code->ready() ? p->code->unpack.load(std::memory_order_relaxed) : nullptr;
    if (fn == nullptr) {
        count_use(p, length);
        return mca_dte_base_program_unpack(p->program, buf, count, offset, in, length);
    }
    auto *src = static_cast<const char *>(in);
    return split(
        p, count, offset, length,
        [&](size_t off, size_t len, size_t at) {
            return mca_dte_base_program_unpack(p->program, buf, count, off, src + at, len);
        },
        [&](uint64_t first, uint64_t n, size_t at) {
            choose(p, p->code->unpack_paced, fn, n)(static_cast<char *>(buf), first, n, src + at);
        });
}

void release(mca_dte_plan_t *plan)
{
    delete reinterpret_cast<JitPlan *>(plan);
}

} // namespace

int plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan)
{
    static_assert(offsetof(JitPlan, plan) == 0);
    /* A contiguous type is one memcpy in the interpreter already: compiling it would gain nothing. A very
     * long description (an indexed type of thousands of blocks) would be as long in code, take seconds of
     * a core to compile and gain little over the interpreter's merged runs. Such types get a plan that
     * only interprets, below interp's priority: interp serves them when it is there, and `--mca dte jit`
     * alone still commits every type. */
    auto p = std::unique_ptr<JitPlan>(new (std::nothrow) JitPlan);
    if (!p)
        return TESSERA_ERR_OUT_OF_RESOURCE;
    /* The program first: it validates the description (balance, depth, sizes) for both engines. */
    if (int rc = mca_dte_base_program_create(type, &p->program); rc != TESSERA_SUCCESS)
        return rc;
    bool hit = false;
    const bool compile = (type->flags & MCA_DTE_TYPE_CONTIGUOUS) == 0 && type->elem_count <= kMaxElems;
    if (compile)
        p->code = cache_acquire(type, &hit); /* null: a description we cannot compile */
    p->size = type->size;
    p->plan.plan_component = &mca_dte_jit_component;
    p->plan.plan_priority = p->code ? params.priority : 0;
    p->plan.plan_pack = pack;
    p->plan.plan_unpack = unpack;
    p->plan.plan_release = release;
    p->plan.plan_state = p.get();

    if (!p->code) {
        /* interpreted only */
    } else if (hit && p->code->ready()) {
        if (params.verbose > 0)
            std::fprintf(stderr, "dte jit: type %s ready 0.0 ms (compile %.1f ms, cached)\n",
                         short_hash(p->code->hash).c_str(), p->code->compile_ms);
    } else if (params.compile == kCompileUses && params.compile_after > 0) {
        p->uses_left.store(params.compile_after, std::memory_order_relaxed);
    } else {
        compiler_submit(p->code);
        if (params.compile == kCompileSync)
            p->code->wait_done(std::chrono::seconds(60)); /* failed code leaves the type interpreted */
    }
    *plan = &p.release()->plan;
    return TESSERA_SUCCESS;
}

std::shared_ptr<CodeEntry> plan_code(const mca_dte_plan_t *plan)
{
    return jit_plan(plan)->code;
}

} // namespace tessera::ompi::dte_jit
