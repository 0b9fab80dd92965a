/* trace monitor: the text written at finalize. */
#ifndef TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_DUMP_H
#define TESSERA_COMPONENTS_TRACE_MONITOR_TRACE_MONITOR_DUMP_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "components/trace/monitor/trace_monitor_counts.h"
#include "frameworks/trace/trace.h"

namespace tessera::ompi::trace_monitor {

struct CommInfo {
    std::string name;
    int size = 0;
    std::vector<int> world_ranks; /* empty when the creator did not give them */
};

struct Report {
    uint32_t jobid = 0;
    int world_rank = 0;
    int world_size = 1;
    std::string hostname;
    std::map<uint64_t, CommInfo> comms;
    std::map<PeerKey, Totals> sent;
};

/*
 * The matrix row of this process, as text:
 *   # comment lines
 *   comm <comm_id> <peer> <world_peer> <messages> <bytes> <comm name>   (per communicator and peer)
 *   world <world_peer> <messages> <bytes>                               (summed per MPI_COMM_WORLD rank)
 * world_peer is -1 when the communicator's rank map is unknown; such sends are left out of the
 * world lines. The rows of all ranks together are the job's communication matrix.
 */
std::string format_report(const Report &report);

/* The file for this rank: "%r" in the name becomes the world rank; a name without it gets
 * ".<rank>" appended when the job has more than one rank, so ranks never overwrite each other. */
std::string output_path(const std::string &pattern, int world_rank, int world_size);

/* Writes the text to the path (empty: stderr); reports and returns TESSERA_ERR_IO when it cannot. */
int write_report(const std::string &path, const std::string &text);

} // namespace tessera::ompi::trace_monitor

#endif
