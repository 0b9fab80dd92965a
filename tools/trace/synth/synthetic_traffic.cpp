#include "synthetic_traffic.h"

#include <vector>

#include "otf2_archive_writer.h"

namespace tessera::trace::synth {

namespace {

constexpr uint32_t world_comm = 0;
constexpr uint32_t reversed_comm = 1;
constexpr OTF2_TimeStamp round_ticks = 10000;

/* One rank's writer with its clock: records come out in non-decreasing time, as OTF2 requires. */
struct RankStream {
    OTF2_EvtWriter *w;
    bool regions;
    uint64_t events = 0;

    template <class Record> void call(OTF2_TimeStamp t, Record record)
    {
        if (regions) {
            OTF2_EvtWriter_Enter(w, nullptr, t, ArchiveWriter::region);
            ++events;
        }
        events += record(t);
        if (regions) {
            OTF2_EvtWriter_Leave(w, nullptr, t + 10, ArchiveWriter::region);
            ++events;
        }
    }
};

} // namespace

bool write_synthetic_traffic(const std::string &dir, const TrafficSpec &spec, TrafficResult &result,
                             std::string &error)
{
    const uint32_t n = spec.ranks;
    Layout layout;
    layout.ranks = n;
    CommSpec world{world_comm, "MPI_COMM_WORLD", CommSpec::Kind::Group, {}, {}};
    CommSpec reversed{reversed_comm, "reversed", CommSpec::Kind::Group, {}, {}};
    for (uint32_t r = 0; r < n; ++r) {
        world.members.push_back(r);
        reversed.members.push_back(n - 1 - r);
    }
    layout.comms = {world, reversed};
    ArchiveWriter archive(dir, "traces", layout);
    std::vector<RankStream> ranks;
    for (uint32_t r = 0; r < n && archive.ok(); ++r) {
        ranks.push_back(RankStream{archive.events(archive.location(r)), spec.regions});
    }
    if (!archive.ok()) {
        error = archive.error();
        return false;
    }
    result = TrafficResult{};
    uint64_t request = 0;
    auto total = [&] {
        uint64_t e = 0;
        for (const RankStream &s : ranks) {
            e += s.events;
        }
        return e;
    };
    for (uint64_t k = 0; total() < spec.events; ++k) {
        const OTF2_TimeStamp base = k * round_ticks;
        const uint32_t comm = k % 2 == 0 ? world_comm : reversed_comm;
        const uint32_t tag = static_cast<uint32_t>(k % 7);
        const uint64_t bytes = 8 << (k % 10);
        for (uint32_t r = 0; r < n; ++r) {
            /* Ranks local to `comm`: on the reversed communicator world rank w is rank n-1-w. */
            auto local = [&](uint32_t world_rank) { return comm == world_comm ? world_rank : n - 1 - world_rank; };
            const uint32_t next = local((r + 1) % n);
            const uint32_t prev = local((r + n - 1) % n);
            RankStream &s = ranks[r];
            OTF2_EvtWriter *w = s.w;
            const uint64_t rq = request += 4;
            switch (k % 4) {
            case 0:
                s.call(base + 100, [&](auto t) {
                    OTF2_EvtWriter_MpiSend(w, nullptr, t + 1, next, comm, tag, bytes);
                    return 1;
                });
                s.call(base + 5000, [&](auto t) {
                    OTF2_EvtWriter_MpiRecv(w, nullptr, t + 1, prev, comm, tag, bytes);
                    return 1;
                });
                break;
            case 1:
                s.call(base + 100, [&](auto t) {
                    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t + 1, rq);
                    return 1;
                });
                s.call(base + 200, [&](auto t) {
                    OTF2_EvtWriter_MpiIsend(w, nullptr, t + 1, next, comm, tag, bytes, rq + 1);
                    return 1;
                });
                s.call(base + 5000, [&](auto t) {
                    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t + 1, rq + 1);
                    OTF2_EvtWriter_MpiIrecv(w, nullptr, t + 2, prev, comm, tag, bytes, rq);
                    return 2;
                });
                break;
            case 2:
                s.call(base + 100, [&](auto t) {
                    OTF2_EvtWriter_MpiIsend(w, nullptr, t + 1, next, comm, tag, bytes, rq);
                    return 1;
                });
                s.call(base + 5000, [&](auto t) {
                    OTF2_EvtWriter_MpiRecv(w, nullptr, t + 1, prev, comm, tag, bytes);
                    return 1;
                });
                s.call(base + 6000, [&](auto t) {
                    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t + 1, rq);
                    return 1;
                });
                break;
            default:
                /* Two tags, completed in the reverse order of posting. */
                s.call(base + 100, [&](auto t) {
                    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t + 1, rq);
                    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t + 2, rq + 1);
                    return 2;
                });
                s.call(base + 200, [&](auto t) {
                    OTF2_EvtWriter_MpiIsend(w, nullptr, t + 1, next, comm, 100, bytes, rq + 2);
                    OTF2_EvtWriter_MpiIsend(w, nullptr, t + 2, next, comm, 101, 2 * bytes, rq + 3);
                    return 2;
                });
                s.call(base + 5000, [&](auto t) {
                    OTF2_EvtWriter_MpiIrecv(w, nullptr, t + 1, prev, comm, 101, 2 * bytes, rq + 1);
                    OTF2_EvtWriter_MpiIrecv(w, nullptr, t + 2, prev, comm, 100, bytes, rq);
                    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t + 3, rq + 3);
                    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t + 4, rq + 2);
                    return 4;
                });
                result.messages += 1;
                result.bytes += 2 * bytes;
                break;
            }
            result.messages += 1;
            result.bytes += bytes;
        }
        result.rounds = k + 1;
    }
    result.events = total();
    if (!archive.close()) {
        error = archive.error();
        return false;
    }
    return true;
}

} // namespace tessera::trace::synth
