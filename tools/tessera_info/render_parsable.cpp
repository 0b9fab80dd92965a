/* The parsable view: one "key:...:value" line per fact, as ompi_info --parsable. */
#include <cctype>
#include <cstdio>
#include <string>

#include "render.h"

namespace tessera::info {

namespace {

/* A value may contain ':' or newlines; ':' is kept (the value is the last field), newlines become spaces. */
std::string flat(std::string s)
{
    for (char &c : s) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return s;
}

void out(const std::string &key, const std::string &value)
{
    std::printf("%s:%s\n", key.c_str(), flat(value).c_str());
}

} // namespace

void render_parsable(const Model &m, const Options &o)
{
    for (const auto &[k, v] : m.config) {
        out("config:" + k, v);
    }
    for (const auto &[k, v] : m.paths) {
        if (!o.path || *o.path == "all" || *o.path == k) {
            out("path:" + k, v);
        }
    }
    for (const FrameworkInfo &f : m.frameworks) {
        out("framework:" + f.name + ":layer", f.layer);
        out("framework:" + f.name + ":kind", f.kind);
        out("framework:" + f.name + ":version", f.api_version);
        out("framework:" + f.name + ":description", f.description);
        for (const ComponentInfo &c : f.components) {
            std::string key = "mca:" + f.name + ":" + c.name;
            out(key + ":version:mca", c.mca_version);
            out(key + ":version:api", c.api_version);
            out(key + ":version:component", c.version);
            out(key + ":origin", c.path.empty() ? "static" : "dso:" + c.path);
        }
    }
    for (const mca::VarInfo &v : m.params) {
        std::string key = "mca:" + v.framework + ":" + param_owner(v) + ":param:" + v.full_name;
        out(key + ":value", shown_value(v));
        out(key + ":source", v.source.describe());
        out(key + ":status", v.scope_name);
        out(key + ":level", std::to_string(v.level));
        out(key + ":help", v.help);
        out(key + ":type", v.type_name);
        out(key + ":default", v.default_value);
        if (!v.min_value.empty()) {
            out(key + ":range:min", v.min_value);
        }
        if (!v.max_value.empty()) {
            out(key + ":range:max", v.max_value);
        }
        for (const auto &[value, name] : v.enumerators) {
            out(key + ":enumerator:value:" + std::to_string(value), name);
        }
        for (size_t i = 0; i < v.synonyms.size(); ++i) {
            out(key + ":synonym:name", v.synonyms[i]);
            out(key + ":synonym:" + v.synonyms[i] + ":deprecated", v.synonym_deprecated[i] ? "yes" : "no");
        }
    }
    for (const SelectionInfo &s : m.selections) {
        if (!s.ok) {
            out("selected:" + s.framework + ":error", s.error);
        }
        for (const auto &[name, prio] : s.chosen) {
            out("selected:" + s.framework + ":" + name + ":priority", std::to_string(prio));
        }
    }
    if (!m.coverage.empty()) {
        const size_t implemented = implemented_count(m.coverage);
        out("coverage:translator", m.coverage_translator);
        out("coverage:runtime", m.coverage_runtime);
        out("coverage:implemented", std::to_string(implemented));
        out("coverage:missing", std::to_string(m.coverage.size() - implemented));
        out("coverage:total", std::to_string(m.coverage.size()));
        for (const CategoryCoverage &c : coverage_by_category(m.coverage)) {
            out("coverage:category:" + c.category, std::to_string(c.implemented) + "/" + std::to_string(c.total));
        }
        /* The macros of tessera_features.h and the variables of tessera.pc and mpi.pc, which
         * ompi/api/gen_features.py makes from these lines: a category is there when all of it is. */
        out("coverage:feature:TESSERA_MPI_COMPLETE", implemented == m.coverage.size() ? "1" : "0");
        for (const CategoryCoverage &c : coverage_by_category(m.coverage)) {
            std::string macro = "TESSERA_HAVE_MPI_" + c.category;
            for (char &ch : macro) {
                ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            }
            out("coverage:feature:" + macro, c.implemented == c.total ? "1" : "0");
        }
        for (const ompi::FunctionCoverage &f : m.coverage) {
            out("coverage:function:" + f.name, f.implemented ? "implemented" : "missing");
        }
    }
    if (o.show_failed) {
        for (const mca::LoadError &e : m.failed) {
            std::string key = "failed:" + (e.framework.empty() ? std::string("?") : e.framework) + ":" +
                              (e.component.empty() ? std::string("?") : e.component);
            out(key + ":file", e.file);
            out(key + ":reason", e.reason);
        }
    }
}

} // namespace tessera::info
