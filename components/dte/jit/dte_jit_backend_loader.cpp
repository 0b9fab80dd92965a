/*
 * dte jit: finding and loading the LLVM library on the first compile request (dte_jit_backend.h).
 *
 * The library sits beside this component's DSO (found with dladdr, so the build tree and an installed
 * tree both work). A program that links the library itself (the engine's unit test) already has the
 * entry point, and that one is used. Once loaded the library stays: LLVM's static state and the
 * compiled code of live types must not be unmapped under them, so closing the component only stops the
 * compile thread.
 */
#include <dlfcn.h>
#include <ltdl.h>

#include <cstdio>
#include <mutex>
#include <string>

#include "components/dte/jit/dte_jit_backend.h"

namespace tessera::ompi::dte_jit {
namespace {

std::mutex loader_mutex;
bool enabled = false;                /* between component open and close */
bool started = false;                /* the backend's compile thread runs */
const Backend *loaded = nullptr;     /* once found, for the life of the process */
std::string load_problem;            /* why it could not be loaded (said once) */

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

/* The running backend, loading and starting it on first use; nullptr when compiling is off or impossible. */
const Backend *running_backend()
{
    std::lock_guard lock(loader_mutex);
    if (!enabled)
        return nullptr;
    if (started)
        return loaded;
    if (loaded == nullptr && load_problem.empty()) {
        loaded = find_backend();
        if (loaded == nullptr)
            std::fprintf(stderr, "dte jit: types stay interpreted: %s\n", load_problem.c_str());
    }
    if (loaded == nullptr)
        return nullptr;
    if (const int rc = loaded->start(&params); rc != TESSERA_SUCCESS) {
        if (params.verbose > 0)
            std::fprintf(stderr, "dte jit: types stay interpreted: LLVM has no target for this host\n");
        return nullptr;
    }
    started = true;
    return loaded;
}

void fail(CodeEntry &entry)
{
    std::lock_guard lock(entry.mutex);
    entry.done = true;
    entry.failed = true;
    entry.cv.notify_all();
}

} // namespace

int compiler_start()
{
    std::lock_guard lock(loader_mutex);
    enabled = true;
    return TESSERA_SUCCESS;
}

void compiler_stop()
{
    const Backend *b = nullptr;
    {
        std::lock_guard lock(loader_mutex);
        enabled = false;
        if (started)
            b = loaded;
        started = false;
    }
    if (b != nullptr)
        b->stop(); /* joins outside the lock: a compile in flight finishes first */
}

void compiler_submit(const std::shared_ptr<CodeEntry> &entry)
{
    if (entry->requested.exchange(true))
        return;
    if (const Backend *b = running_backend())
        b->submit(entry);
    else
        fail(*entry);
}

} // namespace tessera::ompi::dte_jit
