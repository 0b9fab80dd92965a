/*
 * trace otf2: what one rank knows that the archive's global definitions need — its host, its clock
 * range, its event count, the MPI functions it entered and the communicators it saw with their rank
 * maps — and its byte form for the exchange at finalize.
 */
#ifndef TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_SUMMARY_H
#define TESSERA_COMPONENTS_TRACE_OTF2_TRACE_OTF2_SUMMARY_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::ompi::trace_otf2 {

struct CommSummary {
    uint64_t local_id = 0;        /* the id its events carry (the feed's communicator id) */
    std::string name;             /* may be empty */
    std::vector<int> world_ranks; /* MPI_COMM_WORLD rank of each rank; empty when unknown */
};

struct RankSummary {
    int rank = 0;
    bool ok = false;           /* its event and definition files are being written */
    std::string host;
    uint64_t first_time = 0;   /* its first and last event (0, 0: none) */
    uint64_t last_time = 0;
    uint64_t events = 0;
    std::vector<std::pair<uint32_t, std::string>> regions; /* function index, name */
    std::vector<CommSummary> comms;                        /* in the order they were created */
};

std::vector<unsigned char> encode(const RankSummary &summary);
/* Nothing when the bytes are not a summary of this build. */
std::optional<RankSummary> decode(const unsigned char *data, size_t size);

} // namespace tessera::ompi::trace_otf2

#endif
