/*
 * trace otf2: OTF2's collective callbacks (OTF2_Archive_SetCollectiveCallbacks) over the trace
 * framework's allgather, so that OTF2 runs one archive over all ranks without calling MPI itself: rank
 * 0 is OTF2's root (it creates the archive's directories and writes the anchor file and the global
 * definitions), every rank writes its own event and definition files.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_COLLECTIVES_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_COLLECTIVES_H

#include <otf2/otf2.h>

#include "frameworks/trace/trace.h"

/* OTF2 leaves the communication context to its user. */
struct OTF2_CollectiveContext {
    const mca_trace_base_job_info_t *job;
};

namespace tessera::ompi::trace_otf2 {

/* The callbacks; their userData is ignored, the context passed with them must outlive the archive.
 * A job without an allgather works for a single rank only. */
const OTF2_CollectiveCallbacks *collective_callbacks();

} // namespace tessera::ompi::trace_otf2

#endif
