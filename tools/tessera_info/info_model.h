/*
 * Everything tessera_info can show, gathered once from the MCA core; the text, parsable and JSON
 * renderers only format it, so the three views can never disagree.
 */
#ifndef TESSERA_TOOLS_INFO_MODEL_H
#define TESSERA_TOOLS_INFO_MODEL_H

#include <string>
#include <utility>
#include <vector>

#include "mca/framework.h"
#include "mca/var_store.h"
#include "ompi/runtime/coverage.h"

namespace tessera::info {

struct ComponentInfo {
    std::string name;
    std::string mca_version;
    std::string api_version;
    std::string version;
    std::string path; /* empty: static */
};

struct FrameworkInfo {
    std::string name;
    std::string layer;
    std::string kind;
    std::string description;
    std::string api_version;
    std::vector<ComponentInfo> components;
};

struct SelectionInfo {
    std::string framework;
    std::string kind;
    bool ok = false;
    std::string error;
    std::vector<std::pair<std::string, int>> chosen; /* component, priority */
};

struct Model {
    std::vector<std::pair<std::string, std::string>> config; /* key, value */
    std::vector<std::pair<std::string, std::string>> paths;  /* key, value */
    std::vector<FrameworkInfo> frameworks;
    std::vector<mca::VarInfo> params;
    std::vector<mca::LoadError> failed;
    std::vector<SelectionInfo> selections;
    /* With --coverage: what the translator selected as a process would select it provides. */
    std::vector<ompi::FunctionCoverage> coverage; /* every MPI function of the ABI */
    std::string coverage_translator;              /* "native", "ompi", "mpich" */
    std::string coverage_runtime;                 /* "Tessera's native engine", "Open MPI 4.1.4 ..." */
};

/* How many functions of the list are implemented. */
size_t implemented_count(const std::vector<ompi::FunctionCoverage> &coverage);
/* Per category of the API description (cat=), in order of first appearance: (category, implemented,
 * total). */
struct CategoryCoverage {
    std::string category;
    size_t implemented = 0;
    size_t total = 0;
};
std::vector<CategoryCoverage> coverage_by_category(const std::vector<ompi::FunctionCoverage> &coverage);

std::string version_string(const mca_base_version_t &v);
/* "4 tuner/basic" */
std::string level_name(int level);
/* The component a parameter is listed under: its component, or "base" for framework-wide ones. */
std::string param_owner(const mca::VarInfo &v);

std::vector<std::pair<std::string, std::string>> gather_config();
std::vector<std::pair<std::string, std::string>> gather_paths();
FrameworkInfo gather_framework(const mca_base_framework_t *fw);
std::vector<mca::VarInfo> gather_params(const std::string &fw, const std::string &comp, int level);
/* Opens the framework if needed, runs its selection, reports what won. */
SelectionInfo gather_selection(mca_base_framework_t *fw);

} // namespace tessera::info

#endif
