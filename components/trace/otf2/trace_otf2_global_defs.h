/*
 * trace otf2: the global definitions rank 0 writes (traces.def): clock properties, strings, the
 * system tree (the job, one node per host), one location group (process) and one location per rank,
 * the MPI functions as regions, the COMM_LOCATIONS group (member i: location i, the MPI_COMM_WORLD
 * rank), a COMM_GROUP per rank map (members: indices into COMM_LOCATIONS) and the communicators —
 * so that a reader maps a communicator-local rank to its location.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_GLOBAL_DEFS_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_GLOBAL_DEFS_H

#include <otf2/otf2.h>

#include <string>
#include <vector>

#include "components/trace/otf2/trace_otf2_clock.h"
#include "components/trace/otf2/trace_otf2_summary.h"
#include "components/trace/otf2/trace_otf2_unify.h"

namespace tessera::ompi::trace_otf2 {

struct JobFacts {
    uint32_t jobid = 0;
    const Clock *clock = nullptr; /* the records' clock, as rank 0 measured it */
};

/* Writes them; the first OTF2 error, or OTF2_SUCCESS. */
OTF2_ErrorCode write_global_defs(OTF2_GlobalDefWriter *w, const JobFacts &job, const std::vector<RankSummary> &ranks,
                                 const Unified &u);

} // namespace tessera::ompi::trace_otf2

#endif
