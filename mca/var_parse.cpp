#include "mca/var_parse.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

#include "mca/var_store.h"

namespace tessera::mca {

namespace {

bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i])) {
            return false;
        }
    }
    return true;
}

/*
 * Digits of a whole number without sign: "0x" hex or decimal. Decimal on a leading zero on purpose:
 * strtol's octal reading of "010" as 8 surprises everyone who is not writing C.
 * Consumes as much as it can; `rest` gets what follows.
 */
std::optional<unsigned long long> parse_magnitude(std::string_view text, std::string_view &rest)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    unsigned long long v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (ptr == text.data()) {
        return std::nullopt;
    }
    rest = std::string_view(ptr, static_cast<size_t>(text.data() + text.size() - ptr));
    if (ec == std::errc::result_out_of_range) {
        return ULLONG_MAX; /* callers range-check; saturating keeps "too big" distinct from "not a number" */
    }
    return v;
}

std::optional<unsigned long long> parse_whole(std::string_view text)
{
    std::string_view rest;
    auto v = parse_magnitude(text, rest);
    if (!v || !rest.empty()) {
        return std::nullopt;
    }
    return v;
}

} // namespace

std::string_view trim(std::string_view text)
{
    while (!text.empty() && is_blank(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && is_blank(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

std::optional<bool> parse_bool(std::string_view text)
{
    text = trim(text);
    for (const char *yes : {"true", "yes", "on", "1"}) {
        if (iequals(text, yes)) {
            return true;
        }
    }
    for (const char *no : {"false", "no", "off", "0"}) {
        if (iequals(text, no)) {
            return false;
        }
    }
    return std::nullopt;
}

std::optional<int> parse_int(std::string_view text)
{
    text = trim(text);
    bool negative = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    auto mag = parse_whole(text);
    if (!mag) {
        return std::nullopt;
    }
    const unsigned long long limit =
        negative ? static_cast<unsigned long long>(INT_MAX) + 1 : static_cast<unsigned long long>(INT_MAX);
    if (*mag > limit) {
        return std::nullopt;
    }
    const long long v = negative ? -static_cast<long long>(*mag) : static_cast<long long>(*mag);
    return static_cast<int>(v);
}

std::optional<unsigned> parse_unsigned(std::string_view text)
{
    text = trim(text);
    auto mag = parse_whole(text);
    if (!mag || *mag > UINT_MAX) {
        return std::nullopt;
    }
    return static_cast<unsigned>(*mag);
}

std::optional<size_t> parse_size(std::string_view text)
{
    text = trim(text);
    std::string_view rest;
    auto mag = parse_magnitude(text, rest);
    if (!mag) {
        return std::nullopt;
    }
    rest = trim(rest);
    unsigned shift = 0;
    if (!rest.empty()) {
        switch (lower(rest[0])) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        case 't': shift = 40; break;
        case 'b': shift = 0; break;
        default: return std::nullopt;
        }
        if (lower(rest[0]) != 'b') {
            rest.remove_prefix(1);
            /* "64k", "64kB" and "64KiB" all mean 65536: the suffixes are powers of 1024 either way. */
            if (iequals(rest, "ib") || iequals(rest, "b")) {
                rest = {};
            }
        } else {
            rest.remove_prefix(1);
        }
        if (!rest.empty()) {
            return std::nullopt;
        }
    }
    const unsigned long long max = std::numeric_limits<size_t>::max();
    if (*mag > (max >> shift)) {
        return std::nullopt;
    }
    return static_cast<size_t>(*mag << shift);
}

std::optional<double> parse_double(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text[0] == '+') {
        text.remove_prefix(1);
    }
    double v = 0.0;
    /* from_chars, not strtod: a decimal point must not depend on the application's locale. */
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
        return std::nullopt;
    }
    return v;
}

std::optional<int> parse_enum(std::string_view text, const Enumerators &enumerators)
{
    text = trim(text);
    for (const auto &[value, name] : enumerators) {
        if (text == name) {
            return value;
        }
    }
    for (const auto &[value, name] : enumerators) {
        if (iequals(text, name)) {
            return value;
        }
    }
    if (auto number = parse_int(text)) {
        for (const auto &[value, name] : enumerators) {
            if (value == *number) {
                return value;
            }
        }
    }
    return std::nullopt;
}

std::optional<std::vector<std::string>> parse_list(std::string_view text)
{
    std::vector<std::string> entries;
    if (trim(text).empty()) {
        return entries;
    }
    while (true) {
        const size_t comma = text.find(',');
        const std::string_view entry = trim(text.substr(0, comma));
        if (entry.empty()) {
            return std::nullopt;
        }
        entries.emplace_back(entry);
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
    return entries;
}

std::string join_list(const std::vector<std::string> &entries)
{
    std::string out;
    for (const auto &e : entries) {
        if (!out.empty()) {
            out += ',';
        }
        out += e;
    }
    return out;
}

std::string format_bool(bool v)
{
    return v ? "true" : "false";
}

std::string format_double(double v)
{
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, ptr) : std::string("?");
}

std::string format_size(size_t bytes)
{
    static const struct {
        unsigned shift;
        const char *suffix;
    } units[] = {{40, "T"}, {30, "G"}, {20, "M"}, {10, "k"}};
    if (bytes != 0) {
        for (const auto &u : units) {
            const size_t unit = size_t{1} << u.shift;
            if (bytes % unit == 0) {
                return std::to_string(bytes / unit) + u.suffix;
            }
        }
    }
    return std::to_string(bytes);
}

std::string format_enum(int v, const Enumerators &enumerators)
{
    for (const auto &[value, name] : enumerators) {
        if (value == v) {
            return name;
        }
    }
    return std::to_string(v);
}

ParseResult parse_value(mca_var_type_t type, const Enumerators &enumerators, std::string_view text)
{
    ParseResult r;
    VarValue v;
    v.type = type;
    bool ok = false;
    switch (type) {
    case MCA_VAR_TYPE_BOOL:
        if (auto p = parse_bool(text)) {
            v.b = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_INT:
        if (auto p = parse_int(text)) {
            v.i = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_UNSIGNED:
        if (auto p = parse_unsigned(text)) {
            v.u = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_SIZE:
        if (auto p = parse_size(text)) {
            v.z = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_DOUBLE:
        if (auto p = parse_double(text)) {
            v.d = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_STRING:
        v.s = std::string(text);
        ok = true;
        break;
    case MCA_VAR_TYPE_ENUM:
        if (auto p = parse_enum(text, enumerators)) {
            v.i = *p;
            ok = true;
        }
        break;
    case MCA_VAR_TYPE_LIST:
        if (auto p = parse_list(text)) {
            v.s = join_list(*p);
            ok = true;
        }
        break;
    }
    if (ok) {
        r.value = std::move(v);
    } else {
        r.problem = "expected " + expected_text(type, enumerators);
    }
    return r;
}

std::string format_value(const VarValue &value, const Enumerators &enumerators)
{
    switch (value.type) {
    case MCA_VAR_TYPE_BOOL: return format_bool(value.b);
    case MCA_VAR_TYPE_INT: return std::to_string(value.i);
    case MCA_VAR_TYPE_UNSIGNED: return std::to_string(value.u);
    case MCA_VAR_TYPE_SIZE: return format_size(value.z);
    case MCA_VAR_TYPE_DOUBLE: return format_double(value.d);
    case MCA_VAR_TYPE_ENUM: return format_enum(value.i, enumerators);
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST: return value.s;
    }
    return {};
}

std::string expected_text(mca_var_type_t type, const Enumerators &enumerators)
{
    switch (type) {
    case MCA_VAR_TYPE_BOOL: return "a boolean (true/false, yes/no, on/off or 1/0)";
    case MCA_VAR_TYPE_INT:
        return "an integer (decimal or 0x hex) from " + std::to_string(INT_MIN) + " to " +
               std::to_string(INT_MAX);
    case MCA_VAR_TYPE_UNSIGNED:
        return "an unsigned integer (decimal or 0x hex, no sign) from 0 to " + std::to_string(UINT_MAX);
    case MCA_VAR_TYPE_SIZE:
        return "a size in bytes: a whole number with an optional k, M, G or T suffix (powers of 1024)";
    case MCA_VAR_TYPE_DOUBLE: return "a finite floating-point number";
    case MCA_VAR_TYPE_STRING: return "a string";
    case MCA_VAR_TYPE_LIST: return "a comma-separated list without empty entries";
    case MCA_VAR_TYPE_ENUM: {
        std::string out = "one of: ";
        for (size_t i = 0; i < enumerators.size(); ++i) {
            if (i > 0) {
                out += ", ";
            }
            out += enumerators[i].second + " (" + std::to_string(enumerators[i].first) + ")";
        }
        return out + " (the name or the number)";
    }
    }
    return "a valid value";
}

std::string type_name(mca_var_type_t type)
{
    switch (type) {
    case MCA_VAR_TYPE_BOOL: return "bool";
    case MCA_VAR_TYPE_INT: return "int";
    case MCA_VAR_TYPE_UNSIGNED: return "unsigned";
    case MCA_VAR_TYPE_SIZE: return "size";
    case MCA_VAR_TYPE_DOUBLE: return "double";
    case MCA_VAR_TYPE_STRING: return "string";
    case MCA_VAR_TYPE_ENUM: return "enum";
    case MCA_VAR_TYPE_LIST: return "list";
    }
    return "unknown";
}

std::string scope_name(mca_var_scope_t scope)
{
    switch (scope) {
    case MCA_VAR_SCOPE_CONSTANT: return "constant";
    case MCA_VAR_SCOPE_READONLY: return "readonly";
    case MCA_VAR_SCOPE_LOCAL: return "local";
    case MCA_VAR_SCOPE_GROUP: return "group";
    case MCA_VAR_SCOPE_ALL: return "all";
    }
    return "unknown";
}

VarValue load_value(mca_var_type_t type, const void *storage, const Enumerators &enumerators)
{
    VarValue v;
    v.type = type;
    switch (type) {
    case MCA_VAR_TYPE_BOOL: v.b = *static_cast<const bool *>(storage); break;
    case MCA_VAR_TYPE_INT:
    case MCA_VAR_TYPE_ENUM: v.i = *static_cast<const int *>(storage); break;
    case MCA_VAR_TYPE_UNSIGNED: v.u = *static_cast<const unsigned *>(storage); break;
    case MCA_VAR_TYPE_SIZE: v.z = *static_cast<const size_t *>(storage); break;
    case MCA_VAR_TYPE_DOUBLE: v.d = *static_cast<const double *>(storage); break;
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST: {
        const char *p = *static_cast<const char *const *>(storage);
        if (p == nullptr) {
            v.is_null = true;
        } else if (auto parsed = parse_value(type, enumerators, p); parsed.ok()) {
            v.s = parsed.value->s;
        } else {
            v.s = p;
        }
        break;
    }
    }
    return v;
}

void store_value(const VarValue &value, void *storage, std::string &text)
{
    switch (value.type) {
    case MCA_VAR_TYPE_BOOL: *static_cast<bool *>(storage) = value.b; break;
    case MCA_VAR_TYPE_INT:
    case MCA_VAR_TYPE_ENUM: *static_cast<int *>(storage) = value.i; break;
    case MCA_VAR_TYPE_UNSIGNED: *static_cast<unsigned *>(storage) = value.u; break;
    case MCA_VAR_TYPE_SIZE: *static_cast<size_t *>(storage) = value.z; break;
    case MCA_VAR_TYPE_DOUBLE: *static_cast<double *>(storage) = value.d; break;
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST:
        if (value.is_null) {
            *static_cast<const char **>(storage) = nullptr;
        } else {
            if (text != value.s) {
                text = value.s;
            }
            *static_cast<const char **>(storage) = text.c_str();
        }
        break;
    }
}

Enumerators enumerators_from_c(const mca_var_enum_value_t *table)
{
    Enumerators out;
    for (const mca_var_enum_value_t *e = table; e != nullptr && e->name != nullptr; ++e) {
        out.emplace_back(e->value, e->name);
    }
    return out;
}

} // namespace tessera::mca
