/*
 * The MCA core's diagnostics: every error and warning about parameters and components goes through
 * here so that it reaches stderr once, in one format, and tests and tools can count what was said.
 */
#ifndef TESSERA_MCA_REPORT_H
#define TESSERA_MCA_REPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The C face of report() and bad_value() below, for components written in C (installed with the SDK). */
typedef enum tessera_report_severity {
    TESSERA_REPORT_WARNING = 0,
    TESSERA_REPORT_ERROR = 1
} tessera_report_severity_t;

/* report(): "tessera: warning|error: <text>" once on stderr, recorded for tests and tools. */
void tessera_report(tessera_report_severity_t severity, const char *text);

/* report(severity, bad_value(full_name, value, rule)): a parameter value that breaks the component's
 * rule, with where the value came from ("btl_usock_exclusivity: value 7 from command line (--mca
 * btl_usock_exclusivity) must be 0, 1024 or 65536"). */
void tessera_report_bad_value(tessera_report_severity_t severity, const char *full_name, const char *value,
                              const char *rule);

#ifdef __cplusplus
}

#include <string>
#include <string_view>
#include <vector>

namespace tessera::mca {

enum class Severity { Warning, Error };

/* Prints "tessera: warning: <text>" or "tessera: error: <text>" to stderr and records it. */
void report(Severity severity, std::string_view text);

/*
 * A value that parsed but breaks its component's rule, as "<name>: value <value> from <where> <rule>":
 * <where> is where the value in force was set ("command line (--mca <name>)", "environment
 * (TESSERA_MCA_<name>)", "file:<path>:<line>", or "default"), so the user knows what to change.
 */
std::string bad_value(std::string_view full_name, std::string_view value, std::string_view rule);

/* Recorded messages since start-up (or since report_clear()). */
std::vector<std::string> reported(Severity severity);
void report_clear();

/* When false, messages are recorded but not printed (unit tests that assert on them). */
void report_set_print(bool print);

} // namespace tessera::mca

#endif /* __cplusplus */

#endif
