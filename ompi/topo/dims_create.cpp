/* MPI_Dims_create's factorization (topology.h): the most balanced one, found by a depth-first search
 * over the divisors in non-increasing order. Balanced means the smallest difference between the largest
 * and the smallest dimension; among equals, the one whose smallest dimension is largest, then whose
 * second smallest is, and so on (13 x 9 x 8 x 6 rather than 13 x 12 x 6 x 6 for 5616 in four
 * dimensions, 21 x 16 x 15 rather than 20 x 18 x 14 for 5040 in three): the choice of MPICH, whose table
 * of such cases (its test topo/baddims.h) this matches. */
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "ompi/topo/topology.h"

namespace tessera::ompi {

namespace {

struct Search {
    std::vector<long> divisors; /* of the number to factor, largest first */
    std::vector<long> current;
    std::vector<long> best;
    long best_spread = -1;

    /* Whether `a` beats `b` of the same spread: compared from the smallest dimension up, larger wins. */
    static bool better_tie(const std::vector<long> &a, const std::vector<long> &b)
    {
        return std::lexicographical_compare(b.rbegin(), b.rend(), a.rbegin(), a.rend());
    }

    /* Places the factors of `left` into `slots` more positions, none above `cap`. */
    void run(long left, int slots, long cap)
    {
        if (left == 1) {
            /* The rest are ones. */
            const long spread = current.empty() ? 0 : current.front() - (slots > 0 ? 1 : current.back());
            if (best_spread >= 0 && spread > best_spread) {
                return;
            }
            std::vector<long> candidate = current;
            candidate.resize(current.size() + static_cast<std::size_t>(slots), 1);
            if (best_spread < 0 || spread < best_spread || better_tie(candidate, best)) {
                best_spread = spread;
                best = std::move(candidate);
            }
            return;
        }
        if (slots == 0) {
            return;
        }
        if (slots == 1) {
            if (left <= cap) {
                current.push_back(left);
                run(1, 0, left);
                current.pop_back();
            }
            return;
        }
        for (long d : divisors) {
            if (d > cap || left % d != 0) {
                continue;
            }
            /* d is the largest of what remains: slots copies of it must reach `left`. */
            long reach = 1;
            for (int i = 0; i < slots && reach < left; ++i) {
                reach *= d;
            }
            if (reach < left) {
                break; /* smaller divisors reach even less */
            }
            if (best_spread >= 0 && !current.empty() && current.front() - d > best_spread) {
                break; /* the smallest dimension only shrinks from here: no spread as good */
            }
            current.push_back(d);
            run(left / d, slots - 1, d);
            current.pop_back();
        }
    }
};

} // namespace

std::string dims_create(int nnodes, std::vector<int> &dims)
{
    if (nnodes < 1) {
        return "nnodes is " + std::to_string(nnodes) + ": a grid has at least one process";
    }
    long fixed = 1;
    int free_slots = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] < 0) {
            return "dims[" + std::to_string(i) + "] is " + std::to_string(dims[i]) +
                   ": an entry is 0 (to be chosen) or a dimension's size";
        }
        if (dims[i] == 0) {
            ++free_slots;
        } else {
            fixed *= dims[i];
            if (fixed > nnodes) {
                break;
            }
        }
    }
    if (nnodes % fixed != 0) {
        return "the dimensions given multiply to " + std::to_string(fixed) + ", which does not divide nnodes = " +
               std::to_string(nnodes);
    }
    const long rest = nnodes / fixed;
    if (free_slots == 0) {
        if (rest != 1) {
            return "the dimensions given multiply to " + std::to_string(fixed) + ", not nnodes = " + std::to_string(nnodes);
        }
        return "";
    }
    Search s;
    for (long q = 1; q * q <= rest; ++q) {
        if (rest % q == 0) {
            s.divisors.push_back(q);
            s.divisors.push_back(rest / q);
        }
    }
    std::sort(s.divisors.begin(), s.divisors.end(), std::greater<>());
    s.divisors.erase(std::unique(s.divisors.begin(), s.divisors.end()), s.divisors.end());
    s.run(rest, free_slots, rest);
    std::size_t next = 0;
    for (int &d : dims) {
        if (d == 0) {
            d = static_cast<int>(s.best[next++]);
        }
    }
    return "";
}

} // namespace tessera::ompi
