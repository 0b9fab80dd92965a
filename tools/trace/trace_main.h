/* tessera-trace as a function, so that the tests run exactly what the executable runs. */
#ifndef TESSERA_TOOLS_TRACE_MAIN_H
#define TESSERA_TOOLS_TRACE_MAIN_H

#include <cstdio>
#include <string>
#include <vector>

namespace tessera::trace {

/* Exit status: 0 done (warnings or not), 1 the archive or an output could not be handled, 2 usage. */
int trace_main(const std::vector<std::string> &args, std::FILE *out, std::FILE *err);

} // namespace tessera::trace

#endif
