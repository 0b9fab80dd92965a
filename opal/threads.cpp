#include "opal/threads.h"

namespace tessera::opal {

namespace detail {
bool using_threads = false;
}

void set_using_threads(bool on)
{
    detail::using_threads = on;
}

} // namespace tessera::opal
