/*
 * Ordering that passes through the peer process, told to ThreadSanitizer. The rendezvous hands the
 * address of a receive to the peer in the CTS and gets it back on every data fragment: all that the
 * thread answering the RTS did before its CTS left (posting the receive, the application's use of the
 * buffer before that) comes before the data handler, in whichever thread's progress pass it runs. The
 * chain goes through the other process (its ring or socket read, then its sends), which TSan cannot
 * see, so it would report the handler's first access of the request or the buffer as a race. In other
 * builds these are empty.
 */
#ifndef TESSERA_OMPI_PML_PML_PEER_ORDER_H
#define TESSERA_OMPI_PML_PML_PEER_ORDER_H

#include "opal/tsan.h"

namespace tessera::ompi::pml {

/* Before a message carrying `handed` (a request's address) leaves for the peer. */
inline void handed_to_peer(void *handed)
{
    opal::tsan_release(handed);
}

/* When a message from the peer brings `handed` back. */
inline void back_from_peer(void *handed)
{
    opal::tsan_acquire(handed);
}

} // namespace tessera::ompi::pml

#endif
