/*
 * The MCA core's diagnostics: every error and warning about parameters and components goes through
 * here so that it reaches stderr once, in one format, and tests and tools can count what was said.
 */
#ifndef TESSERA_MCA_REPORT_H
#define TESSERA_MCA_REPORT_H

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

#endif
