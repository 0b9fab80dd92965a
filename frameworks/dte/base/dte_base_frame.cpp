/* The dte framework. */
#include "frameworks/dte/base/base.h"
#include "frameworks/dte/base/dte_base_program_internal.h"
#include "mca/var.h"

namespace {

int register_params()
{
    using namespace tessera::ompi::dte;
    /* Registration takes the storage's value as the default: start from the real one. */
    field_chunk_bytes = kDefaultFieldChunkBytes;
    const int rc = mca_var_register(
        "dte", "base", "field_chunk",
        "Bytes of memory the interpreter covers field by field when it copies the iterations of a loop "
        "of single blocks (a struct's fields): each field is then one strided loop of fixed-size copies "
        "over the chunk, instead of a dispatch per field per iteration; 0: iteration by iteration",
        MCA_VAR_TYPE_SIZE, nullptr, MCA_INFO_LVL_6, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE, &field_chunk_bytes);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

} // namespace

extern "C" const mca_base_component_t *const mca_dte_base_static_components[];

extern "C" {
mca_base_framework_t mca_dte_base_framework = {
    .layer = "ompi",
    .name = "dte",
    .description = "Datatype engine: turns committed datatypes into pack/unpack plans (interpreter, LLVM JIT)",
    .version = MCA_DTE_BASE_VERSION,
    .kind = MCA_FRAMEWORK_PER_OBJECT,
    .component_struct_size = sizeof(mca_dte_base_component_t),
    .register_params = register_params,
    .open = nullptr,
    .close = nullptr,
    .static_components = mca_dte_base_static_components,
    .state = nullptr,
    .flags = 0,
    .reserved_u32 = 0,
    .reserved = {},
};
}
