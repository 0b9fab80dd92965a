#include "components/trace/otf2/trace_otf2_summary.h"

#include <cstring>

namespace tessera::ompi::trace_otf2 {

namespace {

constexpr uint32_t kMagic = 0x5432544fu; /* "OT2T" */

class Writer {
public:
    template <class T> void put(T v)
    {
        const auto *p = reinterpret_cast<const unsigned char *>(&v);
        out_.insert(out_.end(), p, p + sizeof v);
    }
    void put(const std::string &s)
    {
        put(static_cast<uint32_t>(s.size()));
        out_.insert(out_.end(), s.begin(), s.end());
    }
    std::vector<unsigned char> take() { return std::move(out_); }

private:
    std::vector<unsigned char> out_;
};

class Reader {
public:
    Reader(const unsigned char *p, size_t n) : p_(p), n_(n) {}
    template <class T> bool get(T *v)
    {
        if (n_ < sizeof *v) {
            return false;
        }
        std::memcpy(v, p_, sizeof *v);
        p_ += sizeof *v;
        n_ -= sizeof *v;
        return true;
    }
    bool get(std::string *s)
    {
        uint32_t len = 0;
        if (!get(&len) || n_ < len) {
            return false;
        }
        s->assign(reinterpret_cast<const char *>(p_), len);
        p_ += len;
        n_ -= len;
        return true;
    }
    bool done() const { return n_ == 0; }

private:
    const unsigned char *p_;
    size_t n_;
};

} // namespace

std::vector<unsigned char> encode(const RankSummary &s)
{
    Writer w;
    w.put(kMagic);
    w.put(static_cast<int32_t>(s.rank));
    w.put(static_cast<uint8_t>(s.ok));
    w.put(s.host);
    w.put(s.first_time);
    w.put(s.last_time);
    w.put(s.events);
    w.put(static_cast<uint32_t>(s.regions.size()));
    for (const auto &[index, name] : s.regions) {
        w.put(index);
        w.put(name);
    }
    w.put(static_cast<uint32_t>(s.comms.size()));
    for (const CommSummary &c : s.comms) {
        w.put(c.local_id);
        w.put(c.name);
        w.put(static_cast<uint32_t>(c.world_ranks.size()));
        for (int r : c.world_ranks) {
            w.put(static_cast<int32_t>(r));
        }
    }
    return w.take();
}

std::optional<RankSummary> decode(const unsigned char *data, size_t size)
{
    Reader r(data, size);
    RankSummary s;
    uint32_t magic = 0, nregions = 0, ncomms = 0;
    int32_t rank = 0;
    uint8_t ok = 0;
    if (!r.get(&magic) || magic != kMagic || !r.get(&rank) || !r.get(&ok) || !r.get(&s.host) ||
        !r.get(&s.first_time) || !r.get(&s.last_time) || !r.get(&s.events) || !r.get(&nregions)) {
        return std::nullopt;
    }
    s.rank = rank;
    s.ok = ok != 0;
    for (uint32_t i = 0; i < nregions; ++i) {
        std::pair<uint32_t, std::string> region;
        if (!r.get(&region.first) || !r.get(&region.second)) {
            return std::nullopt;
        }
        s.regions.push_back(std::move(region));
    }
    if (!r.get(&ncomms)) {
        return std::nullopt;
    }
    for (uint32_t i = 0; i < ncomms; ++i) {
        CommSummary c;
        uint32_t n = 0;
        if (!r.get(&c.local_id) || !r.get(&c.name) || !r.get(&n)) {
            return std::nullopt;
        }
        for (uint32_t k = 0; k < n; ++k) {
            int32_t w = 0;
            if (!r.get(&w)) {
                return std::nullopt;
            }
            c.world_ranks.push_back(w);
        }
        s.comms.push_back(std::move(c));
    }
    if (!r.done()) {
        return std::nullopt;
    }
    return s;
}

} // namespace tessera::ompi::trace_otf2
