#include "info_model.h"

#include <algorithm>

#include "mca/constants.h"
#include "opal/install_dirs.h"
#include "tessera_build_id.h"
#include "tessera_config.h"

namespace tessera::info {

size_t implemented_count(const std::vector<ompi::FunctionCoverage> &coverage)
{
    size_t n = 0;
    for (const ompi::FunctionCoverage &f : coverage) {
        n += f.implemented ? 1 : 0;
    }
    return n;
}

std::vector<CategoryCoverage> coverage_by_category(const std::vector<ompi::FunctionCoverage> &coverage)
{
    std::vector<CategoryCoverage> out;
    for (const ompi::FunctionCoverage &f : coverage) {
        auto it = std::find_if(out.begin(), out.end(), [&](const CategoryCoverage &c) { return c.category == f.category; });
        if (it == out.end()) {
            it = out.insert(out.end(), CategoryCoverage{f.category, 0, 0});
        }
        ++it->total;
        it->implemented += f.implemented ? 1 : 0;
    }
    return out;
}

std::string version_string(const mca_base_version_t &v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.release);
}

std::string level_name(int level)
{
    static const char *const groups[] = {"user", "tuner", "dev"};
    static const char *const depths[] = {"basic", "detail", "all"};
    if (level < 1 || level > 9) {
        return std::to_string(level);
    }
    return std::to_string(level) + " " + groups[(level - 1) / 3] + "/" + depths[(level - 1) % 3];
}

std::string param_owner(const mca::VarInfo &v)
{
    return v.component.empty() ? "base" : v.component;
}

static const char *kind_name(mca_framework_kind_t kind)
{
    switch (kind) {
    case MCA_FRAMEWORK_ONE_OF_MANY:
        return "one-of-many";
    case MCA_FRAMEWORK_MANY_OF_MANY:
        return "many-of-many";
    case MCA_FRAMEWORK_PER_OBJECT:
        return "per-object";
    }
    return "unknown";
}

std::vector<std::pair<std::string, std::string>> gather_config()
{
    return {
        {"package", "Tessera MPI"},
        {"version", TESSERA_VERSION},
        {"build_id", TESSERA_BUILD_ID},
        {"mca_version", std::to_string(MCA_BASE_VERSION_MAJOR) + "." + std::to_string(MCA_BASE_VERSION_MINOR) +
                            "." + std::to_string(MCA_BASE_VERSION_RELEASE)},
        {"build_type", TESSERA_BUILD_TYPE},
        {"cxx_compiler", TESSERA_CXX_COMPILER},
        {"c_compiler", TESSERA_C_COMPILER},
        {"system", TESSERA_SYSTEM},
        {"dso_components", TESSERA_DSO_ENABLED},
        {"static_components", TESSERA_STATIC_COMPONENT_LIST},
        {"dynamic_endpoints", TESSERA_DYNAMIC_ENDPOINTS_ENABLED},
        {"llvm_jit", TESSERA_WITH_LLVM_ENABLED},
        {"otf2", TESSERA_WITH_OTF2_ENABLED},
    };
}

std::vector<std::pair<std::string, std::string>> gather_paths()
{
    const opal::InstallDirs &d = opal::install_dirs();
    return {{"prefix", d.prefix},       {"bindir", d.bindir},         {"libdir", d.libdir},
            {"pkglibdir", d.pkglibdir}, {"sysconfdir", d.sysconfdir}, {"incdir", d.includedir}};
}

FrameworkInfo gather_framework(const mca_base_framework_t *fw)
{
    FrameworkInfo f;
    f.name = fw->name;
    f.layer = fw->layer;
    f.kind = kind_name(fw->kind);
    f.description = fw->description != nullptr ? fw->description : "";
    f.api_version = version_string(fw->version);
    for (const mca::ComponentEntry &e : mca::framework_components(fw)) {
        ComponentInfo c;
        c.name = e.component->mca_component_name;
        c.mca_version = version_string(e.component->mca_version);
        c.api_version = version_string(e.component->mca_framework_version);
        c.version = version_string(e.component->mca_component_version);
        c.path = e.path;
        f.components.push_back(std::move(c));
    }
    return f;
}

std::vector<mca::VarInfo> gather_params(const std::string &fw, const std::string &comp, int level)
{
    std::vector<mca::VarInfo> out;
    for (mca::VarInfo &v : mca::list_vars()) {
        if (v.level > level) {
            continue;
        }
        if (fw != "all" && v.framework != fw) {
            continue;
        }
        if (comp != "all" && param_owner(v) != comp) {
            continue;
        }
        out.push_back(std::move(v));
    }
    return out;
}

SelectionInfo gather_selection(mca_base_framework_t *fw)
{
    SelectionInfo s;
    s.framework = fw->name;
    s.kind = kind_name(fw->kind);
    if (!mca::framework_is_open(fw) && mca::framework_open(fw) != TESSERA_SUCCESS) {
        s.error = "the framework could not be opened (see the error above)";
        return s;
    }
    if (fw->kind == MCA_FRAMEWORK_ONE_OF_MANY) {
        mca::SelectedComponent one;
        int rc = mca::select_one(fw, &one);
        if (rc != TESSERA_SUCCESS) {
            s.error = std::string("no component accepted: ") + tessera_strerror(rc);
            return s;
        }
        s.chosen.emplace_back(one.component->mca_component_name, one.priority);
    } else if (fw->kind == MCA_FRAMEWORK_MANY_OF_MANY) {
        std::vector<mca::SelectedComponent> many;
        int rc = mca::select_many(fw, &many);
        if (rc != TESSERA_SUCCESS) {
            s.error = std::string("selection failed: ") + tessera_strerror(rc);
            return s;
        }
        for (const mca::SelectedComponent &c : many) {
            s.chosen.emplace_back(c.component->mca_component_name, c.priority);
        }
    } else {
        /* Chosen per communicator or per type: every open component is a candidate. */
        for (const mca::ComponentEntry &e : mca::framework_components(fw)) {
            s.chosen.emplace_back(e.component->mca_component_name, 0);
        }
    }
    s.ok = true;
    return s;
}

} // namespace tessera::info
