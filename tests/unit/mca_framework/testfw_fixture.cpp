#include "testfw_fixture.h"

#include <dlfcn.h>

#include <cstring>

#include "mca/report.h"
#include "mca/var_store.h"

using namespace tessera::mca;

StaticBehaviour alpha_behaviour;
StaticBehaviour beta_behaviour;

namespace {

template <StaticBehaviour *B>
int static_register(const mca_base_component_t *)
{
    ++B->registers;
    return TESSERA_SUCCESS;
}

template <StaticBehaviour *B>
int static_open()
{
    ++B->opens;
    return B->open_rc;
}

template <StaticBehaviour *B>
int static_close()
{
    ++B->closes;
    return TESSERA_SUCCESS;
}

template <StaticBehaviour *B>
int static_query(void **module, int *priority)
{
    ++B->queries;
    *module = B;
    *priority = B->priority;
    return B->query_rc;
}

template <StaticBehaviour *B>
testfw_component_t make_static(const char *name)
{
    testfw_component_t c{};
    c.base.mca_magic = MCA_BASE_MAGIC;
    c.base.mca_struct_size = sizeof(testfw_component_t);
    c.base.mca_version = {MCA_BASE_VERSION_MAJOR, MCA_BASE_VERSION_MINOR, MCA_BASE_VERSION_RELEASE};
    std::strncpy(c.base.mca_build_id, TESSERA_BUILD_ID, MCA_BASE_BUILD_ID_LEN);
    std::strncpy(c.base.mca_framework_name, "testfw", MCA_BASE_MAX_NAME_LEN);
    c.base.mca_framework_version = TESTFW_VERSION;
    std::strncpy(c.base.mca_component_name, name, MCA_BASE_MAX_NAME_LEN);
    c.base.mca_component_version = {1, 0, 0};
    c.base.mca_register_params = static_register<B>;
    c.base.mca_open_component = static_open<B>;
    c.base.mca_close_component = static_close<B>;
    c.base.mca_query_component = static_query<B>;
    return c;
}

const testfw_component_t alpha_component = make_static<&alpha_behaviour>("alpha");
const testfw_component_t beta_component = make_static<&beta_behaviour>("beta");

const mca_base_component_t *const testfw_static[] = {&alpha_component.base, &beta_component.base, nullptr};

} // namespace

mca_base_framework_t testfw_framework = {
    "opal", "testfw", "framework of the MCA core tests", TESTFW_VERSION, MCA_FRAMEWORK_ONE_OF_MANY,
    sizeof(testfw_component_t), nullptr, nullptr, nullptr, testfw_static, nullptr, 0, 0, {}};

mca_base_framework_t testfw2_framework = {
    "opal", "testfw2", "second framework of the MCA core tests", TESTFW_VERSION, MCA_FRAMEWORK_MANY_OF_MANY,
    sizeof(testfw_component_t), nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, {}};

void McaFwTest::SetUp()
{
    report_set_print(false);
    report_clear();
    alpha_behaviour = StaticBehaviour{};
    alpha_behaviour.priority = 10;
    beta_behaviour = StaticBehaviour{};
    beta_behaviour.priority = 20;
    set_command_line("mca_component_path", TESTFW_DSO_DIR);
}

void McaFwTest::TearDown()
{
    frameworks_finalize();
    vars_finalize();
    report_clear();
}

std::string dso_path(const std::string &component, const std::string &dir)
{
    return dir + "/mca_testfw_" + component + ".so";
}

bool dso_loaded(const std::string &path)
{
    void *h = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (h == nullptr) {
        return false;
    }
    dlclose(h);
    return true;
}

std::optional<int> dso_int(const std::string &path, const char *symbol)
{
    void *h = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (h == nullptr) {
        return std::nullopt;
    }
    std::optional<int> value;
    if (const auto *p = static_cast<const int *>(dlsym(h, symbol)); p != nullptr) {
        value = *p;
    }
    dlclose(h);
    return value;
}

std::vector<std::string> component_names(const mca_base_framework_t *fw)
{
    std::vector<std::string> names;
    for (const auto &c : framework_components(fw)) {
        names.emplace_back(c.component->mca_component_name);
    }
    return names;
}

std::optional<LoadError> load_error_for(const std::string &file)
{
    for (const auto &e : load_errors()) {
        if (e.file == file) {
            return e;
        }
    }
    return std::nullopt;
}

std::vector<std::string> reports_containing(Severity severity, const std::string &text)
{
    std::vector<std::string> out;
    for (const auto &m : reported(severity)) {
        if (m.find(text) != std::string::npos) {
            out.push_back(m);
        }
    }
    return out;
}
