#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "mca/component_check.h"
#include "mca/component_repository.h"
#include "mca/framework_state.h"
#include "mca/report.h"
#include "mca/select.h"
#include "mca/var.h"

namespace tessera::mca {

namespace {

std::vector<mca_base_framework_t *> g_registered;

/* Never erased: the parameter system holds pointers into these states (framework_state.h). */
std::map<const mca_base_framework_t *, std::unique_ptr<mca_framework_state>> &all_states()
{
    static std::map<const mca_base_framework_t *, std::unique_ptr<mca_framework_state>> states;
    return states;
}

mca_framework_state &state_of(const mca_base_framework_t *fw)
{
    auto &slot = all_states()[fw];
    if (!slot) {
        slot = std::make_unique<mca_framework_state>();
    }
    return *slot;
}

bool is_registered(const mca_base_framework_t *fw)
{
    return fw != nullptr && fw->state != nullptr && fw->state->registered;
}

std::vector<std::string> names_of(const std::vector<FoundComponent> &components)
{
    std::vector<std::string> names;
    for (const auto &c : components) {
        names.push_back(c.name);
    }
    return names;
}

/* Finds the components and registers their parameters; a component whose registration fails is
 * refused like one that failed to load. */
void load_components(mca_base_framework_t &fw, mca_framework_state &st, bool register_framework_params)
{
    std::vector<std::string> others;
    for (const auto *other : g_registered) {
        if (other != &fw) {
            others.emplace_back(other->name);
        }
    }
    st.components = find_components(fw, others);

    if (register_framework_params) {
        const auto names = names_of(st.components);
        std::string help = "Which " + std::string(fw.name) +
                           " components may be used: a comma-separated list to include (\"a,b\"), or one "
                           "to exclude starting with '^' (\"^a,b\"); empty allows all. Components: ";
        std::string list;
        for (const auto &n : names) {
            list += (list.empty() ? "" : ", ") + n;
        }
        help += list.empty() ? "none found" : list;
        st.selection = nullptr;
        mca_var_register(fw.name, "", "", help.c_str(), MCA_VAR_TYPE_STRING, nullptr, MCA_INFO_LVL_2,
                         MCA_VAR_SCOPE_ALL, MCA_VAR_FLAG_NONE, &st.selection);
        st.verbose = 0;
        mca_var_register(fw.name, "base", "verbose",
                         (std::string("Verbosity of the ") + fw.name +
                          " framework's notes on stderr (0: none; 1: components dropped and selected; 10: "
                          "every query)")
                             .c_str(),
                         MCA_VAR_TYPE_INT, nullptr, MCA_INFO_LVL_8, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_RUNTIME,
                         &st.verbose);
        if (fw.register_params != nullptr) {
            const int rc = fw.register_params();
            if (rc != TESSERA_SUCCESS) {
                report(Severity::Error, std::string("the ") + fw.name +
                                            " framework could not register its parameters: " +
                                            tessera_strerror(rc));
            }
        }
    }

    for (auto it = st.components.begin(); it != st.components.end();) {
        const mca_base_component_t *c = it->component;
        const int rc = c->mca_register_params != nullptr ? c->mca_register_params(c) : TESSERA_SUCCESS;
        if (rc != TESSERA_SUCCESS) {
            record_load_error({fw.name, it->name, it->path,
                               std::string("registering its parameters failed: ") + tessera_strerror(rc)});
            it = st.components.erase(it);
        } else {
            ++it;
        }
    }
    st.loaded = true;
}

/* Closes every open component (last first, the reverse of opening) and unloads the DSOs. */
void close_all(mca_base_framework_t &fw, mca_framework_state &st)
{
    for (auto it = st.components.rbegin(); it != st.components.rend(); ++it) {
        close_component(fw, *it);
    }
    st.components.clear();
    st.loaded = false;
}

} // namespace

std::recursive_mutex &framework_mutex()
{
    static std::recursive_mutex mutex;
    return mutex;
}

void close_component(const mca_base_framework_t &fw, const FoundComponent &component)
{
    if (component.component->mca_close_component != nullptr) {
        const int rc = component.component->mca_close_component();
        if (rc != TESSERA_SUCCESS) {
            framework_note(fw, 1, "component " + component.name + " failed to close: " + tessera_strerror(rc));
        }
    }
}

void framework_note(const mca_base_framework_t &fw, int level, const std::string &text)
{
    if (fw.state != nullptr && fw.state->verbose >= level) {
        std::fprintf(stderr, "tessera: %s: %s\n", fw.name, text.c_str());
    }
}

int framework_register(mca_base_framework_t *fw)
{
    if (fw == nullptr || fw->name == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    std::lock_guard lock(framework_mutex());
    if (is_registered(fw)) {
        return TESSERA_SUCCESS;
    }
    repository_register_params();
    mca_framework_state &st = state_of(fw);
    st.registered = true;
    st.refcount = 0;
    fw->state = &st;
    g_registered.push_back(fw);
    load_components(*fw, st, true);
    return TESSERA_SUCCESS;
}

int framework_open(mca_base_framework_t *fw)
{
    if (fw == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    std::lock_guard lock(framework_mutex());
    if (!is_registered(fw)) {
        if (const int rc = framework_register(fw); rc != TESSERA_SUCCESS) {
            return rc;
        }
    }
    mca_framework_state &st = *fw->state;
    if (st.refcount > 0) {
        ++st.refcount;
        return TESSERA_SUCCESS;
    }
    if (!st.loaded) {
        load_components(*fw, st, false); /* closed earlier: the DSOs were unloaded */
    }

    Selection selection;
    const int rc = parse_selection(fw->name, st.selection != nullptr ? st.selection : "", names_of(st.components),
                                   load_errors_of(fw->name), &selection);
    if (rc != TESSERA_SUCCESS) {
        return rc;
    }

    std::vector<FoundComponent> opened;
    for (auto &c : st.components) {
        if (!selection.allows(c.name)) {
            framework_note(*fw, 1, "component " + c.name + " not opened: excluded by " + fw->name + " = \"" +
                                       (st.selection != nullptr ? st.selection : "") + "\"");
            continue;
        }
        /* The ranges of its rows first: a component checks only what a row cannot say. */
        if (mca_var_check_ranges(fw->name, c.name.c_str()) != 0) {
            framework_note(*fw, 1, "component " + c.name + " dropped: a parameter is out of its range");
            continue;
        }
        const mca_base_component_t *base = c.component;
        const int orc = base->mca_open_component != nullptr ? base->mca_open_component() : TESSERA_SUCCESS;
        if (orc != TESSERA_SUCCESS) {
            framework_note(*fw, 1, "component " + c.name + " dropped: its open failed: " + tessera_strerror(orc));
            continue;
        }
        opened.push_back(std::move(c));
    }
    st.components = std::move(opened); /* unloads the excluded and failed ones */

    if (fw->open != nullptr) {
        const int frc = fw->open();
        if (frc != TESSERA_SUCCESS) {
            report(Severity::Error, std::string("the ") + fw->name + " framework failed to open: " +
                                        tessera_strerror(frc));
            close_all(*fw, st);
            return frc;
        }
    }
    st.refcount = 1;
    return TESSERA_SUCCESS;
}

int framework_close(mca_base_framework_t *fw)
{
    std::lock_guard lock(framework_mutex());
    if (!is_registered(fw) || fw->state->refcount == 0) {
        return TESSERA_ERR_BAD_PARAM;
    }
    mca_framework_state &st = *fw->state;
    if (--st.refcount > 0) {
        return TESSERA_SUCCESS;
    }
    int rc = TESSERA_SUCCESS;
    if (fw->close != nullptr) {
        rc = fw->close();
    }
    close_all(*fw, st);
    return rc;
}

bool framework_is_open(const mca_base_framework_t *fw)
{
    std::lock_guard lock(framework_mutex());
    return is_registered(fw) && fw->state->refcount > 0;
}

std::vector<ComponentEntry> framework_components(const mca_base_framework_t *fw)
{
    std::lock_guard lock(framework_mutex());
    std::vector<ComponentEntry> out;
    if (!is_registered(fw)) {
        return out;
    }
    for (const auto &c : fw->state->components) {
        out.push_back({c.component, c.path});
    }
    return out;
}

std::vector<mca_base_framework_t *> registered_frameworks()
{
    std::lock_guard lock(framework_mutex());
    return g_registered;
}

void frameworks_finalize()
{
    std::lock_guard lock(framework_mutex());
    for (auto it = g_registered.rbegin(); it != g_registered.rend(); ++it) {
        mca_base_framework_t *fw = *it;
        mca_framework_state &st = *fw->state;
        if (st.refcount > 0) {
            st.refcount = 1;
            framework_close(fw);
        }
        st.components.clear(); /* registered but never opened: nothing to close, only to unload */
        st.loaded = false;
        st.registered = false;
        fw->state = nullptr;
    }
    g_registered.clear();
    repository_finalize();
}

} // namespace tessera::mca
