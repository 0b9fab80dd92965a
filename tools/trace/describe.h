/* One-line texts of sends, receives and messages for the warning examples. */
#ifndef TESSERA_TOOLS_TRACE_DESCRIBE_H
#define TESSERA_TOOLS_TRACE_DESCRIBE_H

#include <string>

#include "trace_types.h"

namespace tessera::trace {

/* "send 0 -> 1, comm 0, tag 7, 8 bytes at 0.000001000 s" */
std::string describe_send(const Transfer &t, const Clock &clock);
/* "receive 0 -> 1, comm 0, tag 7, 8 bytes at 0.000002000 s" */
std::string describe_receive(const Transfer &t, const Clock &clock);
/* "0 -> 1, comm 0, tag 7: sent 8 bytes at 0.000001000 s, received 4 bytes at 0.000002000 s" */
std::string describe_message(const Message &m, const Clock &clock);

} // namespace tessera::trace

#endif
