/* The reports of an analysis: text for people, JSON for programs. Both say the same things. */
#ifndef TESSERA_TOOLS_TRACE_REPORT_H
#define TESSERA_TOOLS_TRACE_REPORT_H

#include <nlohmann/json.hpp>
#include <string>

#include "trace_analysis.h"

namespace tessera::trace {

/* Archive, processes, records by kind, messages, and the condensed warnings with their examples. */
std::string text_summary(const TraceAnalysis &a);
/* Two tables, messages and bytes, sender per row and receiver per column. */
std::string text_matrix(const TraceAnalysis &a);
/* One line per communicating pair: messages, bytes, latency min/mean/max, bandwidth. */
std::string text_pairs(const TraceAnalysis &a);

/* {"archive", "summary", "communicators", "warnings", "matrix", "pairs"}. */
nlohmann::ordered_json json_report(const TraceAnalysis &a);

} // namespace tessera::trace

#endif
