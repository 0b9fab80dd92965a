/*
 * Typed values of MCA parameters: parsing the text a user wrote and printing the canonical text that
 * tessera_info shows. Kept apart from the store so that every type's rules live in one place and can be
 * tested on their own.
 */
#ifndef TESSERA_MCA_VAR_PARSE_H
#define TESSERA_MCA_VAR_PARSE_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mca/var.h"

namespace tessera::mca {

using Enumerators = std::vector<std::pair<int, std::string>>;

/* One value of any type; only the member matching `type` is meaningful. */
struct VarValue {
    mca_var_type_t type = MCA_VAR_TYPE_STRING;
    bool b = false;
    int i = 0;      /* INT and ENUM */
    unsigned u = 0; /* UNSIGNED */
    size_t z = 0;   /* SIZE */
    double d = 0.0;
    std::string s;        /* STRING, and LIST in canonical form "a,b,c" */
    bool is_null = false; /* STRING or LIST whose default was a NULL pointer */

    bool operator==(const VarValue &) const = default;
};

/* Either a value or `problem`: what is wrong and what was expected ("expected an integer ..."). */
struct ParseResult {
    std::optional<VarValue> value;
    std::string problem;
    bool ok() const { return value.has_value(); }
};

ParseResult parse_value(mca_var_type_t type, const Enumerators &enumerators, std::string_view text);
std::string format_value(const VarValue &value, const Enumerators &enumerators);

/* The typed parsers behind parse_value; std::nullopt for text that is not valid. */
std::optional<bool> parse_bool(std::string_view text);
std::optional<int> parse_int(std::string_view text);
std::optional<unsigned> parse_unsigned(std::string_view text);
std::optional<size_t> parse_size(std::string_view text);
std::optional<double> parse_double(std::string_view text);
std::optional<int> parse_enum(std::string_view text, const Enumerators &enumerators);
/* Entries trimmed; "" and blanks give an empty list; an empty entry ("a,,b", "a,") is invalid. */
std::optional<std::vector<std::string>> parse_list(std::string_view text);

std::string format_bool(bool v);
std::string format_double(double v);
std::string format_enum(int v, const Enumerators &enumerators);
std::string join_list(const std::vector<std::string> &entries);

/* What a valid value looks like, for error messages: "an integer (decimal or 0x hex) from ... to ...". */
std::string expected_text(mca_var_type_t type, const Enumerators &enumerators);
/* "bool", "int", "unsigned", "size", "double", "string", "enum", "list" */
std::string type_name(mca_var_type_t type);
/* "constant", "readonly", "local", "group", "all" */
std::string scope_name(mca_var_scope_t scope);

/* Reads the value a component's storage holds (its default); a valid LIST comes back canonical. */
VarValue load_value(mca_var_type_t type, const void *storage, const Enumerators &enumerators);
/*
 * Writes `value` to a component's storage. STRING and LIST point *storage at `text`, which the caller
 * keeps alive and unmoved; it is only reassigned when the text changes, so the pointer stays stable.
 */
void store_value(const VarValue &value, void *storage, std::string &text);

/* The enumerator table of the C API (ends with {0, NULL}) as a vector. */
Enumerators enumerators_from_c(const mca_var_enum_value_t *table);

/* Leading and trailing blanks (space, tab, CR, LF) removed. */
std::string_view trim(std::string_view text);

} // namespace tessera::mca

#endif
