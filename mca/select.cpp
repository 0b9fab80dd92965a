#include "mca/select.h"

#include <algorithm>

#include "mca/framework_state.h"
#include "mca/report.h"
#include "mca/suggest.h"
#include "mca/var_store.h"

namespace tessera::mca {

namespace {

std::string trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

std::string join(const std::vector<std::string> &names)
{
    std::string out;
    for (const auto &n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

/* 'bad value "tcp,^self" for parameter "btl" from command line', as the parameter system says it. */
std::string setting(std::string_view framework, std::string_view value, bool bad = true)
{
    const auto info = find_var(framework);
    const std::string source = info ? info->source.describe() : "default";
    return std::string(bad ? "bad value" : "value") + " \"" + std::string(value) + "\" for parameter \"" +
           std::string(framework) + "\" from " + source;
}

std::string component_list(std::string_view framework, const std::vector<std::string> &components)
{
    if (components.empty()) {
        return "the " + std::string(framework) + " framework has no components";
    }
    std::vector<std::string> sorted = components;
    std::sort(sorted.begin(), sorted.end());
    return "the " + std::string(framework) + " components are: " + join(sorted);
}

/* Why `name` is not a component: refused when loading, or a probable typo, or simply unknown. */
std::string unknown_component(std::string_view framework, const std::string &name,
                              const std::vector<std::string> &components, const std::vector<LoadError> &refused)
{
    std::string text = "there is no " + std::string(framework) + " component \"" + name + "\"";
    const auto failed = std::find_if(refused.begin(), refused.end(),
                                     [&](const LoadError &e) { return e.component == name; });
    if (failed != refused.end()) {
        text += " that could be loaded (" + describe_load_error(*failed) + ")";
    }
    const auto close = closest_names(name, components);
    if (!close.empty()) {
        text += " (did you mean " + join_alternatives(close) + "?)";
    }
    return text + "; " + component_list(framework, components);
}

struct Candidate {
    size_t index; /* in the framework's component list */
    std::string name;
    SelectedComponent selected;
};

/*
 * Queries every open component and keeps the first choose(n) of the n that accept, best first; every
 * other component is closed and unloaded. The framework's list is left holding the kept components in
 * that order.
 */
template <typename Choose>
int query_and_keep(mca_base_framework_t &fw, Choose choose, std::vector<SelectedComponent> *kept)
{
    std::lock_guard lock(framework_mutex());
    if (fw.state == nullptr || fw.state->refcount == 0) {
        report(Severity::Error, std::string("cannot select ") + fw.name + " components: the framework is not open");
        return TESSERA_ERR_BAD_PARAM;
    }
    auto &components = fw.state->components;
    std::vector<Candidate> accepted;
    for (size_t i = 0; i < components.size(); ++i) {
        const mca_base_component_t *c = components[i].component;
        Candidate cand{i, components[i].name, {c, nullptr, 0}};
        const int rc = c->mca_query_component != nullptr
                           ? c->mca_query_component(&cand.selected.module, &cand.selected.priority)
                           : TESSERA_SUCCESS;
        if (rc == TESSERA_SUCCESS) {
            framework_note(fw, 10, "component " + cand.name + " accepts with priority " +
                                       std::to_string(cand.selected.priority));
            accepted.push_back(std::move(cand));
        } else {
            framework_note(fw, 1, "component " + cand.name + " declines: " + tessera_strerror(rc));
        }
    }
    /* Highest priority first; equal priorities by name so that the outcome never depends on the order
     * in which directories were read. */
    std::sort(accepted.begin(), accepted.end(), [](const Candidate &a, const Candidate &b) {
        return a.selected.priority != b.selected.priority ? a.selected.priority > b.selected.priority
                                                          : a.name < b.name;
    });
    const size_t keep = choose(accepted.size());

    std::vector<FoundComponent> remaining;
    std::vector<bool> is_kept(components.size(), false);
    for (size_t k = 0; k < keep; ++k) {
        is_kept[accepted[k].index] = true;
        kept->push_back(accepted[k].selected);
        framework_note(fw, 1, "selected component " + accepted[k].name + " (priority " +
                                  std::to_string(accepted[k].selected.priority) + ")");
    }
    for (size_t i = 0; i < components.size(); ++i) {
        if (!is_kept[i]) {
            close_component(fw, components[i]);
        }
    }
    for (size_t k = 0; k < keep; ++k) {
        remaining.push_back(std::move(components[accepted[k].index]));
    }
    components = std::move(remaining); /* unloads the DSOs of the others */
    return keep > 0 ? TESSERA_SUCCESS : TESSERA_ERR_NOT_FOUND;
}

} // namespace

bool Selection::allows(std::string_view component) const
{
    const bool listed = std::find(names.begin(), names.end(), component) != names.end();
    if (exclude) {
        return !listed;
    }
    return names.empty() || listed;
}

int parse_selection(std::string_view framework, std::string_view value, const std::vector<std::string> &components,
                    const std::vector<LoadError> &refused, Selection *out)
{
    *out = Selection{};
    const std::string text = trim(value);
    if (text.empty()) {
        return TESSERA_SUCCESS;
    }

    const auto carets = std::count(text.begin(), text.end(), '^');
    if (carets > 1) {
        report(Severity::Error, setting(framework, value) + ": '^' appears " + std::to_string(carets) +
                                    " times; it may appear only once, as the first character, to exclude every "
                                    "component listed after it (e.g. \"^a,b\")");
        return TESSERA_ERR_BAD_PARAM;
    }
    if (carets == 1 && text.front() != '^') {
        report(Severity::Error, setting(framework, value) +
                                    ": '^' must be the first character, where it excludes every component listed "
                                    "after it; an include list and an exclude list cannot be mixed (use \"a,b\" "
                                    "or \"^a,b\")");
        return TESSERA_ERR_BAD_PARAM;
    }
    out->exclude = carets == 1;
    const std::string body = out->exclude ? text.substr(1) : text;

    int rc = TESSERA_SUCCESS;
    size_t start = 0;
    for (int position = 1;; ++position) {
        const size_t comma = body.find(',', start);
        const std::string entry =
            trim(std::string_view(body).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (entry.empty()) {
            report(Severity::Error, setting(framework, value) + ": entry " + std::to_string(position) +
                                        " is empty; expected a comma-separated list of component names (" +
                                        component_list(framework, components) + ")");
            rc = TESSERA_ERR_BAD_PARAM;
        } else if (std::find(components.begin(), components.end(), entry) == components.end()) {
            if (out->exclude) {
                report(Severity::Warning, setting(framework, value, false) + ": nothing to exclude: " +
                                              unknown_component(framework, entry, components, refused));
            } else {
                report(Severity::Error,
                       setting(framework, value) + ": " + unknown_component(framework, entry, components, refused));
                rc = TESSERA_ERR_BAD_PARAM;
            }
        }
        if (!entry.empty() && std::find(out->names.begin(), out->names.end(), entry) == out->names.end()) {
            out->names.push_back(entry);
        }
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    if (rc != TESSERA_SUCCESS) {
        *out = Selection{};
    }
    return rc;
}

} // namespace tessera::mca

namespace tessera::mca {

int select_one(mca_base_framework_t *fw, SelectedComponent *out)
{
    if (fw == nullptr || out == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    std::vector<SelectedComponent> kept;
    const int rc = query_and_keep(*fw, [](size_t accepted) { return std::min<size_t>(accepted, 1); }, &kept);
    if (rc == TESSERA_SUCCESS) {
        *out = kept.front();
    } else if (rc == TESSERA_ERR_NOT_FOUND) {
        framework_note(*fw, 1, "no component is available");
    }
    return rc;
}

static bool opted_in(const mca_base_framework_t &fw)
{
    std::lock_guard<std::recursive_mutex> lock(framework_mutex());
    return fw.state != nullptr && fw.state->selection != nullptr && fw.state->selection[0] != '\0';
}

int select_many(mca_base_framework_t *fw, std::vector<SelectedComponent> *out)
{
    if (fw == nullptr || out == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    out->clear();
    if ((fw->flags & MCA_FRAMEWORK_FLAG_OPT_IN) != 0 && !opted_in(*fw)) {
        framework_note(*fw, 1, "nothing selected: the framework is opt-in and its parameter is empty");
        return TESSERA_SUCCESS;
    }
    const int rc = query_and_keep(*fw, [](size_t accepted) { return accepted; }, out);
    if (rc == TESSERA_ERR_NOT_FOUND) {
        framework_note(*fw, 1, "no component is available");
    }
    return rc;
}

} // namespace tessera::mca
