/* plm base: passing a child's output on (see plm_base_output.h). */
#include "frameworks/plm/base/plm_base_output.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace tessera::orte::plm {

bool write_all(int fd, const char *data, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EAGAIN) {
            pollfd p{fd, POLLOUT, 0};
            poll(&p, 1, 100);
            continue;
        }
        if (n <= 0) {
            return false;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

} // namespace tessera::orte::plm
