/*
 * translator fakert: a stand-in for a runtime translator (ompi, mpich), so that the selection, the
 * coverage and the bindings can be tested without any real runtime. Like them it answers priority 100
 * when it sees "its" launcher (Open MPI's environment, read through the base) and 0 otherwise, and
 * declines with a reason when TESSERA_FAKERT_DECLINE is set (as a missing library would). It fills two
 * entries of the dispatch table and one direct twin; finalize leaves a mark in the environment.
 */
#include <cstdlib>

#include "frameworks/translator/base/base.h"
#include "tessera_mpi_dispatch.h"

extern "C" mca_translator_base_component_t mca_translator_fakert_component;

namespace {

/* What the "runtime" answers, told apart from the native engine by the values. */
int fake_get_version(int *version, int *subversion)
{
    *version = 77;
    *subversion = tessera_translator_inside() ? 1 : 0; /* the thunk's enter is visible inside */
    return MPI_SUCCESS;
}

/* Like a generated thunk: a call from inside the runtime goes untouched to the runtime's own function. */
int thunk_get_version(int *version, int *subversion)
{
    if (tessera_translator_inside()) {
        return tessera_mpi_direct.Get_version(version, subversion);
    }
    tessera_translator_enter();
    int rc = fake_get_version(version, subversion);
    tessera_translator_leave();
    return rc;
}

/* The "runtime's own" MPI_Get_version, reached through the direct table when it calls itself. */
int direct_get_version(int *version, int *subversion)
{
    *version = 88;
    *subversion = 8;
    return MPI_SUCCESS;
}

/* A thunk whose runtime function has no direct twin here: from inside the runtime it is unsupported. */
int fake_comm_size(MPI_Comm, int *size)
{
    if (tessera_translator_inside()) {
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    *size = 5;
    return MPI_SUCCESS;
}

int fill(mca_translator_base_module_t *, const char *layout, mca_translator_base_fn_t *table, size_t entries,
         size_t *filled)
{
    if (int rc = mca_translator_base_layout_check("fakert", TESSERA_MPI_LAYOUT, layout); rc != TESSERA_SUCCESS) {
        return rc;
    }
    if (entries != TESSERA_MPI_FUNCTION_COUNT) {
        return TESSERA_ERR_VERSION;
    }
    auto *t = reinterpret_cast<tessera_mpi_dispatch_t *>(table);
    t->Get_version = thunk_get_version;
    t->Comm_size = fake_comm_size;
    size_t direct_entries = 0;
    auto *direct = reinterpret_cast<tessera_mpi_dispatch_t *>(mca_translator_base_direct_table(&direct_entries));
    if (direct_entries == TESSERA_MPI_FUNCTION_COUNT) {
        direct->Get_version = direct_get_version;
    }
    if (filled != nullptr) {
        *filled = 2;
    }
    return TESSERA_SUCCESS;
}

/* Says it ran, for the tests (a runtime translator would let go of its library here). */
int finalize(mca_translator_base_module_t *)
{
    setenv("TESSERA_FAKERT_FINALIZED", "1", 1);
    return TESSERA_SUCCESS;
}

mca_translator_base_module_t module = {
    .translator_component = &mca_translator_fakert_component,
    .translator_runtime = "Fake runtime 1.0 (libfake.so)",
    .translator_fill = fill,
    .translator_finalize = finalize,
    .module_state = nullptr,
    .reserved = {},
};

int query(void **out, int *priority)
{
    if (const char *why = std::getenv("TESSERA_FAKERT_DECLINE"); why != nullptr) {
        return mca_translator_base_decline("fakert", why);
    }
    *out = &module;
    *priority = mca_translator_base_launcher() == MCA_TRANSLATOR_LAUNCHER_OPENMPI ? 100 : 0;
    return TESSERA_SUCCESS;
}

} // namespace

mca_translator_base_component_t mca_translator_fakert_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_translator_base_component_t, "translator", MCA_TRANSLATOR_BASE_VERSION,
                                       "fakert", 1, 0, 0),
             .mca_register_params = nullptr,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
