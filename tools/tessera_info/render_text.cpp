/* The readable view, modelled on ompi_info: right-aligned labels, one parameter per block. */
#include <cstdio>
#include <sstream>

#include "render.h"

namespace tessera::info {

std::string shown_value(const mca::VarInfo &v)
{
    return (v.flags & MCA_VAR_FLAG_HIDDEN_VALUE) != 0 ? "(hidden)" : v.value;
}

namespace {

constexpr int kLabelWidth = 24;

void line(const std::string &label, const std::string &value)
{
    std::printf("%*s: %s\n", kLabelWidth, label.c_str(), value.c_str());
}

/* Help text wrapped under the parameter, indented to the label column. */
void wrapped(const std::string &text, size_t indent)
{
    const size_t width = 100;
    std::istringstream words(text);
    std::string word;
    std::string current;
    auto flush = [&] {
        if (!current.empty()) {
            std::printf("%*s%s\n", static_cast<int>(indent), "", current.c_str());
            current.clear();
        }
    };
    while (words >> word) {
        if (!current.empty() && indent + current.size() + 1 + word.size() > width) {
            flush();
        }
        current += (current.empty() ? "" : " ") + word;
    }
    flush();
}

void render_param(const mca::VarInfo &v)
{
    std::string head = "MCA " + v.framework + " " + param_owner(v);
    std::printf("%*s: parameter \"%s\" (current value: \"%s\", data source: %s, level: %s, type: %s)\n",
                kLabelWidth, head.c_str(), v.full_name.c_str(), shown_value(v).c_str(),
                v.source.describe().c_str(), level_name(v.level).c_str(), v.type_name.c_str());
    const size_t indent = kLabelWidth + 2;
    wrapped(v.help, indent);
    if (!v.enumerators.empty()) {
        std::string values = "Valid values: ";
        for (size_t i = 0; i < v.enumerators.size(); ++i) {
            values += (i ? ", " : "") + std::to_string(v.enumerators[i].first) + ":\"" +
                      v.enumerators[i].second + "\"";
        }
        wrapped(values, indent);
    } else if (v.type == MCA_VAR_TYPE_BOOL) {
        wrapped("Valid values: true|false (also 1|0, yes|no, on|off)", indent);
    } else if (v.type == MCA_VAR_TYPE_SIZE) {
        wrapped("Valid values: a byte count, optionally with a k, M, G or T suffix (powers of 1024)",
                indent);
    }
    if (const std::string range = mca::range_text(v); !range.empty()) {
        wrapped("Valid range: " + range, indent);
    }
    if (v.default_value != v.value) {
        wrapped("Default: \"" + v.default_value + "\"", indent);
    }
    for (size_t i = 0; i < v.synonyms.size(); ++i) {
        wrapped("Synonym: \"" + v.synonyms[i] + "\"" +
                    (v.synonym_deprecated[i] ? " (deprecated)" : ""),
                indent);
    }
}

/* Counts first (progress at a glance), then both lists wrapped under their label. */
void render_coverage(const Model &m)
{
    const std::vector<ompi::FunctionCoverage> &coverage = m.coverage;
    const size_t implemented = implemented_count(coverage);
    const size_t total = coverage.size();
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * static_cast<double>(implemented) / static_cast<double>(total));
    line("Translator", m.coverage_translator + " (" + m.coverage_runtime + ")");
    line("MPI functions", std::to_string(total) + " in the MPI 5.0 ABI");
    line("Implemented", std::to_string(implemented) + " (" + percent + ")");
    line("Missing", std::to_string(total - implemented));
    std::string by_category;
    for (const CategoryCoverage &c : coverage_by_category(coverage)) {
        by_category += (by_category.empty() ? "" : " ") + c.category + " " + std::to_string(c.implemented) + "/" +
                       std::to_string(c.total);
    }
    std::printf("%*s:\n", kLabelWidth, "By category (implemented/total)");
    wrapped(by_category, kLabelWidth + 2);
    for (bool which : {true, false}) {
        std::string names;
        for (const ompi::FunctionCoverage &f : coverage) {
            if (f.implemented == which) {
                names += (names.empty() ? "" : " ") + f.name;
            }
        }
        std::printf("%*s:\n", kLabelWidth, which ? "Implemented functions" : "Missing functions");
        wrapped(names.empty() ? "(none)" : names, kLabelWidth + 2);
    }
}

} // namespace

void render_text(const Model &m, const Options &o)
{
    for (const auto &[k, v] : m.config) {
        line(k, v);
    }
    for (const auto &[k, v] : m.paths) {
        if (!o.path || *o.path == "all" || *o.path == k) {
            line(k, v);
        }
    }
    for (const FrameworkInfo &f : m.frameworks) {
        line("Framework " + f.name, f.description + " (" + f.layer + ", " + f.kind + ", API v" +
                                        f.api_version + ")");
        if (f.components.empty()) {
            line("MCA " + f.name, "(no components)");
        }
        for (const ComponentInfo &c : f.components) {
            line("MCA " + f.name, c.name + " (MCA v" + c.mca_version + ", API v" + c.api_version +
                                      ", Component v" + c.version + ", " +
                                      (c.path.empty() ? std::string("static") : "DSO " + c.path) + ")");
        }
    }
    for (const mca::VarInfo &v : m.params) {
        render_param(v);
    }
    for (const SelectionInfo &s : m.selections) {
        std::string chosen;
        for (const auto &[name, prio] : s.chosen) {
            chosen += (chosen.empty() ? "" : ", ") + name + " (priority " + std::to_string(prio) + ")";
        }
        line("Selected " + s.framework, s.ok ? (chosen.empty() ? "(none)" : chosen) : "FAILED: " + s.error);
    }
    if (!m.coverage.empty()) {
        render_coverage(m);
    }
    if (o.show_failed) {
        if (m.failed.empty()) {
            line("Failed components", "(none)");
        }
        for (const mca::LoadError &e : m.failed) {
            std::string who = e.framework.empty() ? "?" : e.framework;
            who += " " + (e.component.empty() ? std::string("?") : e.component);
            line("FAILED " + who, e.file + ": " + e.reason);
        }
    }
}

} // namespace tessera::info
