#include "ompi/communicator/comm_agree.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

#include "ompi/communicator/comm_context.h"
#include "opal/threads.h"

namespace tessera::ompi::comm {

namespace {

/* The last word of an offer: bit 0 set when this process is quiet (comm_agree.h). */
constexpr std::uint64_t kQuiet = 1;

/* Counts this process's running agreements for as long as it lives. */
struct Running {
    Running() { cid::agreement_begin(); }
    ~Running() { cid::agreement_end(); }
    Running(const Running &) = delete;
    Running &operator=(const Running &) = delete;
};

/* This process's contribution to a retry's starting point: different in every process, every thread
 * and every call, so that two agreements that keep choosing the same ids part ways (comm_agree.h). */
std::uint64_t retry_seed()
{
    static std::atomic<std::uint64_t> calls{0};
    std::uint64_t x = calls.fetch_add(1, std::memory_order_relaxed) * 0x9e3779b97f4a7c15ULL;
    x ^= std::hash<std::thread::id>{}(std::this_thread::get_id());
    x ^= static_cast<std::uint64_t>(comm_world().rank) << 32;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return (x ^ (x >> 32)) | 1;
}

} // namespace

Task agree(Channel ch, Agreement a, Exchanged *records, Agreed *agreed)
{
    std::vector<std::uint32_t> *ids = &agreed->ids;
    const Running running;
    const auto count = static_cast<std::size_t>(a.count);
    bool first = true;
    for (std::uint64_t round = 0;; ++round) {
        std::vector<std::uint64_t> offer = cid::offer();
        const std::size_t words = offer.size();
        if (!a.keep) {
            offer.assign(words, ~std::uint64_t{0});
        }
        /* With several threads, another one may start an agreement after this offer and hold an id before
         * this one takes it: no process is quiet then. */
        const bool quiet = a.blocking && !opal::using_threads() && cid::agreements_running() == 1;
        offer.push_back(quiet ? kQuiet : 0);
        /* Where a retry starts looking, and the generation, both combined by MAX: processes not in the
         * result constrain nothing. */
        offer.push_back(round > 0 ? retry_seed() : 0);
        offer.push_back(a.keep ? cid::generation_floor() : 0);

        Exchanged result;
        Task offering = exchange(ch, first ? a.mine : std::vector<int>{}, std::move(offer), &result, 2);
        int rc = co_await offering;
        if (rc != MPI_SUCCESS) {
            co_return rc;
        }
        if (first) {
            records->local = std::move(result.local);
            records->remote = std::move(result.remote);
            first = false;
        }
        *ids = cid::lowest({result.mask.data(), words}, count, static_cast<std::size_t>(result.mask[words + 1]));
        agreed->generation = static_cast<std::uint32_t>(result.mask[words + 2]);
        if (ids->size() < count) {
            /* Everyone saw the same mask: every process gives up. */
            co_return MPI_ERR_INTERN;
        }
        if ((result.mask[words] & kQuiet) != 0) {
            if (a.keep) {
                cid::take(*ids);
                cid::generation_taken(agreed->generation);
            }
            co_return MPI_SUCCESS;
        }

        /* Someone had another creation running: confirm that the ids are still free everywhere. The
         * floors are offered again: a communicator made and freed here since the first exchange may
         * have had one of these ids, and ours must come after its generation. */
        const bool held = a.keep && cid::hold(*ids);
        const bool fine = !a.keep || held;
        Task confirming = exchange(ch, {}, {fine ? std::uint64_t{1} : 0, a.keep ? cid::generation_floor() : 0},
                                   &result, 1);
        rc = co_await confirming;
        if (rc != MPI_SUCCESS) {
            if (held) {
                cid::unhold(*ids);
            }
            co_return rc;
        }
        if (result.mask[0] != 0) {
            agreed->generation = std::max(agreed->generation, static_cast<std::uint32_t>(result.mask[1]));
            if (a.keep) {
                cid::take(*ids);
                cid::generation_taken(agreed->generation);
            }
            co_return MPI_SUCCESS;
        }
        if (held) {
            cid::unhold(*ids);
        }
    }
}

} // namespace tessera::ompi::comm
