/*
 * translator native: fills the dispatch table with Tessera's own engine — each function behind the
 * argument checks generated for it (ompi/api/gen_bindings.py, mpi_checked.c), since those checks look
 * up native objects. Priority 10: chosen unless a runtime translator sees its launcher (priority 100)
 * or the `translator` parameter names another.
 */
#include "frameworks/translator/base/base.h"
#include "ompi/runtime/native_translator.h"

extern "C" mca_translator_base_component_t mca_translator_native_component;

namespace {

constexpr int kPriority = 10;

int fill(mca_translator_base_module_t *, const char *layout, mca_translator_base_fn_t *table, size_t entries,
         size_t *filled)
{
    if (int rc = mca_translator_base_layout_check("native", tessera_ompi_native_layout(), layout);
        rc != TESSERA_SUCCESS) {
        return rc;
    }
    return tessera_ompi_native_fill(table, entries, filled);
}

mca_translator_base_module_t module = {
    .translator_component = &mca_translator_native_component,
    .translator_runtime = "Tessera's native engine",
    .translator_fill = fill,
    .translator_finalize = nullptr,
    .module_state = nullptr,
    .reserved = {},
};

int query(void **out, int *priority)
{
    *out = &module;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

} // namespace

mca_translator_base_component_t mca_translator_native_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_translator_base_component_t, "translator", MCA_TRANSLATOR_BASE_VERSION,
                                       "native", 1, 0, 0),
             .mca_register_params = nullptr,
             .mca_open_component = nullptr,
             .mca_close_component = nullptr,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .reserved = {},
};
