#include "mca/report.h"

#include <cstdio>
#include <mutex>

#include "mca/var_sources.h"
#include "mca/var_store.h"

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

std::string bad_value(std::string_view full_name, std::string_view value, std::string_view rule)
{
    std::string where = "default";
    if (const std::optional<VarInfo> v = find_var(full_name); v.has_value()) {
        switch (v->source.kind) {
        case SourceKind::CommandLine: where = "command line (--mca " + v->full_name + ")"; break;
        case SourceKind::Environment: where = "environment (" + std::string(detail::kEnvPrefix) + v->full_name + ")"; break;
        default: where = v->source.describe(); break;
        }
    }
    return std::string(full_name) + ": value " + std::string(value) + " from " + where + " " + std::string(rule);
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

extern "C" {

void tessera_report(tessera_report_severity_t severity, const char *text)
{
    tessera::mca::report(severity == TESSERA_REPORT_ERROR ? tessera::mca::Severity::Error
                                                          : tessera::mca::Severity::Warning,
                         text != nullptr ? text : "(null)");
}

void tessera_report_bad_value(tessera_report_severity_t severity, const char *full_name, const char *value,
                              const char *rule)
{
    const std::string text = tessera::mca::bad_value(full_name != nullptr ? full_name : "(null)",
                                                     value != nullptr ? value : "(null)",
                                                     rule != nullptr ? rule : "");
    tessera_report(severity, text.c_str());
}

} // extern "C"
