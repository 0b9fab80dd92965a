/*
 * ess base: the framework declaration, and the one place the MPI layer asks who the process is and
 * exchanges its wire-up data: the module chosen for the process (ess.h) behind a few C++ calls.
 */
#ifndef TESSERA_FRAMEWORKS_ESS_BASE_BASE_H
#define TESSERA_FRAMEWORKS_ESS_BASE_BASE_H

#include "frameworks/ess/ess.h"
#include "mca/framework.h"

#ifdef __cplusplus
extern "C" {
#endif

extern mca_base_framework_t mca_ess_base_framework;

#ifdef __cplusplus
}

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "orte/runtime/launch_env.h"

namespace tessera::orte::ess {

/*
 * Registers and opens the framework, selects the component for this process and runs its init. The
 * identity as a LaunchInfo, or nullopt and *error (which names the component) when no component can
 * serve the process or its init failed. Once per process until finalize().
 */
std::optional<LaunchInfo> start(std::string *error);

/* start() succeeded and finalize() has not run. */
bool active();
/* start() was called in this process, whatever its result. */
bool attempted();
/* The selected component's name ("mpirun", "pmix", "singleton"), or "" before start(). */
std::string component_name();

int put(std::string_view key, std::span<const std::byte> value);
int commit();
/* *why (when given) receives the module's message on an error. */
int fence(bool collect, std::string *why = nullptr);
/* What `rank` put under `key` before the last collecting fence; the bytes are the module's until
 * finalize(). nullopt when there is none. */
std::optional<std::span<const std::byte>> get(int rank, std::string_view key);

/* The launcher prints abort()'s message itself (mpirun); otherwise the caller prints it first. */
bool launcher_prints_abort();
/* MPI_Abort: TESSERA_SUCCESS once the launcher has the request; an error when there is no module or
 * the launcher could not be told. */
int abort(int exit_code, std::string_view message);
/* MPI_Finalize: tells the launcher, disconnects, closes the framework. Without a module: success. */
int finalize();

/*
 * When the environment shows a launch this process would not be part of as a singleton (a resource
 * manager that started several tasks but gave this one no PMI, or a PMIx server no component can
 * serve): the reason, naming what to do; "" otherwise. Read from the environment only.
 */
std::string unserved_launch();

} // namespace tessera::orte::ess
#endif

#endif
