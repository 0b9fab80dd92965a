/* Enumerations (MPI-4.1 15.3.5): the named values of an enum parameter (its name is the parameter's),
 * and of a state pvar. */
#include "ompi/runtime/native_api.h"
#include "ompi/tool/mpit.h"

namespace tessera::ompi::native {

int t_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    const tool::Enum *e = tool::enum_of(s.catalog, enumtype);
    if (e == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (num != nullptr) {
        *num = static_cast<int>(e->items.size());
    }
    tool::string_out(e->name, name, name_len);
    return MPI_SUCCESS;
}

int t_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len)
{
    tool::State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    const tool::Enum *e = tool::enum_of(s.catalog, enumtype);
    if (e == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (indx < 0 || static_cast<size_t>(indx) >= e->items.size()) {
        return MPI_T_ERR_INVALID_ITEM;
    }
    if (value != nullptr) {
        *value = e->items[static_cast<size_t>(indx)].first;
    }
    tool::string_out(e->items[static_cast<size_t>(indx)].second, name, name_len);
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
