#include "mca/suggest.h"

#include <algorithm>
#include <cctype>

namespace tessera::mca {

size_t edit_distance(std::string_view a, std::string_view b)
{
    /* Optimal string alignment: Levenshtein plus one-step transposition of neighbours, the most
     * common typo ("pth" for "pht"). Three rows suffice because a swap looks back two rows. */
    const size_t n = b.size();
    std::vector<size_t> prev2(n + 1), prev(n + 1), cur(n + 1);
    for (size_t j = 0; j <= n; ++j) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= n; ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                cur[j] = std::min(cur[j], prev2[j - 2] + 1);
            }
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[n];
}

namespace {

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (char &c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

} // namespace

std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string> &candidates,
                                       size_t max)
{
    /* Case is ignored: TESSERA_MCA_BTL should still point at "btl". */
    const std::string key = lowered(name);
    const size_t threshold = std::max<size_t>(2, name.size() / 3);
    std::vector<std::pair<size_t, size_t>> scored; /* distance, candidate index */
    for (size_t i = 0; i < candidates.size(); ++i) {
        const size_t d = edit_distance(key, lowered(candidates[i]));
        if (d <= threshold) {
            scored.emplace_back(d, i);
        }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto &x, const auto &y) { return x.first < y.first; });
    std::vector<std::string> out;
    for (const auto &[d, i] : scored) {
        if (out.size() >= max) {
            break;
        }
        if (std::find(out.begin(), out.end(), candidates[i]) == out.end()) {
            out.push_back(candidates[i]);
        }
    }
    return out;
}

std::string join_alternatives(const std::vector<std::string> &names)
{
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            out += i + 1 == names.size() ? " or " : ", ";
        }
        out += names[i];
    }
    return out;
}

} // namespace tessera::mca
