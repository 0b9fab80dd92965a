/*
 * The communication matrix as a PNG heat map: one square cell per (sender row, receiver column), on a
 * logarithmic colour scale so that a few heavy pairs do not hide the rest; pairs that never
 * communicated are light grey. Written row by row with libpng, never as a whole image in memory.
 */
#ifndef TESSERA_TOOLS_TRACE_PNG_HEATMAP_H
#define TESSERA_TOOLS_TRACE_PNG_HEATMAP_H

#include <string>
#include <vector>

#include "message_stats.h"
#include "trace_options.h"

namespace tessera::trace {

/* Pixels per cell: large for a few processes, one for thousands. */
unsigned heatmap_cell_size(size_t procs);

/* `pairs` sorted by sender then receiver (MessageStats::pairs()); false and `error` on failure. */
bool write_heatmap(const std::string &path, size_t procs, const std::vector<PairStats> &pairs, HeatMetric metric,
                   std::string &error);

} // namespace tessera::trace

#endif
