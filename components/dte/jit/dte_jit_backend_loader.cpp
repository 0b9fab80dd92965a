/*
 * dte jit: finding and loading the LLVM library on the first compile request (dte_jit_backend.h).
 *
 * Loading happens in a thread of its own, started by that request: mapping libLLVM takes tens of
 * milliseconds, which MPI_Type_commit (where the first request comes from) must not wait for. Types
 * submitted meanwhile wait in a list (held weakly, like the compile queue) and go to the compile thread
 * once it runs; their plans interpret until then.
 *
 * The library sits beside this component's DSO (found with dladdr, so the build tree and an installed
 * tree both work). A program that links the library itself (the engine's unit test) already has the
 * entry point, and that one is used. Once loaded the library stays: LLVM's static state and the
 * compiled code of live types must not be unmapped under them, so closing the component only stops the
 * compile thread.
 */
#include <dlfcn.h>
#include <ltdl.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "components/dte/jit/dte_jit_backend.h"

namespace tessera::ompi::dte_jit {
namespace {

std::mutex loader_mutex;
bool enabled = false;                /* between component open and close */
bool started = false;                /* the backend's compile thread runs */
bool settled = false;                /* this open's loading is over: started, or it failed */
const Backend *loaded = nullptr;     /* once found, for the life of the process (written by the loader) */
std::string load_problem;            /* why it could not be loaded (said once; written by the loader) */
/* Loads and starts the backend; joined by compiler_stop. A plain pointer: a process that exits without
 * MPI_Finalize must not meet a joinable std::thread in a static destructor (that terminates it). */
std::thread *loader = nullptr;
std::vector<std::weak_ptr<CodeEntry>> waiting; /* submitted while the loader works */

std::string own_directory()
{
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&compiler_submit), &info) == 0 || info.dli_fname == nullptr)
        return ".";
    const std::string path = info.dli_fname;
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

const Backend *check(const Backend *b, const std::string &where)
{
    if (b == nullptr) {
        load_problem = where + " has no backend table";
        return nullptr;
    }
    if (b->abi != kBackendAbi) {
        load_problem = where + " was built from another version of Tessera (ABI tag mismatch)";
        return nullptr;
    }
    return b;
}

const Backend *find_backend()
{
    using entry_fn = const Backend *(*)();
    if (auto *linked = reinterpret_cast<entry_fn>(dlsym(RTLD_DEFAULT, kTesseraDteJitBackendSymbol)))
        return check(linked(), "the program's own LLVM backend");
    if (lt_dlinit() != 0) {
        load_problem = std::string("libltdl could not start: ") + lt_dlerror();
        return nullptr;
    }
    const std::string path = own_directory() + "/" + kTesseraDteJitBackendLibrary;
    lt_dlhandle handle = lt_dlopenext(path.c_str());
    if (handle == nullptr) {
        load_problem = "cannot load " + path + ".so: " + lt_dlerror();
        return nullptr;
    }
    auto entry = reinterpret_cast<entry_fn>(lt_dlsym(handle, kTesseraDteJitBackendSymbol));
    if (entry == nullptr) {
        load_problem = path + ".so has no symbol " + kTesseraDteJitBackendSymbol;
        lt_dlclose(handle);
        return nullptr;
    }
    return check(entry(), path + ".so");
}

void fail(CodeEntry &entry);

/* dte_jit_unbind: this thread, and the compile thread it starts (which inherits its CPUs), may run on
 * any CPU. A rank bound to one core would otherwise time-share it with its own compiles. Best effort:
 * where a cpuset forbids it the thread stays where it may run. */
void unbind_thread()
{
    const long cpus = sysconf(_SC_NPROCESSORS_CONF);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c)
        CPU_SET(static_cast<int>(c), &set);
    (void)sched_setaffinity(0, sizeof set, &set);
}

/* The loader thread: finds the library (once per process) and starts its compile thread, then hands it
 * the types that waited. Only this thread writes `loaded` and `load_problem`, outside the lock while
 * it maps the library, so that submitters never wait for that. */
void load()
{
    if (params.unbind)
        unbind_thread();
    const Backend *b = nullptr;
    {
        std::lock_guard lock(loader_mutex);
        b = loaded;
    }
    if (b == nullptr && load_problem.empty()) {
        b = find_backend();
        if (b == nullptr)
            std::fprintf(stderr, "dte jit: types stay interpreted: %s\n", load_problem.c_str());
    }
    std::vector<std::weak_ptr<CodeEntry>> ready;
    bool running = false;
    {
        std::lock_guard lock(loader_mutex);
        loaded = b;
        if (b != nullptr && enabled) {
            if (b->start(&params) == TESSERA_SUCCESS) {
                running = started = true;
            } else if (params.verbose > 0) {
                std::fprintf(stderr, "dte jit: types stay interpreted: LLVM has no target for this host\n");
            }
        }
        settled = true;
        ready.swap(waiting);
    }
    for (const auto &weak : ready) {
        if (auto entry = weak.lock()) {
            if (running)
                b->submit(entry); /* after a concurrent close the backend fails it: its waiters wake */
            else
                fail(*entry);
        }
    }
}

void fail(CodeEntry &entry)
{
    std::lock_guard lock(entry.mutex);
    entry.done = true;
    entry.failed = true;
    entry.cv.notify_all();
}

/* A load still running when the process exits (or this DSO is unloaded) without the component's close
 * would run on in a dying process, against this file's statics. A static made at the first load: it is
 * destroyed before the statics made earlier, and at this DSO's unloading. Not std::atexit: called from
 * a DSO, a ThreadSanitizer build binds it to the runtime's interceptor, which forgets the DSO and runs
 * the function at exit, after the DSO is gone. */
struct LoaderJoin {
    LoaderJoin() = default;
    LoaderJoin(const LoaderJoin &) = delete;
    LoaderJoin &operator=(const LoaderJoin &) = delete;
    ~LoaderJoin()
    {
        std::thread *loading = nullptr;
        {
            std::lock_guard lock(loader_mutex);
            std::swap(loading, loader);
        }
        if (loading != nullptr) {
            loading->join();
            delete loading;
        }
    }
};

} // namespace

int compiler_start()
{
    std::lock_guard lock(loader_mutex);
    enabled = true;
    return TESSERA_SUCCESS;
}

void compiler_stop()
{
    std::thread *loading = nullptr;
    {
        std::lock_guard lock(loader_mutex);
        enabled = false;
        std::swap(loading, loader);
    }
    if (loading != nullptr) {
        loading->join(); /* a load in progress finishes first; the types it hands over end failed */
        delete loading;
    }
    const Backend *b = nullptr;
    {
        std::lock_guard lock(loader_mutex);
        if (started)
            b = loaded;
        started = false;
        settled = false;
    }
    if (b != nullptr)
        b->stop(); /* joins outside the lock: a compile in flight finishes first */
}

void compiler_submit(const std::shared_ptr<CodeEntry> &entry)
{
    if (entry->requested.exchange(true))
        return;
    const Backend *b = nullptr;
    {
        std::lock_guard lock(loader_mutex);
        if (enabled && !settled) {
            waiting.push_back(entry);
            if (loader == nullptr) {
                static const LoaderJoin joined_at_exit;
                loader = new std::thread(load);
            }
            return;
        }
        if (enabled && started)
            b = loaded;
    }
    if (b != nullptr)
        b->submit(entry);
    else
        fail(*entry);
}

} // namespace tessera::ompi::dte_jit
