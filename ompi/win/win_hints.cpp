/*
 * A window's info hints (MPI-4.1 12.2.1, 12.2.7): the keys the standard defines for windows are always
 * given back by MPI_Win_get_info, with the value in force (the default until a valid value is given);
 * a value the standard does not allow for its key is ignored, as hints may be; other keys are kept and
 * given back as they were set.
 *
 * What they change: `no_locks` true promises that the window sees no MPI_Win_lock or lock_all, and the
 * MPI layer holds the application to it (MPI_ERR_RMA_SYNC) rather than let a lock meet a module that may
 * have dropped its lock service. The others allow optimisations osc am has no use for (it orders and
 * applies every accumulate whole, which satisfies every `accumulate_ordering` and `accumulate_ops`), so
 * they are reported, not acted on.
 */
#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>
#include <string>
#include <string_view>

#include "ompi/win/window.h"

namespace tessera::ompi {

namespace {

struct Known {
    std::string_view key;
    std::string_view fallback;
    bool (*valid)(const std::string &value);
};

bool boolean(const std::string &v)
{
    return v == "true" || v == "false";
}

bool ordering(const std::string &v)
{
    if (v == "none") {
        return true;
    }
    std::stringstream in(v);
    std::string part;
    int parts = 0;
    while (std::getline(in, part, ',')) {
        if (part != "rar" && part != "raw" && part != "war" && part != "waw") {
            return false;
        }
        ++parts;
    }
    return parts > 0;
}

bool ops(const std::string &v)
{
    return v == "same_op" || v == "same_op_no_op";
}

constexpr std::array<Known, 6> kKnown{{
    {"no_locks", "false", boolean},
    {"accumulate_ordering", "rar,raw,war,waw", ordering},
    {"accumulate_ops", "same_op_no_op", ops},
    {"same_size", "false", boolean},
    {"same_disp_unit", "false", boolean},
    {"alloc_shared_noncontig", "false", boolean},
}};

std::string lower(std::string v)
{
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return v;
}

} // namespace

void win_hints_apply(Window &w, const InfoEntries &given)
{
    for (const Known &k : kKnown) {
        if (w.info.find(k.key) == nullptr) {
            w.info.set(k.key, k.fallback);
        }
    }
    for (std::size_t i = 0; i < given.size(); ++i) {
        const std::string &key = given.at(i).first;
        const std::string &value = given.at(i).second;
        const auto known = std::find_if(kKnown.begin(), kKnown.end(), [&](const Known &k) { return k.key == key; });
        if (known == kKnown.end()) {
            w.info.set(key, value);
        } else if (const std::string v = lower(value); known->valid(v)) {
            w.info.set(key, v);
        }
    }
    w.no_locks = *w.info.find("no_locks") == "true";
}

} // namespace tessera::ompi
