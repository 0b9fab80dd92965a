/*
 * dte jit: the interface between the component (plans, cache: plain C++) and the library that holds
 * LLVM (libtessera_dte_jit_llvm.so: codegen and the compile thread). The component loads the library
 * on its first compile request and reaches it only through this table, so the component's DSO has no
 * LLVM dependency and nothing of LLVM is mapped before a derived type is committed.
 *
 * Both sides are built from the same tree and exchange C++ objects (CodeEntry, Params); the ABI tag
 * refuses a library from another build whose layouts may differ.
 */
#ifndef TESSERA_COMPONENTS_DTE_JIT_DTE_JIT_BACKEND_H
#define TESSERA_COMPONENTS_DTE_JIT_DTE_JIT_BACKEND_H

#include <cstdint>
#include <memory>

#include "components/dte/jit/dte_jit.h"

namespace tessera::ompi::dte_jit {

/* Changes whenever the table or the shared structures change shape. */
inline constexpr uint64_t kBackendAbi = (uint64_t{1} << 48) | (sizeof(CodeEntry) << 24) | (sizeof(Params) << 8);

struct Backend {
    uint64_t abi;
    /* Initializes LLVM's native target and starts the compile thread, which reads `params` (live: a
     * changed dte_jit_opt applies to the next engine). TESSERA_ERR_NOT_AVAILABLE when LLVM has no target
     * for this host. Idempotent. */
    int (*start)(const Params *params);
    /* Joins the compile thread, dropping queued work (those entries end failed). */
    void (*stop)();
    /* Queues an entry; the caller has set entry->requested. */
    void (*submit)(const std::shared_ptr<CodeEntry> &entry);
};

} // namespace tessera::ompi::dte_jit

/* The library's one entry point. */
extern "C" const tessera::ompi::dte_jit::Backend *tessera_dte_jit_backend(void);
inline constexpr const char *kTesseraDteJitBackendSymbol = "tessera_dte_jit_backend";
inline constexpr const char *kTesseraDteJitBackendLibrary = "libtessera_dte_jit_llvm";

#endif
