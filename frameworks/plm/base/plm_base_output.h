/* plm base: passing a child's output on — plm ssh's relay to the launcher's stdout, tessera_launch_agent
 * to its own stdout and stderr (which ssh carries back). */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_OUTPUT_H
#define TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_OUTPUT_H

#include <cstddef>

namespace tessera::orte::plm {

/* Writes all of data[0, size) to fd, with blocking semantics even when fd is non-blocking (the caller's
 * stdout can be anything): EINTR is retried, EAGAIN waits for fd to become writable. False on any other
 * error or when nothing can be written. */
bool write_all(int fd, const char *data, size_t size);

} // namespace tessera::orte::plm

#endif
