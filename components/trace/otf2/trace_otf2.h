/* trace otf2: internal declarations shared by the component's files. */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_H

#include <cstddef>
#include <cstdint>

#include "frameworks/trace/trace.h"

extern "C" mca_trace_base_component_t mca_trace_otf2_component;

namespace tessera::ompi::trace_otf2 {

/* Defaults and ranges are in the rows of register_params (trace_otf2_component.cpp). */
struct Params {
    const char *dir;           /* trace_otf2_dir: the archive is <dir>/traces.otf2 */
    size_t buffer_size;        /* trace_otf2_buffer_size: OTF2's event memory per rank before a flush to disk */
    size_t record_buffer_size; /* trace_otf2_record_buffer_size: the hooks' records before they are encoded */
    int clock;                 /* trace_otf2_clock: kClockAuto or kClockMonotonic (trace_otf2_clock.h) */
};
inline constexpr int kClockAuto = 0;
inline constexpr int kClockMonotonic = 1;
extern Params params;

/* The archive's name inside trace_otf2_dir: traces.otf2, traces.def, traces/<rank>.evt|.def. */
inline constexpr const char *kArchiveName = "traces";

/* Creates the module for this process (trace_init): opens the archive, collectively. NULL (after
 * rank 0 said why) when the archive cannot be written, on every rank alike. */
mca_trace_base_module_t *module_create(const mca_trace_base_job_info_t &job);
/* Destroys the module without writing (component close after a finalize that did not happen). */
void module_destroy();

} // namespace tessera::ompi::trace_otf2

#endif
