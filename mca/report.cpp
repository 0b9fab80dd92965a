#include "mca/report.h"

#include <cstdio>
#include <mutex>

namespace tessera::mca {

namespace {

struct Reports {
    std::mutex mutex;
    bool print = true;
    std::vector<std::string> warnings;
    std::vector<std::string> errors;
};

/* Function-local so that reports made from other libraries' static constructors find it ready. */
Reports &reports()
{
    static Reports r;
    return r;
}

} // namespace

void report(Severity severity, std::string_view text)
{
    Reports &r = reports();
    std::lock_guard lock(r.mutex);
    const char *label = severity == Severity::Error ? "error" : "warning";
    if (r.print) {
        /* One fprintf per message so that lines from concurrent ranks sharing a terminal stay whole. */
        std::fprintf(stderr, "tessera: %s: %.*s\n", label, static_cast<int>(text.size()), text.data());
        std::fflush(stderr);
    }
    (severity == Severity::Error ? r.errors : r.warnings).emplace_back(text);
}

std::vector<std::string> reported(Severity severity)
{
    Reports &r = reports();
    std::lock_guard lock(r.mutex);
    return severity == Severity::Error ? r.errors : r.warnings;
}

void report_clear()
{
    Reports &r = reports();
    std::lock_guard lock(r.mutex);
    r.warnings.clear();
    r.errors.clear();
}

void report_set_print(bool print)
{
    Reports &r = reports();
    std::lock_guard lock(r.mutex);
    r.print = print;
}

} // namespace tessera::mca
