/* "Did you mean": closest names by edit distance, for unknown parameters and components. */
#ifndef TESSERA_MCA_SUGGEST_H
#define TESSERA_MCA_SUGGEST_H

#include <string>
#include <string_view>
#include <vector>

namespace tessera::mca {

/* Levenshtein distance (insert, delete, substitute, adjacent swap counts one). */
size_t edit_distance(std::string_view a, std::string_view b);

/*
 * Up to `max` candidates closest to `name`, best first, ties in input order; only those close enough
 * to be a plausible typo (distance at most max(2, len/3)).
 */
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string> &candidates,
                                       size_t max = 3);

/* "a, b or c" */
std::string join_alternatives(const std::vector<std::string> &names);

} // namespace tessera::mca

#endif
