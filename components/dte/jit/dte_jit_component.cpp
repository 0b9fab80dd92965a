/* dte jit: registration, open/close and query. Opening initializes LLVM's native target (once per
 * process) and starts the compile thread; closing joins it. The LLJIT instance itself is created by that
 * thread on its first type, so that opening the component costs no compile-sized delay. */
#include "components/dte/jit/dte_jit.h"
#include "mca/var.h"

namespace tessera::ompi::dte_jit {

Params params;

namespace {

const mca_var_enum_value_t opt_values[] = {
    {kOptNone, "none"}, {kOptFast, "fast"}, {kOptFull, "full"}, {0, nullptr}};
const mca_var_enum_value_t compile_values[] = {
    {kCompileBackground, "background"}, {kCompileUses, "uses"}, {kCompileSync, "sync"}, {0, nullptr}};

int register_params(const mca_base_component_t *)
{
    params = Params{};
    const mca_var_decl_t vars[] = {
        {"priority", "Priority of jit plans among the dte engines (interp: 10); the highest serves a type",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.priority},
        {"opt",
         "Optimization of compiled pack code: fast (O3 without loop unrolling and interleaving, ~6 ms a type), "
         "full (O3, ~38 ms), none",
         MCA_VAR_TYPE_ENUM, opt_values, MCA_INFO_LVL_5, &params.opt},
        {"compile",
         "When to compile a type: background (right after MPI_Type_commit) or uses (after dte_jit_compile_after "
         "packs/unpacks), the interpreter serving it until then; or sync (MPI_Type_commit waits for the compiled "
         "code: for tests and debugging, a commit then takes milliseconds)",
         MCA_VAR_TYPE_ENUM, compile_values, MCA_INFO_LVL_5, &params.compile},
        {"compile_after", "Packs and unpacks of a type before it is compiled when dte_jit_compile=uses",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_5, &params.compile_after},
        {"compile_bytes",
         "Bytes a type may move through the interpreter before it is compiled when dte_jit_compile=uses (or "
         "dte_jit_compile_after uses, whichever comes first), and, queued, before it is compiled ahead of the "
         "types queued before it (the one carrying the data first); 0: neither",
         MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.compile_bytes},
        {"unbind",
         "Let the threads that load LLVM and compile run on any CPU rather than only those the process is bound "
         "to: a rank bound to one core otherwise shares it with its own compiles, which then take twice as long "
         "and halve its packing meanwhile",
         MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_5, &params.unbind},
        {"paced_above",
         "Bytes a pack or unpack may touch (the user buffer's span plus the packed bytes) before the compiled "
         "code copies strided blocks of 64 bytes or less in narrower pieces (packing: 16 bytes, or scalar loads "
         "for blocks under 16 bytes a line or more apart; unpacking: 8 bytes) and the unpack asks for the lines "
         "of strided blocks (or sparse elements) ahead, which moves lines that miss the cache faster here; 0: "
         "this host's L2 cache size (hwloc), 1M when unknown",
         MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_5, &params.paced_above},
        {"avx512",
         "Let the compiled code use AVX-512 where the host has it (512-bit vectors, scatters, gathers); off: "
         "AVX2 at most. LLVM 14 rates AVX-512 scatters and gathers as cheap on every processor, and they copy "
         "strided data slower than scalar code (a double resized to 4 bytes packs at 23 GB/s with them, 40 "
         "without, on an AMD EPYC)",
         MCA_VAR_TYPE_BOOL, nullptr, MCA_INFO_LVL_5, &params.avx512},
        {"verbose",
         "1: print a line per type to stderr when its compiled code is ready (time since commit, compile time); "
         "2: also the optimized IR",
         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_9, &params.verbose},
    };
    return mca_var_register_table("dte", "jit", vars, sizeof vars / sizeof vars[0], MCA_VAR_SCOPE_LOCAL);
}

int open_component()
{
    return compiler_start(); /* TESSERA_ERR_NOT_AVAILABLE when LLVM has no target for this host */
}

int close_component()
{
    compiler_stop();
    return TESSERA_SUCCESS;
}

int query(void **module, int *priority)
{
    *module = nullptr; /* plans come from dte_plan_create, per type */
    *priority = params.priority;
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::ompi::dte_jit

using namespace tessera::ompi::dte_jit;

extern "C" const mca_dte_base_component_t mca_dte_jit_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_dte_base_component_t, "dte", MCA_DTE_BASE_VERSION, "jit", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = MCA_BASE_COMPONENT_FLAG_REQUIRE_THREADS,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .dte_plan_create = plan_create,
    .reserved = {},
};
