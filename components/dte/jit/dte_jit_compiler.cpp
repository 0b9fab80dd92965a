/*
 * dte jit: compiling in the background with ORC LLJIT.
 *
 * One thread per process does all LLVM work, so MPI_Type_commit never waits for it: it creates the
 * LLJIT instance on its first job (a few milliseconds nobody waits for), then for each queued type
 * generates IR, optimizes it for the host (JITTargetMachineBuilder::detectHost: AVX2 where the machine
 * has it; AVX-512 only with dte_jit_avx512), compiles it to native code and publishes the function
 * pointers in the type's cache entry.
 *
 * Optimization (dte_jit_opt): "fast" is the O3 pipeline with loop unrolling and interleaving off —
 * the vectorizer still runs, and a type compiles several times faster (docs/dte.md);
 * "full" is O3; "none" skips the IR pipeline.
 */
#include <cstdio>
#include <cstring>
#include <deque>
#include <thread>

#include "components/dte/jit/dte_jit_backend.h"
#include "ompi/tool/mpit_feed.h"
#include "opal/cache_sizes.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wredundant-move"
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/OptimizationLevel.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#pragma GCC diagnostic pop

namespace tessera::ompi::dte_jit {
namespace {

/* The component's parameters, handed over by start(). */
const Params *config = nullptr;

/* The JIT and the target machine used to optimize for it. Shared: compiled code holds it alive, so a
 * plan that outlives the compile thread still has valid code. */
struct Engine {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::unique_ptr<llvm::TargetMachine> machine;
};

std::shared_ptr<Engine> engine_create()
{
    auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!host) {
        llvm::consumeError(host.takeError());
        return nullptr;
    }
    host->setCodeGenOptLevel(config->opt == kOptNone ? llvm::CodeGenOpt::Less : llvm::CodeGenOpt::Default);
    if (!config->avx512)
        host->getFeatures().AddFeature("avx512f", false); /* and everything that implies it */
    auto machine = host->createTargetMachine();
    if (!machine) {
        llvm::consumeError(machine.takeError());
        return nullptr;
    }
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*host)).create();
    if (!jit) {
        llvm::consumeError(jit.takeError());
        return nullptr;
    }
    /* Large blocks are llvm.memcpy calls the backend may leave as calls: resolve exactly the C library
     * routines such code can need, rather than exposing every symbol of the process to it. */
    llvm::orc::SymbolMap libc;
    auto add = [&](const char *name, void *address) {
        libc[(*jit)->mangleAndIntern(name)] =
            llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address), llvm::JITSymbolFlags::Exported);
    };
    add("memcpy", reinterpret_cast<void *>(&::memcpy));
    add("memmove", reinterpret_cast<void *>(&::memmove));
    add("memset", reinterpret_cast<void *>(&::memset));
    if (auto err = (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(libc)))) {
        llvm::consumeError(std::move(err));
        return nullptr;
    }
    auto engine = std::make_shared<Engine>();
    engine->jit = std::move(*jit);
    engine->machine = std::move(*machine);
    return engine;
}

void optimize(llvm::Module &module, llvm::TargetMachine *machine, int level)
{
    if (level == kOptNone)
        return;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    tuning.LoopUnrolling = level == kOptFull;
    tuning.LoopInterleaving = level == kOptFull;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder builder(machine, tuning);
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, mam);
}

double ms_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

/* dte_jit_paced_above, or this host's L2 cache size (asked once, here in the compile thread: loading
 * the topology stays off the application's path), or 1 MiB when the topology does not say. */
uint64_t paced_threshold()
{
    if (config->paced_above != 0)
        return config->paced_above;
    static const uint64_t l2 = tessera::opal::cache_size(2).value_or(uint64_t{1} << 20);
    return l2;
}

/* Generates, optimizes and adds to the JIT a module of the entry's functions whose names are not empty
 * (codegen_module), and looks them up: *addresses in the order of FunctionNames, of those named;
 * *tracker holds the code. False on any LLVM error. */
bool add_module(const std::shared_ptr<Engine> &engine, const CodeEntry &entry, const FunctionNames &names,
                std::vector<uint64_t> *addresses, llvm::orc::ResourceTrackerSP *tracker)
{
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto module = codegen_module(*ctx, entry.tree, entry.size, entry.extent, names);
    module->setDataLayout(engine->machine->createDataLayout());
    module->setTargetTriple(engine->machine->getTargetTriple().str());
    for (llvm::Function &fn : *module) {
        /* The optimizer asks the function's subtarget for vector widths: name the host CPU on it. */
        fn.addFnAttr("target-cpu", engine->machine->getTargetCPU());
        fn.addFnAttr("target-features", engine->machine->getTargetFeatureString());
    }
    /* A bug in codegen must leave the type interpreted, not crash the optimizer. */
    if (llvm::verifyModule(*module, config->verbose > 0 ? &llvm::errs() : nullptr))
        return false;
    optimize(*module, engine->machine.get(), config->opt);
    if (config->verbose > 1)
        module->print(llvm::errs(), nullptr); /* what the vectorizer made of it */

    llvm::orc::LLJIT &jit = *engine->jit;
    *tracker = jit.getMainJITDylib().createResourceTracker();
    if (auto err = jit.addIRModule(*tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx)))) {
        llvm::consumeError(std::move(err));
        return false;
    }
    /* Native code is generated here, on lookup. */
    for (const std::string &name : {names.pack, names.unpack, names.pack_paced, names.unpack_paced}) {
        if (name.empty())
            continue;
        auto symbol = jit.lookup(name);
        if (!symbol) {
            llvm::consumeError(symbol.takeError());
            llvm::consumeError((*tracker)->remove());
            return false;
        }
        addresses->push_back(symbol->getAddress());
    }
    return true;
}

/* Compiles an entry's pack and unpack and publishes them; false on any LLVM error (the type then stays
 * interpreted). */
bool compile(const std::shared_ptr<Engine> &engine, CodeEntry &entry)
{
    static std::atomic<uint64_t> serial{0};
    const auto start = std::chrono::steady_clock::now();
    const std::string id = std::to_string(serial.fetch_add(1));
    std::vector<uint64_t> code;
    llvm::orc::ResourceTrackerSP tracker;
    if (!add_module(engine, entry, {"tessera_dte_jit_pack_" + id, "tessera_dte_jit_unpack_" + id, "", ""}, &code,
                    &tracker))
        return false;
    entry.code = std::shared_ptr<void>(nullptr, [engine, tracker](void *) { llvm::consumeError(tracker->remove()); });
    entry.compile_ms = ms_since(start);
    entry.ready_ms = ms_since(entry.created);
    entry.unpack.store(reinterpret_cast<unpack_fn_t>(code[1]), std::memory_order_release);
    entry.pack.store(reinterpret_cast<pack_fn_t>(code[0]), std::memory_order_release);
    tessera_mpit_jit_compiled(entry.compile_ms / 1000.0, entry.size);
    return true;
}

/* Whether the entry has a paced pack or unpack (dte_jit.h). */
bool has_paced_code(const CodeEntry &entry)
{
    return has_paced_pack(entry.tree) || has_paced_unpack(entry.tree, entry.size, entry.extent);
}

/* Compiles and publishes the paced pack and unpack of an entry that has pack and unpack, those that
 * differ from them; a failure leaves the plain code serving. */
void compile_paced(const std::shared_ptr<Engine> &engine, CodeEntry &entry)
{
    static std::atomic<uint64_t> serial{0};
    const std::string id = std::to_string(serial.fetch_add(1));
    const bool pack = has_paced_pack(entry.tree);
    const bool unpack = has_paced_unpack(entry.tree, entry.size, entry.extent);
    std::vector<uint64_t> paced;
    llvm::orc::ResourceTrackerSP tracker;
    if (!add_module(engine, entry,
                    {"", "", pack ? "tessera_dte_jit_pack_paced_" + id : "",
                     unpack ? "tessera_dte_jit_unpack_paced_" + id : ""},
                    &paced, &tracker))
        return;
    /* The first module's holder goes on inside: plans may be running its code. */
    entry.code = std::shared_ptr<void>(nullptr, [first = entry.code, engine, tracker](void *) {
        llvm::consumeError(tracker->remove());
    });
    entry.paced_above = paced_threshold();
    if (pack)
        entry.pack_paced.store(reinterpret_cast<pack_fn_t>(paced[0]), std::memory_order_release);
    if (unpack)
        entry.unpack_paced.store(reinterpret_cast<unpack_fn_t>(paced.back()), std::memory_order_release);
}

class Compiler {
public:
    Compiler() : thread_([this] { run(); }) {}

    ~Compiler()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

    void submit(std::weak_ptr<CodeEntry> entry)
    {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(Job{std::move(entry), false});
        }
        cv_.notify_one();
    }

private:
    struct Job {
        std::weak_ptr<CodeEntry> entry;
        bool paced; /* the entry's paced code (dte_jit.h), after its pack and unpack */
    };

    /* The first type that has moved dte_jit_compile_bytes through the interpreter while it waited (the
     * one carrying the data, committed after many others), else the oldest job. The caller holds mutex_. */
    std::deque<Job>::iterator pick()
    {
        if (config->compile_bytes > 0) {
            for (auto it = queue_.begin(); it != queue_.end(); ++it) {
                if (it->paced)
                    continue;
                const auto entry = it->entry.lock();
                if (entry && entry->interpreted.load(std::memory_order_relaxed) >= config->compile_bytes)
                    return it;
            }
        }
        return queue_.begin();
    }

    void run()
    {
        std::shared_ptr<Engine> engine;
        bool engine_failed = false;
        for (;;) {
            std::shared_ptr<CodeEntry> entry;
            bool paced = false;
            {
                std::unique_lock lock(mutex_);
                cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
                if (stop_)
                    break;
                const auto job = pick();
                entry = job->entry.lock(); /* freed before its turn: nothing to do */
                paced = job->paced;
                queue_.erase(job);
            }
            if (!entry)
                continue;
            if (!engine && !engine_failed) {
                engine = engine_create();
                engine_failed = engine == nullptr;
            }
            bool ok = true;
            if (paced) {
                if (engine)
                    compile_paced(engine, *entry);
            } else {
                ok = engine && compile(engine, *entry);
                if (ok && config->verbose > 0)
                    std::fprintf(stderr, "dte jit: type %s ready %.1f ms (compile %.1f ms, compiled)\n",
                                 short_hash(entry->hash).c_str(), entry->ready_ms, entry->compile_ms);
                /* The paced code waits behind every type queued meanwhile: it never delays their
                 * switch to compiled code. The entry is done when it is. */
                if (ok && has_paced_code(*entry)) {
                    std::lock_guard lock(mutex_);
                    queue_.push_back(Job{entry, true});
                    continue;
                }
            }
            {
                std::lock_guard lock(entry->mutex);
                entry->done = true;
                entry->failed = !ok;
            }
            entry->cv.notify_all();
        }
        /* Entries still queued are dropped unfinished: wake whoever waits for them. */
        std::deque<Job> rest;
        {
            std::lock_guard lock(mutex_);
            rest.swap(queue_);
        }
        for (auto &job : rest) {
            if (auto entry = job.entry.lock()) {
                std::lock_guard lock(entry->mutex);
                entry->done = true;
                entry->failed = !entry->ready(); /* a paced job dropped: its pack and unpack serve */
                entry->cv.notify_all();
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Job> queue_;
    bool stop_ = false;
    std::thread thread_; /* last: starts after the members it uses exist */
};

std::mutex compiler_mutex;
/* A plain pointer: a process that exits without MPI_Finalize must not join the thread from a static
 * destructor (the exit path would wait on it); the component's close stops it. */
Compiler *compiler = nullptr;

bool llvm_initialize()
{
    static std::once_flag once;
    static bool ok = false;
    std::call_once(once, [] {
        ok = !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter();
    });
    return ok;
}

int start(const Params *params)
{
    if (!llvm_initialize())
        return TESSERA_ERR_NOT_AVAILABLE;
    std::lock_guard lock(compiler_mutex);
    config = params;
    if (!compiler)
        compiler = new Compiler;
    return TESSERA_SUCCESS;
}

void stop()
{
    Compiler *stopping = nullptr;
    {
        std::lock_guard lock(compiler_mutex);
        std::swap(stopping, compiler);
    }
    delete stopping; /* joins outside the lock: a compile in flight finishes first */
}

/* Entries that reach no compiler end failed, so that waiters wake and plans keep interpreting. */
void submit(const std::shared_ptr<CodeEntry> &entry)
{
    std::lock_guard lock(compiler_mutex);
    if (compiler) {
        compiler->submit(entry);
        return;
    }
    std::lock_guard entry_lock(entry->mutex);
    entry->done = true;
    entry->failed = true;
    entry->cv.notify_all();
}

const Backend backend = {kBackendAbi, start, stop, submit};

} // namespace
} // namespace tessera::ompi::dte_jit

extern "C" const tessera::ompi::dte_jit::Backend *tessera_dte_jit_backend(void)
{
    return &tessera::ompi::dte_jit::backend;
}
