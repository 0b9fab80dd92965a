/*
 * dte jit: the LLVM engine's internals. A committed type gets a plan at once that packs through
 * the shared interpreter program (frameworks/dte/base/dte_base_program.h); its description is compiled
 * in a background thread into native pack/unpack functions of whole elements, which the plan switches to
 * when they are published. Compiled code is cached by type signature and shared by equal types.
 *
 * No LLVM header is included here: only the codegen and compiler files pay for them (they dominate
 * build time), and the plan, cache and component files stay plain C++.
 */
#ifndef TESSERA_COMPONENTS_DTE_JIT_DTE_JIT_H
#define TESSERA_COMPONENTS_DTE_JIT_DTE_JIT_H

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frameworks/dte/dte.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tessera::ompi::dte_jit {

/* dte_jit_opt */
enum OptLevel : int { kOptNone = 0, kOptFast = 1, kOptFull = 2 };
/* dte_jit_compile */
enum CompileMode : int { kCompileBackground = 0, kCompileUses = 1, kCompileSync = 2 };

/* The component's parameters (registered in dte_jit_component.cpp; tests set them directly). */
struct Params {
    int priority = 20; /* above interp's 10: compiled code wins once a type has it */
    int opt = kOptFast;
    int compile = kCompileBackground;
    int compile_after = 16;
    /* dte_jit_compile_bytes: bytes a type's plans pack or unpack through the interpreter before it is
     * queued (dte_jit_compile=uses) or moved ahead of the types queued before it; 0: neither. */
    size_t compile_bytes = size_t{1} << 20;
    /* dte_jit_unbind: the loading and compiling threads may run on any CPU, not only the process's. */
    bool unbind = true;
    int verbose = 0;
    /* dte_jit_paced_above: a pack or unpack touching more bytes (user buffer span plus packed bytes)
     * uses the paced code; 0: this host's L2 cache size. */
    size_t paced_above = 0;
    /* dte_jit_avx512: let the compiled code use AVX-512 where the host has it. */
    bool avx512 = false;
};
extern Params params;

/* Compiled code of whole elements: element i lives at buf + i * extent, its packed bytes at
 * out + (i - first) * size. */
using pack_fn_t = void (*)(const char *buf, uint64_t first_element, uint64_t n, char *out);
using unpack_fn_t = void (*)(char *buf, uint64_t first_element, uint64_t n, const char *in);

/* A description parsed into a tree (loops hold their bodies). */
struct Node {
    bool loop = false;
    uint64_t count = 0;
    uint64_t blocklen = 0; /* blocks */
    int64_t disp = 0;      /* blocks */
    int64_t stride = 0;
    uint64_t packed = 0; /* packed bytes of the whole node (all its blocks or iterations) */
    std::vector<Node> body;
};

/* The tree of a description, or false when it is malformed (unbalanced loops, items not matching). */
bool parse_description(const mca_dte_elem_t *elems, size_t count, std::vector<Node> *out);

/* Whether the paced unpack differs from the unpack (dte_jit_codegen.cpp): strided blocks
 * of a cache line or less, in 8-byte pieces, loops of at least 4 blocks up to 1 KiB, whose lines it asks
 * for ahead, and elements of a few such blocks spread over twice their size, asked for ahead likewise. */
bool has_paced_unpack(const std::vector<Node> &tree, uint64_t size, int64_t extent);
/* Whether the paced pack differs from the pack: strided blocks of 17 bytes up to a cache line, which it
 * reads in 16-byte pieces instead of 32-byte ones, or shorter than 16 bytes and a line or more apart,
 * which it reads by scalar loads instead of gathers. */
bool has_paced_pack(const std::vector<Node> &tree);

/* The functions of a module, in this order; an empty name is not generated. */
struct FunctionNames {
    std::string pack, unpack, pack_paced, unpack_paced;
};
/* A fresh module of `ctx` (dte_jit_codegen.cpp) with the functions named. */
std::unique_ptr<llvm::Module> codegen_module(llvm::LLVMContext &ctx, const std::vector<Node> &tree, uint64_t size,
                                             int64_t extent, const FunctionNames &names);

/*
 * The compiled code of one type signature, shared by every plan of an equal type. Plans read the
 * function pointers with acquire loads; the compiler publishes them with release stores, so a plan sees
 * either nothing (and interprets) or complete code.
 */
struct CodeEntry {
    std::string key;   /* the serialized description with size and extent */
    uint64_t hash = 0; /* FNV-1a of the key: the short name in messages */
    std::vector<Node> tree;
    uint64_t size = 0;
    int64_t extent = 0;
    std::chrono::steady_clock::time_point created; /* creation of the first plan that asked for it */

    std::atomic<pack_fn_t> pack{nullptr};
    std::atomic<unpack_fn_t> unpack{nullptr};
    /* The paced pack and unpack (NULL: the type has none, or not yet: they are compiled after pack and
     * unpack are published), and the bytes a call touches above which they serve (written before them). */
    std::atomic<pack_fn_t> pack_paced{nullptr};
    std::atomic<unpack_fn_t> unpack_paced{nullptr};
    uint64_t paced_above = 0;
    std::atomic<bool> requested{false}; /* queued for compiling (once) */
    std::atomic<uint64_t> interpreted{0}; /* bytes its plans moved through the interpreter (until compiled) */
    double compile_ms = 0;              /* of pack and unpack, written before they are published */
    double ready_ms = 0;                /* from `created` to their publication */

    /* Keeps the code in the JIT; dropping it removes the code (and keeps the JIT alive until then). */
    std::shared_ptr<void> code;

    /* Waiters (tests, a benchmark) for the end of compiling, successful or not. */
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    bool failed = false;

    bool ready() const { return pack.load(std::memory_order_acquire) != nullptr; }
    /* True when compiled code is published before `timeout`. */
    bool wait_done(std::chrono::milliseconds timeout);
};

/* The serialized signature of a type; equal for equal descriptions, sizes and extents. */
std::string signature_key(const mca_dte_type_desc_t *type);
uint64_t signature_hash(const std::string &key);

/*
 * The entry for a type's signature: an existing one (*hit = true) while any plan or compile still holds
 * it, else a new one. nullptr when the description is malformed.
 */
std::shared_ptr<CodeEntry> cache_acquire(const mca_dte_type_desc_t *type, bool *hit);
/* Live entries (tests). */
size_t cache_size();

/*
 * The background compiler. LLVM lives in a library of its own, libtessera_dte_jit_llvm.so beside this
 * component's DSO (dte_jit_backend.h): opening the component costs nothing, and the library (with
 * libLLVM, ~50 MiB and ~20 ms to map) is loaded by the first compile request, so a process that never
 * commits a derived type never maps LLVM (dte_jit_backend_loader.cpp).
 */
/* Enables compiling (component open); cheap, loads nothing. */
int compiler_start();
/* Stops and joins the compile thread if one runs, dropping queued work (component close); code already
 * compiled stays valid until its last entry goes. */
void compiler_stop();
/* Queues an entry unless already requested, loading the LLVM library on the first request; the queue
 * holds it weakly, so a type freed before its turn costs no compile. An entry that cannot be compiled
 * (no library, no target for this host) is marked done and failed: its plans keep interpreting. */
void compiler_submit(const std::shared_ptr<CodeEntry> &entry);

/* Plans (dte_jit_plan.cpp). */
int plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan);
/* The code entry behind a jit plan (tests). */
std::shared_ptr<CodeEntry> plan_code(const mca_dte_plan_t *plan);

/* "1a2b3c4d": the short signature hash printed by dte_jit_verbose. */
inline std::string short_hash(uint64_t hash)
{
    char text[9];
    std::snprintf(text, sizeof text, "%08" PRIx32, static_cast<uint32_t>(hash ^ (hash >> 32)));
    return text;
}

} // namespace tessera::ompi::dte_jit

#endif
