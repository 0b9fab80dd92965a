/* The JSON view: one document with the same facts as the other views. */
#include <cstdio>

#include <nlohmann/json.hpp>

#include "render.h"

namespace tessera::info {

void render_json(const Model &m, const Options &o)
{
    using nlohmann::json;
    json doc = json::object();
    if (!m.config.empty()) {
        json config = json::object();
        for (const auto &[k, v] : m.config) {
            config[k] = v;
        }
        doc["config"] = config;
    }
    if (!m.paths.empty()) {
        json paths = json::object();
        for (const auto &[k, v] : m.paths) {
            if (!o.path || *o.path == "all" || *o.path == k) {
                paths[k] = v;
            }
        }
        doc["paths"] = paths;
    }
    if (!m.frameworks.empty()) {
        json frameworks = json::array();
        for (const FrameworkInfo &f : m.frameworks) {
            json comps = json::array();
            for (const ComponentInfo &c : f.components) {
                comps.push_back({{"name", c.name},
                                 {"mca_version", c.mca_version},
                                 {"api_version", c.api_version},
                                 {"version", c.version},
                                 {"origin", c.path.empty() ? "static" : "dso"},
                                 {"path", c.path}});
            }
            frameworks.push_back({{"name", f.name},
                                  {"layer", f.layer},
                                  {"kind", f.kind},
                                  {"description", f.description},
                                  {"api_version", f.api_version},
                                  {"components", comps}});
        }
        doc["frameworks"] = frameworks;
    }
    if (!m.params.empty()) {
        json params = json::array();
        for (const mca::VarInfo &v : m.params) {
            json p = {{"name", v.full_name},
                      {"framework", v.framework},
                      {"component", param_owner(v)},
                      {"value", shown_value(v)},
                      {"default", v.default_value},
                      {"source", v.source.describe()},
                      {"level", v.level},
                      {"scope", v.scope_name},
                      {"type", v.type_name},
                      {"help", v.help}};
            if (!v.min_value.empty() || !v.max_value.empty()) {
                json range = json::object();
                if (!v.min_value.empty()) {
                    range["min"] = v.min_value;
                }
                if (!v.max_value.empty()) {
                    range["max"] = v.max_value;
                }
                p["range"] = range;
            }
            if (!v.enumerators.empty()) {
                json e = json::array();
                for (const auto &[value, name] : v.enumerators) {
                    e.push_back({{"value", value}, {"name", name}});
                }
                p["enumerators"] = e;
            }
            if (!v.synonyms.empty()) {
                json s = json::array();
                for (size_t i = 0; i < v.synonyms.size(); ++i) {
                    s.push_back({{"name", v.synonyms[i]}, {"deprecated", bool(v.synonym_deprecated[i])}});
                }
                p["synonyms"] = s;
            }
            params.push_back(p);
        }
        doc["params"] = params;
    }
    if (!m.selections.empty()) {
        json sel = json::array();
        for (const SelectionInfo &s : m.selections) {
            json chosen = json::array();
            for (const auto &[name, prio] : s.chosen) {
                chosen.push_back({{"component", name}, {"priority", prio}});
            }
            sel.push_back({{"framework", s.framework}, {"kind", s.kind}, {"ok", s.ok}, {"error", s.error},
                           {"selected", chosen}});
        }
        doc["selections"] = sel;
    }
    if (!m.coverage.empty()) {
        const size_t implemented = implemented_count(m.coverage);
        json functions = json::array();
        for (const ompi::FunctionCoverage &f : m.coverage) {
            functions.push_back({{"name", f.name}, {"category", f.category}, {"implemented", f.implemented}});
        }
        json categories = json::array();
        for (const CategoryCoverage &c : coverage_by_category(m.coverage)) {
            categories.push_back({{"category", c.category}, {"implemented", c.implemented}, {"total", c.total}});
        }
        doc["coverage"] = {{"translator", m.coverage_translator},
                           {"runtime", m.coverage_runtime},
                           {"implemented", implemented},
                           {"missing", m.coverage.size() - implemented},
                           {"total", m.coverage.size()},
                           {"categories", categories},
                           {"functions", functions}};
    }
    if (o.show_failed) {
        json failed = json::array();
        for (const mca::LoadError &e : m.failed) {
            failed.push_back(
                {{"framework", e.framework}, {"component", e.component}, {"file", e.file}, {"reason", e.reason}});
        }
        doc["failed"] = failed;
    }
    std::printf("%s\n", doc.dump(2).c_str());
}

} // namespace tessera::info
