// Lifetime of procs and their dynamic endpoint slots (proc.h, proc_table.h).
//
// The proc and its dynamic slots are malloc'ed C blocks: they are reached from C components through
// the inline accessors of proc.h, and tessera_proc_destroy() is the one place that frees them, for C
// callers and for ProcPtr alike.
#include "ompi/proc/proc.h"

#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <new>

#include "ompi/proc/endpoint_registry.h"
#include "ompi/proc/proc_table.h"

namespace {

tessera_proc_t *create_proc(tessera_proc_name_t name, const char *hostname, std::size_t hostname_len,
                            std::uint32_t flags) noexcept
{
    auto *proc = static_cast<tessera_proc_t *>(std::calloc(1, sizeof(tessera_proc_t)));
    if (proc == nullptr) {
        return nullptr;
    }
    proc->proc_name = name;
    proc->proc_flags = flags;
    if (hostname != nullptr) {
        auto *copy = static_cast<char *>(std::malloc(hostname_len + 1));
        if (copy == nullptr) {
            std::free(proc);
            return nullptr;
        }
        std::memcpy(copy, hostname, hostname_len);
        copy[hostname_len] = '\0';
        proc->proc_hostname = copy;
    }
    return proc;
}

#if TESSERA_DYNAMIC_ENDPOINTS
// Grows (or first allocates) the dynamic slots to cover every tag registered so far, so that a
// component registering after this one costs one more realloc, not one per store.
int store_dynamic(tessera_proc_t *proc, std::size_t index, void *endpoint) noexcept
{
    auto *dyn = static_cast<void **>(proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT]);
    std::size_t have = dyn == nullptr ? 0 : reinterpret_cast<std::uintptr_t>(dyn[0]);
    if (index >= have) {
        if (endpoint == nullptr) {
            return TESSERA_SUCCESS; // already reads as NULL
        }
        std::size_t want =
            static_cast<std::size_t>(tessera_endpoint_tag_count() - TESSERA_ENDPOINT_TAG_STATIC_COUNT);
        auto *grown = static_cast<void **>(std::realloc(dyn, (1 + want) * sizeof(void *)));
        if (grown == nullptr) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
        for (std::size_t i = have; i < want; ++i) {
            grown[1 + i] = nullptr;
        }
        grown[0] = reinterpret_cast<void *>(static_cast<std::uintptr_t>(want));
        proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT] = grown;
        dyn = grown;
    }
    dyn[1 + index] = endpoint;
    return TESSERA_SUCCESS;
}
#endif

} // namespace

extern "C" {

tessera_proc_t *tessera_proc_create(tessera_proc_name_t name, const char *hostname, uint32_t flags)
{
    return create_proc(name, hostname, hostname == nullptr ? 0 : std::strlen(hostname), flags);
}

void tessera_proc_destroy(tessera_proc_t *proc)
{
    if (proc == nullptr) {
        return;
    }
#if TESSERA_DYNAMIC_ENDPOINTS
    std::free(proc->proc_endpoint[TESSERA_ENDPOINT_DYNAMIC_SLOT]);
#endif
    std::free(const_cast<char *>(proc->proc_hostname));
    std::free(proc);
}

int tessera_proc_endpoint_set_dynamic(tessera_proc_t *proc, int tag, void *endpoint)
{
    if (proc == nullptr || tag < 0 || tag >= tessera_endpoint_tag_count()) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (tag < TESSERA_ENDPOINT_TAG_STATIC_COUNT) {
        // Reached only by callers that skip the inline tessera_proc_endpoint_set().
        proc->proc_endpoint[tag] = endpoint;
        return TESSERA_SUCCESS;
    }
#if TESSERA_DYNAMIC_ENDPOINTS
    return store_dynamic(proc, static_cast<std::size_t>(tag - TESSERA_ENDPOINT_TAG_STATIC_COUNT), endpoint);
#else
    (void)endpoint;
    return TESSERA_ERR_NOT_SUPPORTED;
#endif
}

} // extern "C"

namespace tessera::ompi {

ProcPtr make_proc(tessera_proc_name_t name, std::string_view hostname, std::uint32_t flags)
{
    // An empty name means "unknown", as NULL does for tessera_proc_create().
    ProcPtr proc(create_proc(name, hostname.empty() ? nullptr : hostname.data(), hostname.size(), flags));
    if (!proc) {
        throw std::bad_alloc();
    }
    return proc;
}

tessera_proc_t *ProcTable::add(tessera_proc_name_t name, std::string_view hostname, std::uint32_t flags)
{
    if (index_.contains(key(name))) {
        return nullptr;
    }
    procs_.reserve(procs_.size() + 1); // so that nothing below can fail after the proc is made
    ProcPtr proc = make_proc(name, hostname, flags);
    index_.emplace(key(name), procs_.size());
    procs_.push_back(std::move(proc));
    return procs_.back().get();
}

tessera_proc_t *ProcTable::find(tessera_proc_name_t name) const noexcept
{
    auto it = index_.find(key(name));
    return it == index_.end() ? nullptr : procs_[it->second].get();
}

void ProcTable::clear() noexcept
{
    index_.clear();
    procs_.clear();
}

} // namespace tessera::ompi
