#include "ompi/communicator/comm_context.h"

#include <algorithm>

#include <bit>

#include "mca/var.h"
#include "opal/threads.h"
#include "ompi/communicator/communicator.h"

namespace tessera::ompi::cid {

/* 4096 ids: the agreement's mask is 512 bytes, and a process rarely holds more than a few dozen
 * communicators at once (freed ids are reused). */
int max_ids = 4096;

namespace {

/* Several threads may create communicators at once (on different parents, MPI-4.1 11.6): the masks,
 * the floor and the count of running agreements change under this lock, which is never held across
 * communication (comm_agree.h says how agreements running at once get different ids). */
opal::Mutex lock;
std::vector<std::uint64_t> used;
std::vector<std::uint64_t> held;
int running = 0;

std::size_t word(std::uint32_t id)
{
    return id / 64;
}

std::uint64_t bit(std::uint32_t id)
{
    return std::uint64_t{1} << (id % 64);
}

bool valid(std::uint32_t id)
{
    return word(id) < used.size();
}

} // namespace

int register_params()
{
    max_ids = 4096;
    const int rc = mca_var_register("mpi", "", "max_context_ids",
                                    "Context ids a process has for its communicators (every live communicator, "
                                    "and the hidden one of each intercommunicator, takes one; freed ones are "
                                    "reused). Rounded up to a multiple of 64; at least 64",
                                    MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                                    &max_ids);
    return rc < 0 ? rc : 0;
}

/* The lowest generation this process may take part in next (comm_context.h). */
std::uint32_t next_generation = 1;

void reset(std::size_t count)
{
    const opal::LockGuard guard(lock);
    const std::size_t words = count < 64 ? 1 : (count + 63) / 64;
    used.assign(words, 0);
    held.assign(words, 0);
    used[0] = bit(kContextWorld) | bit(kContextSelf);
    running = 0;
    next_generation = 1;
}

std::uint32_t generation_floor()
{
    const opal::LockGuard guard(lock);
    return next_generation;
}

void generation_taken(std::uint32_t generation)
{
    const opal::LockGuard guard(lock);
    next_generation = std::max(next_generation, generation + 1);
}

std::vector<std::uint64_t> offer()
{
    const opal::LockGuard guard(lock);
    std::vector<std::uint64_t> mask(used.size());
    for (std::size_t w = 0; w < used.size(); ++w) {
        mask[w] = ~(used[w] | held[w]);
    }
    return mask;
}

std::vector<std::uint32_t> lowest(std::span<const std::uint64_t> mask, std::size_t count, std::size_t start)
{
    const std::size_t bits = mask.size() * 64;
    start = bits == 0 ? 0 : start % bits;
    std::vector<std::uint32_t> ids;
    /* From `start` up, then wrapping round to the ids below it. */
    for (std::size_t pass = 0; pass < 2 && ids.size() < count; ++pass) {
        for (std::size_t w = 0; w < mask.size() && ids.size() < count; ++w) {
            for (std::uint64_t b = mask[w]; b != 0 && ids.size() < count; b &= b - 1) {
                const std::size_t id = w * 64 + static_cast<std::size_t>(std::countr_zero(b));
                if ((id >= start) == (pass == 0)) {
                    ids.push_back(static_cast<std::uint32_t>(id));
                }
            }
        }
    }
    return ids;
}

bool hold(std::span<const std::uint32_t> ids)
{
    const opal::LockGuard guard(lock);
    for (std::uint32_t id : ids) {
        if (!valid(id) || ((used[word(id)] | held[word(id)]) & bit(id)) != 0) {
            return false;
        }
    }
    for (std::uint32_t id : ids) {
        held[word(id)] |= bit(id);
    }
    return true;
}

void unhold(std::span<const std::uint32_t> ids)
{
    const opal::LockGuard guard(lock);
    for (std::uint32_t id : ids) {
        if (valid(id)) {
            held[word(id)] &= ~bit(id);
        }
    }
}

void take(std::span<const std::uint32_t> ids)
{
    const opal::LockGuard guard(lock);
    for (std::uint32_t id : ids) {
        if (valid(id)) {
            held[word(id)] &= ~bit(id);
            used[word(id)] |= bit(id);
        }
    }
}

void release(std::uint32_t id)
{
    const opal::LockGuard guard(lock);
    if (valid(id)) {
        used[word(id)] &= ~bit(id);
    }
}

bool in_use(std::uint32_t id)
{
    const opal::LockGuard guard(lock);
    return valid(id) && (used[word(id)] & bit(id)) != 0;
}

std::size_t used_count()
{
    const opal::LockGuard guard(lock);
    std::size_t n = 0;
    for (std::uint64_t w : used) {
        n += static_cast<std::size_t>(std::popcount(w));
    }
    return n;
}

void agreement_begin()
{
    const opal::LockGuard guard(lock);
    ++running;
}

void agreement_end()
{
    const opal::LockGuard guard(lock);
    --running;
}

int agreements_running()
{
    const opal::LockGuard guard(lock);
    return running;
}

} // namespace tessera::ompi::cid
