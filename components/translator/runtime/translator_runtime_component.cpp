/*
 * A runtime translator component: an application built against Tessera's mpi.h (the MPI 5.0 ABI) runs
 * over another MPI library. One source serves every runtime (ompi, mpich): it is compiled into each
 * component with the runtime's facts given as definitions by tessera_add_runtime_translator()
 * (runtime/TranslatorRuntime.cmake): TRANSLATOR_RT (the component name as a token), TRANSLATOR_RT_DISPLAY,
 * TRANSLATOR_RT_LIBRARY, TRANSLATOR_RT_LIBRARY_HELP, TRANSLATOR_RT_LAUNCHER and TRANSLATOR_RT_FACTS.
 * Registration, query (chosen by name or by the launcher in the environment: docs/translator.md), and the fill of the dispatch table with the thunks
 * generated from the API description and the runtime's own mpi.h (translator_<rt>_thunks.cpp).
 *
 * The library is dlopen'ed RTLD_NOW | RTLD_LOCAL and reached only through dlsym (decision 2): this DSO
 * has no undefined reference to the runtime. Loading it has a price (its constructors, its
 * dependencies), so query loads it only when the process was started by the runtime's own launcher;
 * otherwise the component answers with priority 0 after checking that the file is there, and loads it
 * in fill, which only happens when the `translator` parameter names it.
 */
#include <dlfcn.h>
#include <unistd.h>

#include <string>

#include "frameworks/translator/base/base.h"
#include "mca/report.h"
#include "mca/var.h"
#include TRANSLATOR_RT_FACTS

#define TRANSLATOR_CAT2(a, b) a##b
#define TRANSLATOR_CAT(a, b) TRANSLATOR_CAT2(a, b)
#define TRANSLATOR_STR2(a) #a
#define TRANSLATOR_STR(a) TRANSLATOR_STR2(a)
#define TRANSLATOR_COMPONENT TRANSLATOR_CAT(TRANSLATOR_CAT(mca_translator_, TRANSLATOR_RT), _component)

extern "C" __attribute__((visibility("default"))) mca_translator_base_component_t TRANSLATOR_COMPONENT;

namespace tessera::ompi::TRANSLATOR_CAT(translator_, TRANSLATOR_RT) {
namespace {

constexpr const char *kName = TRANSLATOR_STR(TRANSLATOR_RT);
constexpr int kPriorityUnderLauncher = 100;

const char *library_path = TRANSLATOR_RT_LIBRARY;
int stack_array_limit = 256;

void *library = nullptr;         /* never closed: a runtime's threads and atexit handlers outlive MPI_Finalize */
std::string runtime_description; /* "Open MPI v4.1.4, ... (libmpi.so.40)" */

int register_params(const mca_base_component_t *)
{
    library_path = TRANSLATOR_RT_LIBRARY;
    stack_array_limit = 256;
    int rc = mca_var_register("translator", kName, "library",
                              TRANSLATOR_RT_LIBRARY_HELP,
                              MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_3, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                              &library_path);
    if (rc < 0) {
        return rc;
    }
    rc = mca_var_register("translator", kName, "stack_array_limit",
                          "Converted arrays (statuses, requests, datatypes) of up to this many elements are "
                          "kept on the stack of the call; longer ones are allocated",
                          MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                          &stack_array_limit);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

std::string base_name(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/* The first line of the runtime's MPI_Get_library_version, whitespace runs collapsed. */
std::string describe_runtime()
{
    char text[kRuntimeLibraryVersionMax] = {};
    int len = 0;
    std::string line;
    if (runtime_library_version(text, &len) == 0) {
        for (const char *p = text; *p != '\0' && *p != '\n'; ++p) {
            const bool space = *p == ' ' || *p == '\t';
            if (!space || (!line.empty() && line.back() != ' ')) {
                line += space ? ' ' : *p;
            }
        }
    }
    while (!line.empty() && line.back() == ' ') {
        line.pop_back();
    }
    return (line.empty() ? std::string(TRANSLATOR_RT_DISPLAY) : line) + " (" + base_name(library_path) + ")";
}

/* Loads and resolves the library once; an empty string on success, else why not. */
std::string load()
{
    if (library != nullptr) {
        return {};
    }
    void *handle = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *err = dlerror();
        return std::string("cannot load ") + library_path + ": " + (err != nullptr ? err : "unknown error");
    }
    std::string why;
    if (!runtime_resolve(handle, &why)) {
        dlclose(handle);
        return std::string(library_path) + ": " + why;
    }
    library = handle;
    runtime_description = describe_runtime();
    return {};
}

/* The thunks' addresses end up in the process's dispatch table, which the application may call until it
 * exits (MPI_Finalized after MPI_Finalize): this DSO must stay mapped when the framework closes. */
void pin_self()
{
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&pin_self), &info) != 0 && info.dli_fname != nullptr) {
        (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    }
}

int fill(mca_translator_base_module_t *module, const char *layout, mca_translator_base_fn_t *table, size_t entries,
         size_t *filled)
{
    if (int rc = mca_translator_base_layout_check(kName, TESSERA_MPI_LAYOUT, layout); rc != TESSERA_SUCCESS) {
        return rc;
    }
    if (entries != TESSERA_MPI_FUNCTION_COUNT) {
        return TESSERA_ERR_VERSION;
    }
    if (const std::string why = load(); !why.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, std::string("translator ") + kName + ": " + why);
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    module->translator_runtime = runtime_description.c_str();
    array_stack_max = stack_array_limit > 0 ? static_cast<size_t>(stack_array_limit) : 0;
    pin_self();
    size_t direct_entries = 0;
    auto *direct = reinterpret_cast<tessera_mpi_dispatch_t *>(mca_translator_base_direct_table(&direct_entries));
    const size_t n = runtime_fill(reinterpret_cast<tessera_mpi_dispatch_t *>(table),
                                  direct_entries == TESSERA_MPI_FUNCTION_COUNT ? direct : nullptr);
    if (filled != nullptr) {
        *filled = n;
    }
    return TESSERA_SUCCESS;
}

int finalize(mca_translator_base_module_t *)
{
    /* After the runtime's MPI_Finalize no callback comes any more; the library itself stays loaded. */
    runtime_release();
    return TESSERA_SUCCESS;
}

mca_translator_base_module_t module = {
    .translator_component = &TRANSLATOR_COMPONENT,
    .translator_runtime = TRANSLATOR_RT_DISPLAY,
    .translator_fill = fill,
    .translator_finalize = finalize,
    .module_state = nullptr,
    .reserved = {},
};

int query(void **out, int *priority)
{
    *out = nullptr;
    if (mca_translator_base_launcher() != TRANSLATOR_RT_LAUNCHER) {
        if (access(library_path, R_OK) != 0) {
            return mca_translator_base_decline(kName, (std::string("cannot read ") + library_path).c_str());
        }
        *out = &module;
        *priority = 0; /* only when named: --mca translator <rt> */
        return TESSERA_SUCCESS;
    }
    if (const std::string why = load(); !why.empty()) {
        return mca_translator_base_decline(kName, why.c_str());
    }
    module.translator_runtime = runtime_description.c_str();
    *out = &module;
    *priority = kPriorityUnderLauncher;
    return TESSERA_SUCCESS;
}

} // namespace
} // namespace tessera::ompi::translator_<rt>

mca_translator_base_component_t TRANSLATOR_COMPONENT = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_translator_base_component_t, "translator", MCA_TRANSLATOR_BASE_VERSION,
                                       TRANSLATOR_STR(TRANSLATOR_RT), 1, 0, 0),
             .mca_register_params = tessera::ompi::TRANSLATOR_CAT(translator_, TRANSLATOR_RT)::register_params,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = tessera::ompi::TRANSLATOR_CAT(translator_, TRANSLATOR_RT)::query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
