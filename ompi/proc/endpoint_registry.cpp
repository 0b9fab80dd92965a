// Run-time endpoint tags (endpoint_registry.h).
//
// Registration takes a mutex; reading a tag's name or the number of tags does not, because
// tessera_proc_endpoint_set() asks for the count and components may ask for names while others
// register. Each name is written before the count that makes it visible is published (release), and
// its storage never moves or dies while the process runs.
#include "ompi/proc/endpoint_registry.h"

#include <array>
#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "mca/report.h"

namespace {

constexpr int kMaxDynamic = TESSERA_ENDPOINT_MAX_DYNAMIC_TAGS;
constexpr const char *kStaticNames[] = TESSERA_ENDPOINT_TAG_NAMES; // NULL-terminated
constexpr int kStaticCount = TESSERA_ENDPOINT_TAG_STATIC_COUNT;
static_assert(sizeof(kStaticNames) / sizeof(kStaticNames[0]) == kStaticCount + 1,
              "endpoint_tags.h: TESSERA_ENDPOINT_TAG_NAMES does not match the static tag count");

// Constant-initialised, so lock-free readers never run into a guard or an unconstructed object.
constinit std::array<std::atomic<const char *>, kMaxDynamic> g_dynamic_names{};
constinit std::atomic<int> g_dynamic_count{0};

#if TESSERA_DYNAMIC_ENDPOINTS
struct Writer {
    std::mutex lock;
    std::deque<std::string> names; // deque: push_back never moves the strings readers point into
};

Writer &writer()
{
    static Writer w;
    return w;
}
#endif

// Tag names are C identifiers, upper-cased, as tessera_endpoint_tag() in CMake makes them.
bool normalise(const char *name, std::string &out)
{
    if (name == nullptr || name[0] == '\0') {
        return false;
    }
    out.clear();
    for (const char *p = name; *p != '\0'; ++p) {
        char c = *p;
        if (c >= 'a' && c <= 'z') {
            c = static_cast<char>(c - 'a' + 'A');
        }
        bool letter = c >= 'A' && c <= 'Z';
        bool ok = letter || c == '_' || (p != name && c >= '0' && c <= '9');
        if (!ok || (p == name && !letter)) {
            return false;
        }
        out.push_back(c);
    }
    return true;
}

int find_static(std::string_view name)
{
    for (int i = 0; i < kStaticCount; ++i) {
        if (name == kStaticNames[i]) {
            return i;
        }
    }
    return -1;
}

void report_error(std::string text)
{
    tessera::mca::report(tessera::mca::Severity::Error, text);
}

} // namespace

extern "C" {

int tessera_endpoint_tag_register(const char *name)
{
    std::string upper;
    if (!normalise(name, upper)) {
        report_error(std::string("endpoint tag name \"") + (name == nullptr ? "(null)" : name) +
                     "\" is not valid: expected a C identifier (letters, digits and '_', starting "
                     "with a letter)");
        return TESSERA_ERR_BAD_PARAM;
    }
    if (int tag = find_static(upper); tag >= 0) {
        return tag;
    }
#if TESSERA_DYNAMIC_ENDPOINTS
    Writer &w = writer();
    std::lock_guard guard(w.lock);
    int count = g_dynamic_count.load(std::memory_order_relaxed); // only changed under the lock
    for (int i = 0; i < count; ++i) {
        if (upper == g_dynamic_names[i].load(std::memory_order_relaxed)) {
            return kStaticCount + i;
        }
    }
    if (count == kMaxDynamic) {
        report_error("endpoint tag \"" + upper + "\": no dynamic endpoint tag left (all " +
                     std::to_string(kMaxDynamic) + " are registered)");
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    w.names.push_back(std::move(upper));
    g_dynamic_names[count].store(w.names.back().c_str(), std::memory_order_relaxed);
    g_dynamic_count.store(count + 1, std::memory_order_release);
    return kStaticCount + count;
#else
    report_error("endpoint tag \"" + upper +
                 "\" is not built in, and this build has no dynamic endpoint tags "
                 "(TESSERA_DYNAMIC_ENDPOINTS=OFF): rebuild with -DTESSERA_DYNAMIC_ENDPOINTS=ON, or build "
                 "the component in so that it claims the tag with tessera_endpoint_tag(" + upper + ")");
    return TESSERA_ERR_NOT_SUPPORTED;
#endif
}

const char *tessera_endpoint_tag_name(int tag)
{
    if (tag < 0) {
        return nullptr;
    }
    if (tag < kStaticCount) {
        return kStaticNames[tag];
    }
    int i = tag - kStaticCount;
    if (i >= g_dynamic_count.load(std::memory_order_acquire)) {
        return nullptr;
    }
    return g_dynamic_names[i].load(std::memory_order_relaxed);
}

int tessera_endpoint_tag_count(void)
{
    return kStaticCount + g_dynamic_count.load(std::memory_order_acquire);
}

} // extern "C"
