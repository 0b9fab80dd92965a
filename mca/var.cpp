/*
 * The parameter store: registered variables, their synonyms, and resolution of each variable's value
 * from the settings that var_sources collected. Settings may arrive before or after the variable they
 * name is registered, so every change re-resolves what it touches.
 */
#include "mca/var.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mca/constants.h"
#include "mca/report.h"
#include "mca/suggest.h"
#include "mca/var_parse.h"
#include "mca/var_sources.h"
#include "mca/var_store.h"
#include "mca/var_tool.h"

namespace tessera::mca {

namespace {

struct Synonym {
    std::string full_name;
    unsigned flags = 0;
};

struct Var {
    int index = -1;
    std::string full_name;
    std::string framework;
    std::string component;
    std::string name;
    std::string help;
    mca_var_type_t type = MCA_VAR_TYPE_STRING;
    Enumerators enumerators;
    int level = 1;
    mca_var_scope_t scope = MCA_VAR_SCOPE_LOCAL;
    unsigned flags = 0;
    void *storage = nullptr;
    VarValue default_value;
    VarValue value;
    std::optional<VarValue> min; /* the range of a row, both ends included */
    std::optional<VarValue> max;
    Source source;
    std::vector<Synonym> synonyms;
    std::string (*runtime_check)() = nullptr; /* set_runtime_check */
    /* What *storage points to for STRING and LIST. Var objects never move (held by unique_ptr), so
     * the pointer stays valid until the value changes. */
    std::string text;
};

struct Store {
    std::mutex mutex;
    bool initialized = false;
    std::vector<std::unique_ptr<Var>> vars;
    std::map<std::string, int, std::less<>> by_name; /* full names and synonyms */
    detail::SettingsTable settings;
    detail::SourceReader reader;
    std::set<std::string> said; /* messages given once: bad values, deprecated names, unknown names */
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    const char *param_files = nullptr; /* storage of mca_param_files */
    int param_files_index = -1;
};

Store &store()
{
    static Store s;
    return s;
}

void error(Store &s, const std::string &text)
{
    report(Severity::Error, text);
    s.errors.push_back(text);
}

void warning(Store &s, const std::string &text)
{
    report(Severity::Warning, text);
    s.warnings.push_back(text);
}

bool first_time(Store &s, std::string key)
{
    return s.said.insert(std::move(key)).second;
}

std::string in_quotes(std::string_view text)
{
    return "\"" + std::string(text) + "\"";
}

std::string full_name_of(const char *framework, const char *component, const char *name)
{
    std::string out;
    for (const char *part : {framework, component, name}) {
        if (part != nullptr && *part != '\0') {
            if (!out.empty()) {
                out += '_';
            }
            out += part;
        }
    }
    return out;
}

/* Names go into environment variable names and INI keys, so only what both accept. */
bool valid_name(std::string_view name)
{
    if (name.empty()) {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

std::string shown(const Var &v, const std::string &text)
{
    return (v.flags & MCA_VAR_FLAG_HIDDEN_VALUE) != 0 ? "(hidden)" : text;
}

struct Candidate {
    const detail::Setting *setting;
    bool real;
    const Synonym *synonym;
};

/* Picks the highest valid setting; reports each bad one and each use of a deprecated name once. */
void resolve(Store &s, Var &v)
{
    std::vector<Candidate> cands;
    if (const auto *list = s.settings.find(v.full_name)) {
        for (const auto &setting : *list) {
            cands.push_back({&setting, true, nullptr});
        }
    }
    for (const auto &syn : v.synonyms) {
        if (const auto *list = s.settings.find(syn.full_name)) {
            for (const auto &setting : *list) {
                cands.push_back({&setting, false, &syn});
            }
        }
    }
    std::sort(cands.begin(), cands.end(), [](const Candidate &a, const Candidate &b) {
        return detail::outranks(*a.setting, a.real, *b.setting, b.real);
    });

    const bool settable = v.scope != MCA_VAR_SCOPE_CONSTANT && v.scope != MCA_VAR_SCOPE_READONLY;
    std::vector<ParseResult> parsed;
    parsed.reserve(cands.size());
    const Candidate *chosen = nullptr;
    for (const auto &c : cands) {
        parsed.push_back(parse_value(v.type, v.enumerators, c.setting->value));
        if (settable && chosen == nullptr && parsed.back().ok()) {
            chosen = &c;
            v.value = *parsed.back().value;
            v.source = c.setting->source;
        }
    }
    if (chosen == nullptr) {
        v.value = v.default_value;
        v.source = Source{};
    }

    const std::string in_use =
        "using " + in_quotes(shown(v, format_value(v.value, v.enumerators))) + " (" + v.source.describe() + ")";
    for (size_t i = 0; i < cands.size(); ++i) {
        const Candidate &c = cands[i];
        const detail::Setting &set = *c.setting;
        const std::string as = c.real ? "" : " (set as " + in_quotes(set.name) + ")";
        if (!c.real && (c.synonym->flags & MCA_VAR_FLAG_DEPRECATED) != 0 &&
            first_time(s, "deprecated\n" + set.name)) {
            warning(s, set.name + " is deprecated; use " + v.full_name + " (set in " + set.where() + ")");
        }
        const std::string key = v.full_name + "\n" + set.name + "\n" + set.source.describe() + "\n" + set.value;
        if (!settable) {
            if (first_time(s, "unsettable\n" + key)) {
                error(s, "parameter " + in_quotes(v.full_name) + as + " is " + scope_name(v.scope) +
                             " and cannot be set; ignoring " + in_quotes(shown(v, set.value)) + " from " +
                             set.where());
            }
            continue;
        }
        if (!parsed[i].ok() && first_time(s, "bad\n" + key)) {
            error(s, "bad value " + in_quotes(shown(v, set.value)) + " for parameter " + in_quotes(v.full_name) + as +
                         " from " + set.where() + ": " + parsed[i].problem + "; " + in_use);
        }
    }
    store_value(v.value, v.storage, v.text);
}

void resolve_all(Store &s)
{
    for (auto &v : s.vars) {
        resolve(s, *v);
    }
}

/* row_default: the default a row gives; without one the default is what *storage holds. */
int register_locked(Store &s, const char *framework, const char *component, const char *name,
                    const char *help, mca_var_type_t type, const mca_var_enum_value_t *enumerators,
                    mca_var_info_level_t level, mca_var_scope_t scope, unsigned flags, void *storage,
                    const VarValue *row_default = nullptr)
{
    const std::string full = full_name_of(framework, component, name);
    const std::string what = "cannot register parameter " + in_quotes(full) + ": ";
    if (!valid_name(full)) {
        error(s, what + "a name needs letters, digits and '_' only, and must not be empty");
        return TESSERA_ERR_BAD_PARAM;
    }
    if (storage == nullptr) {
        error(s, what + "no storage given");
        return TESSERA_ERR_BAD_PARAM;
    }
    if (type < MCA_VAR_TYPE_BOOL || type > MCA_VAR_TYPE_LIST) {
        error(s, what + "unknown type " + std::to_string(static_cast<int>(type)));
        return TESSERA_ERR_BAD_PARAM;
    }
    if (level < MCA_INFO_LVL_1 || level > MCA_INFO_LVL_9) {
        error(s, what + "level " + std::to_string(static_cast<int>(level)) + " is not between 1 and 9");
        return TESSERA_ERR_BAD_PARAM;
    }
    if (scope < MCA_VAR_SCOPE_CONSTANT || scope > MCA_VAR_SCOPE_ALL) {
        error(s, what + "unknown scope " + std::to_string(static_cast<int>(scope)));
        return TESSERA_ERR_BAD_PARAM;
    }
    Enumerators enums;
    if (type == MCA_VAR_TYPE_ENUM) {
        enums = enumerators_from_c(enumerators);
        if (enums.empty()) {
            error(s, what + "an enum needs at least one named value");
            return TESSERA_ERR_BAD_PARAM;
        }
    }

    Var *v = nullptr;
    if (auto it = s.by_name.find(full); it != s.by_name.end()) {
        Var &old = *s.vars[static_cast<size_t>(it->second)];
        if (old.full_name != full) {
            error(s, what + "the name is already a synonym of " + in_quotes(old.full_name));
            return TESSERA_ERR_EXISTS;
        }
        if (old.type != type) {
            error(s, what + "it is registered already with type " + type_name(old.type) + ", not " +
                         type_name(type));
            return TESSERA_ERR_EXISTS;
        }
        v = &old; /* the same component again, e.g. after its DSO was reloaded: bind the new storage */
    } else {
        auto fresh = std::make_unique<Var>();
        fresh->index = static_cast<int>(s.vars.size());
        fresh->full_name = full;
        fresh->type = type;
        s.by_name.emplace(full, fresh->index);
        v = fresh.get();
        s.vars.push_back(std::move(fresh));
    }
    v->framework = framework != nullptr ? framework : "";
    v->component = component != nullptr ? component : "";
    v->name = name != nullptr ? name : "";
    v->help = help != nullptr ? help : "";
    v->enumerators = std::move(enums);
    v->level = level;
    v->scope = scope;
    v->flags = flags;
    v->min.reset();
    v->max.reset();
    if (row_default != nullptr) {
        v->default_value = *row_default;
        v->storage = storage;
    } else if (v->storage != storage) {
        /* Same storage again means *storage holds our resolved value, not the default any more. */
        v->default_value = load_value(type, storage, v->enumerators);
        v->storage = storage;
    }
    resolve(s, *v);
    return v->index;
}

bool has_range(mca_var_type_t type)
{
    return type == MCA_VAR_TYPE_INT || type == MCA_VAR_TYPE_UNSIGNED || type == MCA_VAR_TYPE_SIZE ||
           type == MCA_VAR_TYPE_DOUBLE;
}

/* a < b, for the types with a range. */
bool below(const VarValue &a, const VarValue &b)
{
    switch (a.type) {
    case MCA_VAR_TYPE_INT: return a.i < b.i;
    case MCA_VAR_TYPE_UNSIGNED: return a.u < b.u;
    case MCA_VAR_TYPE_SIZE: return a.z < b.z;
    case MCA_VAR_TYPE_DOUBLE: return a.d < b.d;
    default: return false;
    }
}

bool in_range(const Var &v, const VarValue &value)
{
    return !(v.min && below(value, *v.min)) && !(v.max && below(*v.max, value));
}

std::string range_of(const std::optional<VarValue> &min, const std::optional<VarValue> &max)
{
    const auto text = [](const std::optional<VarValue> &end) { return end ? format_value(*end, {}) : std::string(); };
    if (min && max) {
        return text(min) + ".." + text(max);
    }
    return min ? "at least " + text(min) : max ? "at most " + text(max) : std::string();
}

/* A value as the range errors have always said it: digits, never a size suffix. */
std::string plain_number(const VarValue &value)
{
    switch (value.type) {
    case MCA_VAR_TYPE_INT: return std::to_string(value.i);
    case MCA_VAR_TYPE_UNSIGNED: return std::to_string(value.u);
    case MCA_VAR_TYPE_SIZE: return std::to_string(value.z);
    case MCA_VAR_TYPE_DOUBLE: return std::to_string(value.d);
    default: return format_value(value, {});
    }
}

int register_row(Store &s, const char *framework, const char *component, const mca_var_row_t &row,
                 mca_var_scope_t scope)
{
    const std::string what = "cannot register parameter " + in_quotes(full_name_of(framework, component, row.name)) + ": ";
    const Enumerators enums = row.type == MCA_VAR_TYPE_ENUM ? enumerators_from_c(row.enumerators) : Enumerators{};
    VarValue def;
    def.type = row.type;
    if (row.default_value == nullptr) {
        if (row.type != MCA_VAR_TYPE_STRING && row.type != MCA_VAR_TYPE_LIST) {
            error(s, what + "a parameter of type " + type_name(row.type) + " needs a default");
            return TESSERA_ERR_BAD_PARAM;
        }
        def.is_null = true;
    } else {
        ParseResult parsed = parse_value(row.type, enums, row.default_value);
        if (!parsed.ok()) {
            error(s, what + "its default " + in_quotes(row.default_value) + " is not " + parsed.problem);
            return TESSERA_ERR_BAD_PARAM;
        }
        def = *parsed.value;
    }
    std::optional<VarValue> ends[2];
    const char *texts[2] = {row.min, row.max};
    for (int k = 0; k < 2; ++k) {
        if (texts[k] == nullptr) {
            continue;
        }
        if (!has_range(row.type)) {
            error(s, what + "a parameter of type " + type_name(row.type) + " has no range");
            return TESSERA_ERR_BAD_PARAM;
        }
        ParseResult parsed = parse_value(row.type, enums, texts[k]);
        if (!parsed.ok()) {
            error(s, what + (k == 0 ? "its minimum " : "its maximum ") + in_quotes(texts[k]) + " is not " +
                         parsed.problem);
            return TESSERA_ERR_BAD_PARAM;
        }
        ends[k] = *parsed.value;
    }
    if (ends[0] && ends[1] && below(*ends[1], *ends[0])) {
        error(s, what + "its range " + range_of(ends[0], ends[1]) + " is empty");
        return TESSERA_ERR_BAD_PARAM;
    }
    if ((ends[0] && below(def, *ends[0])) || (ends[1] && below(*ends[1], def))) {
        error(s, what + "its default " + format_value(def, enums) + " is not in its range " + range_of(ends[0], ends[1]));
        return TESSERA_ERR_BAD_PARAM;
    }
    const int index = register_locked(s, framework, component, row.name, row.help, row.type, row.enumerators,
                                      row.level, scope, MCA_VAR_FLAG_NONE, row.storage, &def);
    if (index >= 0) {
        s.vars[static_cast<size_t>(index)]->min = ends[0];
        s.vars[static_cast<size_t>(index)]->max = ends[1];
    }
    return index;
}

/*
 * Files named by mca_param_files in any source, not only the one that wins: a file may name further
 * files even when the environment names others. Lower sources first, so that among these files one
 * named by a higher source overrides. A relative name in a file is relative to that file.
 */
std::vector<std::string> param_files_to_read(const Store &s)
{
    std::vector<std::string> out;
    const auto *settings = s.settings.find("mca_param_files");
    if (settings == nullptr) {
        return out;
    }
    std::vector<const detail::Setting *> ordered;
    for (const auto &set : *settings) {
        ordered.push_back(&set);
    }
    std::sort(ordered.begin(), ordered.end(), [](const detail::Setting *a, const detail::Setting *b) {
        return detail::outranks(*b, true, *a, true);
    });
    for (const detail::Setting *set : ordered) {
        auto entries = parse_list(set->value);
        if (!entries) {
            continue; /* resolve() reports the bad value */
        }
        for (const auto &e : *entries) {
            std::filesystem::path p(e);
            if (p.is_relative() && !set->source.file.empty()) {
                p = std::filesystem::path(set->source.file).parent_path() / p;
            }
            out.push_back(p.string());
        }
    }
    return out;
}

/* Reads what has not been read yet; returns whether it went without errors. */
bool load_locked(Store &s)
{
    const size_t errors_before = s.errors.size();
    auto on_error = [&s](const std::string &text) { error(s, text); };
    s.reader.read_base(s.settings, on_error);
    /* Files may name further files through mca_param_files: read until nothing new turns up. */
    do {
        for (const auto &path : param_files_to_read(s)) {
            s.reader.queue_tune_file(path);
        }
    } while (s.reader.read_queued(s.settings, on_error));
    resolve_all(s);
    return s.errors.size() == errors_before;
}

/* The MCA core's own parameters, then the sources: the first use of the store sets it up. */
bool ensure_init(Store &s)
{
    if (s.initialized) {
        return true;
    }
    s.initialized = true;
    s.param_files = nullptr;
    s.param_files_index =
        register_locked(s, "mca", nullptr, "param_files",
                        "Comma-separated list of further parameter files (INI, like --tune files), read after "
                        "the --tune files; a later file overrides an earlier one. Files named in every source "
                        "are read, and a relative name in a file is relative to that file",
                        MCA_VAR_TYPE_LIST, nullptr, MCA_INFO_LVL_5, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                        &s.param_files);
    return load_locked(s);
}

VarInfo info_of(const Var &v)
{
    VarInfo info;
    info.index = v.index;
    info.full_name = v.full_name;
    info.framework = v.framework;
    info.component = v.component;
    info.name = v.name;
    info.help = v.help;
    info.type = v.type;
    info.type_name = type_name(v.type);
    info.enumerators = v.enumerators;
    info.level = v.level;
    info.scope = v.scope;
    info.scope_name = scope_name(v.scope);
    info.flags = v.flags;
    info.value = shown(v, format_value(v.value, v.enumerators));
    info.default_value = shown(v, format_value(v.default_value, v.enumerators));
    info.min_value = v.min ? format_value(*v.min, v.enumerators) : "";
    info.max_value = v.max ? format_value(*v.max, v.enumerators) : "";
    info.source = v.source;
    for (const auto &syn : v.synonyms) {
        info.synonyms.push_back(syn.full_name);
        info.synonym_deprecated.push_back((syn.flags & MCA_VAR_FLAG_DEPRECATED) != 0);
    }
    return info;
}

} // namespace

std::string range_text(const VarInfo &v)
{
    if (!v.min_value.empty() && !v.max_value.empty()) {
        return v.min_value + ".." + v.max_value;
    }
    return !v.min_value.empty() ? "at least " + v.min_value
                                : !v.max_value.empty() ? "at most " + v.max_value : std::string();
}

void set_command_line(std::string_view name, std::string_view value)
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    s.settings.set(name, value, Source{SourceKind::CommandLine, {}, 0});
    if (!s.initialized) {
        return; /* resolved when the store is first used */
    }
    auto it = s.by_name.find(name);
    if (it == s.by_name.end()) {
        return;
    }
    if (it->second == s.param_files_index) {
        load_locked(s);
    } else {
        resolve(s, *s.vars[static_cast<size_t>(it->second)]);
    }
}

void add_tune_file(std::string_view path)
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    s.reader.queue_tune_file(std::string(path));
    if (s.initialized) {
        load_locked(s);
    }
}

int load_sources()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    const bool ok = s.initialized ? load_locked(s) : ensure_init(s);
    return ok ? TESSERA_SUCCESS : TESSERA_ERR_BAD_PARAM;
}

std::vector<VarInfo> list_vars()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    std::vector<VarInfo> out;
    out.reserve(s.vars.size());
    for (const auto &v : s.vars) {
        out.push_back(info_of(*v));
    }
    return out;
}

std::optional<VarInfo> find_var(std::string_view full_name)
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    auto it = s.by_name.find(full_name);
    if (it == s.by_name.end()) {
        return std::nullopt;
    }
    return info_of(*s.vars[static_cast<size_t>(it->second)]);
}

int warn_unknown_names() { return warn_unknown_names({}); }

std::vector<std::string> unknown_names()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    std::vector<std::string> names;
    for (const auto &[name, settings] : s.settings.all()) {
        if (!s.by_name.contains(name)) {
            names.push_back(name);
        }
    }
    return names;
}

int warn_unknown_names(const std::vector<std::string> &already_warned)
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    std::vector<std::string> known;
    for (const auto &v : s.vars) {
        known.push_back(v->full_name);
        for (const auto &syn : v->synonyms) {
            known.push_back(syn.full_name);
        }
    }
    int count = 0;
    for (const auto &[name, settings] : s.settings.all()) {
        if (s.by_name.contains(name)) {
            continue;
        }
        const bool warned = std::find(already_warned.begin(), already_warned.end(), name) != already_warned.end();
        for (const auto &set : settings) {
            ++count;
            if (warned || !first_time(s, "unknown\n" + name + "\n" + set.source.describe())) {
                continue;
            }
            std::string text = "unknown parameter " + in_quotes(name) + " set in " + set.where();
            if (auto close = closest_names(name, known); !close.empty()) {
                text += "; did you mean: " + join_alternatives(close) + "?";
            }
            warning(s, text);
        }
    }
    return count;
}

int error_count()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    return static_cast<int>(s.errors.size());
}

std::vector<std::string> error_messages()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    return s.errors;
}

std::vector<std::string> warning_messages()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    return s.warnings;
}

size_t var_count()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    return s.vars.size();
}

std::optional<VarValue> var_value(int index)
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    ensure_init(s);
    if (index < 0 || static_cast<size_t>(index) >= s.vars.size()) {
        return std::nullopt;
    }
    return s.vars[static_cast<size_t>(index)]->value;
}

std::string set_from_tool(int index, const VarValue &value)
{
    Store &s = store();
    std::unique_lock lock(s.mutex);
    ensure_init(s);
    if (index < 0 || static_cast<size_t>(index) >= s.vars.size()) {
        return "no parameter has index " + std::to_string(index);
    }
    Var &v = *s.vars[static_cast<size_t>(index)];
    VarValue typed = value;
    typed.type = v.type;
    const std::string text = format_value(typed, v.enumerators);
    /* Through the text, as every other source: the same parser says what is valid. */
    ParseResult parsed = parse_value(v.type, v.enumerators, text);
    if (!parsed.ok()) {
        return "bad value " + in_quotes(text) + " for parameter " + in_quotes(v.full_name) + ": " + parsed.problem;
    }
    if (!in_range(v, *parsed.value)) {
        return "value " + plain_number(*parsed.value) + " of parameter " + in_quotes(v.full_name) +
               " is not in its range " + range_of(v.min, v.max);
    }
    std::optional<std::string> previous;
    if (const std::vector<detail::Setting> *old_list = s.settings.find(v.full_name)) {
        for (const auto &set : *old_list) {
            if (set.source.kind == SourceKind::Tool) {
                previous = set.value;
            }
        }
    }
    s.settings.set(v.full_name, text, Source{SourceKind::Tool, {}, 0});
    resolve(s, v);
    std::string (*check)() = v.runtime_check;
    if (check == nullptr) {
        return "";
    }
    /* The owner's check may itself ask the store (a message naming the value's source). */
    lock.unlock();
    std::string problem = check();
    if (problem.empty()) {
        return "";
    }
    lock.lock();
    if (previous) {
        s.settings.set(v.full_name, *previous, Source{SourceKind::Tool, {}, 0});
    } else {
        s.settings.remove(v.full_name, SourceKind::Tool);
    }
    resolve(s, v);
    return problem;
}

void set_runtime_check(int index, std::string (*check)())
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    if (index >= 0 && static_cast<size_t>(index) < s.vars.size()) {
        s.vars[static_cast<size_t>(index)]->runtime_check = check;
    }
}

void vars_finalize()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    s.vars.clear();
    s.by_name.clear();
    s.settings.clear();
    s.reader.clear();
    s.said.clear();
    s.errors.clear();
    s.warnings.clear();
    s.param_files = nullptr;
    s.param_files_index = -1;
    s.initialized = false;
}

} // namespace tessera::mca

using tessera::mca::store;

extern "C" int mca_var_register(const char *framework, const char *component, const char *name,
                                const char *help, mca_var_type_t type, const mca_var_enum_value_t *enumerators,
                                mca_var_info_level_t level, mca_var_scope_t scope, unsigned flags, void *storage)
{
    using namespace tessera::mca;
    try {
        auto &s = store();
        std::lock_guard lock(s.mutex);
        ensure_init(s);
        return register_locked(s, framework, component, name, help, type, enumerators, level, scope, flags,
                               storage);
    } catch (...) {
        return TESSERA_ERR_OUT_OF_RESOURCE; /* nothing may escape into C */
    }
}

extern "C" int mca_var_register_table(const char *framework, const char *component, const mca_var_decl_t *decls,
                                      size_t count, mca_var_scope_t scope)
{
    for (size_t i = 0; i < count; ++i) {
        const mca_var_decl_t &d = decls[i];
        const int rc = mca_var_register(framework, component, d.name, d.help, d.type, d.enumerators, d.level, scope,
                                        MCA_VAR_FLAG_NONE, d.storage);
        if (rc < 0) {
            return rc;
        }
    }
    return TESSERA_SUCCESS;
}

extern "C" int mca_var_register_rows(const char *framework, const char *component, const mca_var_row_t *rows,
                                     size_t count, mca_var_scope_t scope)
{
    using namespace tessera::mca;
    try {
        auto &s = store();
        std::lock_guard lock(s.mutex);
        ensure_init(s);
        for (size_t i = 0; i < count; ++i) {
            const int rc = register_row(s, framework, component, rows[i], scope);
            if (rc < 0) {
                return rc;
            }
        }
        return TESSERA_SUCCESS;
    } catch (...) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
}

extern "C" int mca_var_check_ranges(const char *framework, const char *component)
{
    using namespace tessera::mca;
    try {
        struct Bad {
            std::string name, value, rule;
        };
        std::vector<Bad> bad;
        {
            auto &s = store();
            std::lock_guard lock(s.mutex);
            ensure_init(s);
            const std::string_view fw = framework != nullptr ? framework : "";
            const std::string_view comp = component != nullptr ? component : "";
            for (const auto &v : s.vars) {
                if (v->framework == fw && v->component == comp && !in_range(*v, v->value)) {
                    const std::string range = range_of(v->min, v->max);
                    bad.push_back({v->full_name, plain_number(v->value),
                                   (v->min && v->max ? "is not in " : "must be ") + range});
                }
            }
        }
        /* bad_value looks the source up in the store: outside the lock. */
        for (const Bad &b : bad) {
            report(Severity::Error, bad_value(b.name, b.value, b.rule));
        }
        return static_cast<int>(bad.size());
    } catch (...) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
}

extern "C" int mca_var_register_synonym(int var_index, const char *framework, const char *component,
                                        const char *name, unsigned flags)
{
    using namespace tessera::mca;
    try {
        auto &s = store();
        std::lock_guard lock(s.mutex);
        ensure_init(s);
        const std::string full = full_name_of(framework, component, name);
        if (var_index < 0 || static_cast<size_t>(var_index) >= s.vars.size()) {
            error(s, "cannot register synonym " + in_quotes(full) + ": no parameter with index " +
                         std::to_string(var_index));
            return TESSERA_ERR_BAD_PARAM;
        }
        Var &v = *s.vars[static_cast<size_t>(var_index)];
        const std::string what = "cannot register " + in_quotes(full) + " as a synonym of " + in_quotes(v.full_name) + ": ";
        if (!valid_name(full)) {
            error(s, what + "a name needs letters, digits and '_' only, and must not be empty");
            return TESSERA_ERR_BAD_PARAM;
        }
        if (auto it = s.by_name.find(full); it != s.by_name.end()) {
            if (it->second != var_index) {
                error(s, what + "the name belongs to " + in_quotes(s.vars[static_cast<size_t>(it->second)]->full_name));
                return TESSERA_ERR_EXISTS;
            }
            if (full == v.full_name) {
                error(s, what + "it is the parameter's own name");
                return TESSERA_ERR_BAD_PARAM;
            }
            for (auto &syn : v.synonyms) {
                if (syn.full_name == full) {
                    syn.flags = flags; /* registered again (DSO reload) */
                }
            }
        } else {
            v.synonyms.push_back(Synonym{full, flags});
            s.by_name.emplace(full, var_index);
        }
        resolve(s, v);
        return var_index;
    } catch (...) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
}

extern "C" int mca_var_find(const char *full_name)
{
    using namespace tessera::mca;
    try {
        if (full_name == nullptr) {
            return TESSERA_ERR_NOT_FOUND;
        }
        auto &s = store();
        std::lock_guard lock(s.mutex);
        ensure_init(s);
        auto it = s.by_name.find(std::string_view(full_name));
        return it == s.by_name.end() ? TESSERA_ERR_NOT_FOUND : it->second;
    } catch (...) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
}

extern "C" int mca_var_add_flags(int var_index, unsigned flags)
{
    using namespace tessera::mca;
    auto &s = store();
    std::lock_guard lock(s.mutex);
    if (var_index < 0 || static_cast<size_t>(var_index) >= s.vars.size()) {
        return TESSERA_ERR_NOT_FOUND;
    }
    s.vars[static_cast<size_t>(var_index)]->flags |= flags;
    return TESSERA_SUCCESS;
}
