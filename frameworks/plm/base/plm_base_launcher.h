/*
 * plm base: the launcher behind a plm module, for the launchers whose children are local processes kept
 * in a ChildTable (fork; ssh, whose remote children are local ssh clients). A component says where a
 * process goes (Launcher::spawn); LauncherModule gives it the module's function table (plm.h) and its
 * lifetime — created by the component's query, destroyed with its children by the component's close.
 */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_LAUNCHER_H
#define TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_LAUNCHER_H

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "frameworks/plm/base/plm_base_children.h"
#include "frameworks/plm/plm.h"

namespace tessera::orte::plm {

class Launcher {
public:
    Launcher() = default;
    Launcher(const Launcher &) = delete;
    Launcher &operator=(const Launcher &) = delete;
    virtual ~Launcher() = default;

    /* The module's plm_spawn, with spec and child already checked for NULL. */
    virtual int spawn(const mca_plm_base_proc_spec_t &spec, mca_plm_base_child_t *child) = 0;
    /* Where the children are kept: the module's plm_wait, plm_signal and plm_terminate_all are the
     * table's. */
    virtual ChildTable &children() = 0;
};

/* Starts `spec` on this host (prepare_exec, fork_exec) and takes the child into `children`; `who` names
 * the launcher in what is reported ("plm fork"). */
int spawn_local(const mca_plm_base_proc_spec_t &spec, const std::string &who, ChildTable *children,
                mca_plm_base_child_t *child);

/* One component's module and the Launcher behind it (its module_state) while the component is open. */
class LauncherModule {
public:
    using Factory = std::function<std::unique_ptr<Launcher>()>;

    /* constexpr: a component's module is ready before any code runs, as a plain C table would be. */
    constexpr explicit LauncherModule(const mca_plm_base_component_t *component)
        : module_{
              .plm_component = component,
              .plm_spawn = plm_spawn,
              .plm_wait = plm_wait,
              .plm_signal = plm_signal,
              .plm_terminate_all = plm_terminate_all,
              .module_state = nullptr,
              .reserved = {},
          }
    {
    }
    LauncherModule(const LauncherModule &) = delete;
    LauncherModule &operator=(const LauncherModule &) = delete;

    /* The component's query: creates the launcher with make() unless it has one, and hands out the
     * module (*out_module) with `priority` (*out_priority). */
    int query(const Factory &make, int priority, void **out_module, int *out_priority);
    /* The component's close: destroys the launcher, terminating and reaping its children. */
    void close();

private:
    /* The function table: module_state is the Launcher. */
    static int plm_spawn(mca_plm_base_module_t *plm, const mca_plm_base_proc_spec_t *spec,
                         mca_plm_base_child_t *child);
    static int plm_wait(mca_plm_base_module_t *plm, double timeout, mca_plm_base_exit_t *exit);
    static int plm_signal(mca_plm_base_module_t *plm, int64_t id, int sig);
    static int plm_terminate_all(mca_plm_base_module_t *plm);

    std::mutex mutex_;
    std::unique_ptr<Launcher> launcher_;
    mca_plm_base_module_t module_;
};

} // namespace tessera::orte::plm

#endif
