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

/* Recorded messages since start-up (or since report_clear()). */
std::vector<std::string> reported(Severity severity);
void report_clear();

/* When false, messages are recorded but not printed (unit tests that assert on them). */
void report_set_print(bool print);

} // namespace tessera::mca

#endif
