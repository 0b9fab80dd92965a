/*
 * dte jit: compiled code cached by type signature. The signature is the serialized normalized
 * description plus size and extent — everything the generated code depends on — so two types built
 * differently (a vector and the equivalent hvector, or the same type committed twice) share one compile.
 * The cache holds entries weakly: an entry lives while a plan or a compile in flight holds it, and its
 * code is removed from the JIT when the last one lets go.
 */
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "components/dte/jit/dte_jit.h"

namespace tessera::ompi::dte_jit {
namespace {

std::mutex cache_mutex;
std::unordered_map<std::string, std::weak_ptr<CodeEntry>> cache;

/* As deep as the base program accepts; the parser recurses once per level. */
constexpr int kMaxDepth = 256;

/* Parses the elements [*at, end) into `out` until an END_LOOP (inside a loop) or the end. */
bool parse_level(const mca_dte_elem_t *elems, size_t end, size_t *at, int depth, std::vector<Node> *out)
{
    const bool in_loop = depth > 0;
    if (depth > kMaxDepth)
        return false;
    while (*at < end) {
        const mca_dte_elem_t &e = elems[*at];
        if (e.op == MCA_DTE_OP_END_LOOP) {
            if (!in_loop)
                return false;
            return true; /* the caller consumes it */
        }
        Node node;
        node.count = e.count;
        node.stride = e.stride;
        if (e.op == MCA_DTE_OP_BLOCKS) {
            node.blocklen = e.blocklen;
            node.disp = e.disp;
            node.packed = e.count * e.blocklen;
            ++*at;
        } else if (e.op == MCA_DTE_OP_LOOP) {
            node.loop = true;
            const size_t body_start = ++*at;
            if (e.items == 0 || !parse_level(elems, end, at, depth + 1, &node.body) || *at >= end ||
                *at - body_start != e.items)
                return false;
            ++*at; /* END_LOOP */
            uint64_t per_iter = 0;
            for (const Node &child : node.body)
                per_iter += child.packed;
            node.packed = per_iter * e.count;
        } else {
            return false;
        }
        out->push_back(std::move(node));
    }
    return !in_loop;
}

} // namespace

bool parse_description(const mca_dte_elem_t *elems, size_t count, std::vector<Node> *out)
{
    out->clear();
    size_t at = 0;
    return parse_level(elems, count, &at, 0, out) && at == count;
}

std::string signature_key(const mca_dte_type_desc_t *type)
{
    /* Raw field values, fixed width: equal keys mean equal code. Reserved and derived fields (bounds,
     * flags) are left out because the code does not depend on them. */
    std::string key;
    key.reserve(16 + type->elem_count * 40);
    auto put = [&](const void *p, size_t n) { key.append(static_cast<const char *>(p), n); };
    put(&type->size, sizeof type->size);
    put(&type->extent, sizeof type->extent);
    for (size_t i = 0; i < type->elem_count; ++i) {
        const mca_dte_elem_t &e = type->elems[i];
        put(&e.op, sizeof e.op);
        put(&e.items, sizeof e.items);
        put(&e.count, sizeof e.count);
        put(&e.blocklen, sizeof e.blocklen);
        put(&e.disp, sizeof e.disp);
        put(&e.stride, sizeof e.stride);
    }
    return key;
}

uint64_t signature_hash(const std::string &key)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
    for (unsigned char c : key) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

bool CodeEntry::wait_done(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(mutex);
    cv.wait_for(lock, timeout, [&] { return done; });
    return ready();
}

std::shared_ptr<CodeEntry> cache_acquire(const mca_dte_type_desc_t *type, bool *hit)
{
    *hit = false;
    std::string key = signature_key(type);
    std::lock_guard lock(cache_mutex);
    auto it = cache.find(key);
    if (it != cache.end()) {
        if (auto entry = it->second.lock()) {
            *hit = true;
            return entry;
        }
    }
    auto entry = std::make_shared<CodeEntry>();
    if (!parse_description(type->elems, type->elem_count, &entry->tree))
        return nullptr;
    /* The generated code places element i's bytes at i * size: the blocks must add up to it. */
    uint64_t total = 0;
    for (const Node &node : entry->tree)
        total += node.packed;
    if (total != type->size)
        return nullptr;
    entry->hash = signature_hash(key);
    entry->size = type->size;
    entry->extent = type->extent;
    entry->created = std::chrono::steady_clock::now();
    entry->key = key;
    /* Expired entries are dropped here rather than in the entry's destructor, which may run with this
     * lock held (the last reference released inside this function). */
    for (auto i = cache.begin(); i != cache.end();)
        i = i->second.expired() ? cache.erase(i) : std::next(i);
    cache[std::move(key)] = entry;
    return entry;
}

size_t cache_size()
{
    std::lock_guard lock(cache_mutex);
    size_t live = 0;
    for (auto &[key, weak] : cache)
        live += weak.expired() ? 0 : 1;
    return live;
}

} // namespace tessera::ompi::dte_jit
