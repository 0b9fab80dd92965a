/* The hand-off of ompi/communicator/comm_handoff.h. */
#include "ompi/communicator/comm_handoff.h"

namespace tessera::ompi {

constinit thread_local CommHandoff comm_handoff __attribute__((tls_model("initial-exec")));

} // namespace tessera::ompi
