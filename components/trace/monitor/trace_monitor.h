/* trace monitor: internal declarations shared by the component's files. */
#ifndef TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_H
#define TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_H

#include "frameworks/trace/trace.h"

extern "C" mca_trace_base_component_t mca_trace_monitor_component;

namespace tessera::ompi::trace_monitor {

/* trace_monitor_filename: where the counts go at finalize; empty means stderr. */
extern const char *filename;

/* Creates the module for this process (trace_init); NULL when one exists already. */
mca_trace_base_module_t *module_create(const mca_trace_base_job_info_t &job);
/* Destroys the module without writing (component close after a finalize that did not happen). */
void module_destroy();

} // namespace tessera::ompi::trace_monitor

#endif
