#include "ompi/runtime/native_dispatch.h"

#include "ompi/runtime/native_translator.h"

extern "C" {

const char *tessera_ompi_native_layout(void)
{
    return TESSERA_MPI_LAYOUT;
}

int tessera_ompi_native_fill(mca_translator_base_fn_t *table, size_t entries, size_t *filled)
{
    static_assert(sizeof(tessera_mpi_dispatch_t) == TESSERA_MPI_FUNCTION_COUNT * sizeof(mca_translator_base_fn_t),
                  "the dispatch table is an array of function pointers");
    if (table == nullptr || entries != TESSERA_MPI_FUNCTION_COUNT) {
        return TESSERA_ERR_VERSION;
    }
    tessera_mpi_dispatch_t bare{};
    tessera::ompi::native_fill(&bare);
    auto *t = reinterpret_cast<tessera_mpi_dispatch_t *>(table);
    tessera_mpi_install_checked(t, &bare);
    if (filled != nullptr) {
        size_t n = 0;
        for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
            n += tessera_mpi_slot_filled(&bare, i) != 0;
        }
        *filled = n;
    }
    return TESSERA_SUCCESS;
}

} // extern "C"
