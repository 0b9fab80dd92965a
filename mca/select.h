/*
 * The selection parameter of a framework (named after it: "btl", "coll", ...): which of its components
 * may be opened. "" allows every component, "a,b" only those (include list), "^a,b" every one but those
 * (exclude list). One '^', only at the very start: "a,^b" is ambiguous and is refused, as is an empty
 * entry. An include entry naming no component is an error (the user expects it to run); an exclude entry
 * naming none is only a warning (the result is what the user wanted anyway). Both name the closest
 * existing components. select_one / select_many (framework.h) are implemented here too.
 */
#ifndef TESSERA_MCA_SELECT_H
#define TESSERA_MCA_SELECT_H

#include <string>
#include <string_view>
#include <vector>

#include "mca/framework.h"

namespace tessera::mca {

struct Selection {
    bool exclude = false;
    std::vector<std::string> names; /* trimmed, no duplicates, in the order given */

    /* Whether the component may be opened; an empty include list (value "") allows every one. */
    bool allows(std::string_view component) const;
};

/*
 * Parses `value` of the selection parameter of `framework`. `components` are the framework's
 * components (for the unknown-name check and suggestions), `refused` its load errors (so that naming a
 * component that exists but was refused says why). Returns TESSERA_SUCCESS, or TESSERA_ERR_BAD_PARAM
 * after reporting each problem with the parameter, its value and its source.
 */
int parse_selection(std::string_view framework, std::string_view value, const std::vector<std::string> &components,
                    const std::vector<LoadError> &refused, Selection *out);

} // namespace tessera::mca

#endif
