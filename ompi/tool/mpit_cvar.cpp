/*
 * Control variables (MPI-4.1 15.3.6) are the MCA parameters: cvar index = the parameter's index in the
 * registry, so MPI_T and tessera_info list the same names, types and levels in the same order.
 *
 * Types: bool and int as MPI_INT, unsigned as MPI_UNSIGNED, size as MPI_UNSIGNED_LONG, double as
 * MPI_DOUBLE, enum as MPI_INT with its MPI_T_enum, string and list as MPI_CHAR.
 * Writing (MPI_T_cvar_write): constant and readonly parameters never; before MPI_Init every other one
 * (the value is a setting of the highest source, "MPI_T", and MPI_Init opens the frameworks with it);
 * between MPI_Init and the end only those the library reads where it uses them
 * (MCA_VAR_FLAG_RUNTIME), the others having been read when their framework opened.
 */
#include <cstring>

#include "ompi/runtime/native_api.h"
#include "ompi/runtime/runtime.h"
#include "ompi/tool/mpit.h"

namespace tessera::ompi::tool {

namespace {

static_assert(sizeof(size_t) == sizeof(unsigned long), "size parameters are shown as MPI_UNSIGNED_LONG");

/* A string cvar is read into MPI_CHAR[count]: room for the value at the time of the handle's allocation,
 * and at least this much, so that a tool may write a longer one through the same handle. */
constexpr int kMinStringCount = 256;

struct CvarHandle {
    int index;
    int count;
};

std::vector<std::unique_ptr<CvarHandle>> &handles()
{
    static std::vector<std::unique_ptr<CvarHandle>> list;
    return list;
}

CvarHandle *handle_of(MPI_T_cvar_handle h)
{
    for (auto &p : handles()) {
        if (reinterpret_cast<MPI_T_cvar_handle>(p.get()) == h) {
            return p.get();
        }
    }
    return nullptr;
}

MPI_Datatype datatype_of(mca_var_type_t type)
{
    switch (type) {
    case MCA_VAR_TYPE_BOOL:
    case MCA_VAR_TYPE_INT:
    case MCA_VAR_TYPE_ENUM: return MPI_INT;
    case MCA_VAR_TYPE_UNSIGNED: return MPI_UNSIGNED;
    case MCA_VAR_TYPE_SIZE: return MPI_UNSIGNED_LONG;
    case MCA_VAR_TYPE_DOUBLE: return MPI_DOUBLE;
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST: return MPI_CHAR;
    }
    return MPI_DATATYPE_NULL;
}

int scope_of(mca_var_scope_t scope)
{
    switch (scope) {
    case MCA_VAR_SCOPE_CONSTANT: return MPI_T_SCOPE_CONSTANT;
    case MCA_VAR_SCOPE_READONLY: return MPI_T_SCOPE_READONLY;
    case MCA_VAR_SCOPE_LOCAL: return MPI_T_SCOPE_LOCAL;
    /* The MCA's group and all scopes say the value must be equal, not only set together. */
    case MCA_VAR_SCOPE_GROUP: return MPI_T_SCOPE_GROUP_EQ;
    case MCA_VAR_SCOPE_ALL: return MPI_T_SCOPE_ALL_EQ;
    }
    return MPI_T_SCOPE_LOCAL;
}

bool is_string(mca_var_type_t type)
{
    return type == MCA_VAR_TYPE_STRING || type == MCA_VAR_TYPE_LIST;
}

/* MPI_SUCCESS, or why the parameter cannot be set now (15.3.6, MPI_T_cvar_write). */
int may_write(const mca::VarInfo &v)
{
    if (v.scope == MCA_VAR_SCOPE_CONSTANT || v.scope == MCA_VAR_SCOPE_READONLY) {
        return MPI_T_ERR_CVAR_SET_NEVER;
    }
    if ((v.flags & MCA_VAR_FLAG_RUNTIME) != 0) {
        return MPI_SUCCESS;
    }
    switch (mpi_phase.load(std::memory_order_acquire)) {
    case Phase::NotInitialized: return MPI_SUCCESS;
    case Phase::Initializing: return MPI_T_ERR_CVAR_SET_NOT_NOW; /* MPI_Init is reading it */
    case Phase::Initialized:
    case Phase::Finalized: break;
    }
    return MPI_T_ERR_CVAR_SET_NEVER; /* read when its framework opened; MPI cannot start again */
}

} // namespace

void release_cvar_handles()
{
    handles().clear();
}

} // namespace tessera::ompi::tool

namespace tessera::ompi::native {

using tool::State;

int t_cvar_get_num(int *num_cvar)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_cvar == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    *num_cvar = static_cast<int>(s.catalog.cvars.size());
    return MPI_SUCCESS;
}

int t_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                    MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    tool::refresh_catalog(s);
    if (cvar_index < 0 || static_cast<size_t>(cvar_index) >= s.catalog.cvars.size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const mca::VarInfo &v = s.catalog.cvars[static_cast<size_t>(cvar_index)];
    tool::string_out(v.full_name, name, name_len);
    tool::string_out(v.help, desc, desc_len);
    if (verbosity != nullptr) {
        *verbosity = tool::verbosity_of_level(v.level);
    }
    if (datatype != nullptr) {
        *datatype = tool::datatype_of(v.type);
    }
    if (enumtype != nullptr) {
        tool::Enum *e = s.catalog.cvar_enum[static_cast<size_t>(cvar_index)];
        *enumtype = e != nullptr ? reinterpret_cast<MPI_T_enum>(e) : MPI_T_ENUM_NULL;
    }
    if (bind != nullptr) {
        *bind = MPI_T_BIND_NO_OBJECT; /* every parameter is the process's, none a communicator's */
    }
    if (scope != nullptr) {
        *scope = tool::scope_of(v.scope);
    }
    return MPI_SUCCESS;
}

int t_cvar_get_index(const char *name, int *cvar_index)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (name == nullptr || cvar_index == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    for (const mca::VarInfo &v : s.catalog.cvars) {
        if (v.full_name == name) {
            *cvar_index = v.index;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

int t_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* MPI_T_BIND_NO_OBJECT: ignored (15.3.6) */
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (handle == nullptr || count == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    if (cvar_index < 0 || static_cast<size_t>(cvar_index) >= s.catalog.cvars.size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const mca::VarInfo &v = s.catalog.cvars[static_cast<size_t>(cvar_index)];
    int n = 1;
    if (tool::is_string(v.type)) {
        const std::optional<mca::VarValue> value = mca::var_value(cvar_index);
        const size_t len = value ? value->s.size() + 1 : 1;
        n = std::max(tool::kMinStringCount, static_cast<int>(std::min<size_t>(len, 1 << 20)));
    }
    try {
        tool::handles().push_back(std::make_unique<tool::CvarHandle>(tool::CvarHandle{cvar_index, n}));
    } catch (const std::bad_alloc &) {
        return MPI_T_ERR_OUT_OF_HANDLES;
    }
    *handle = reinterpret_cast<MPI_T_cvar_handle>(tool::handles().back().get());
    *count = n;
    return MPI_SUCCESS;
}

int t_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (handle == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    auto &list = tool::handles();
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (reinterpret_cast<MPI_T_cvar_handle>(it->get()) == *handle) {
            list.erase(it);
            *handle = MPI_T_CVAR_HANDLE_NULL;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_HANDLE;
}

int t_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    const tool::CvarHandle *h = tool::handle_of(handle);
    if (h == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (buf == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    const std::optional<mca::VarValue> v = mca::var_value(h->index);
    if (!v) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    switch (v->type) {
    case MCA_VAR_TYPE_BOOL: *static_cast<int *>(buf) = v->b ? 1 : 0; break;
    case MCA_VAR_TYPE_INT:
    case MCA_VAR_TYPE_ENUM: *static_cast<int *>(buf) = v->i; break;
    case MCA_VAR_TYPE_UNSIGNED: *static_cast<unsigned *>(buf) = v->u; break;
    case MCA_VAR_TYPE_SIZE: *static_cast<unsigned long *>(buf) = v->z; break;
    case MCA_VAR_TYPE_DOUBLE: *static_cast<double *>(buf) = v->d; break;
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST: {
        const size_t n = std::min(v->s.size(), static_cast<size_t>(h->count - 1));
        std::memcpy(buf, v->s.data(), n);
        static_cast<char *>(buf)[n] = '\0';
        break;
    }
    }
    return MPI_SUCCESS;
}

int t_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    const tool::CvarHandle *h = tool::handle_of(handle);
    if (h == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (buf == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    /* Flags may have been added since the catalog saw the parameter: ask the registry again. */
    const std::optional<mca::VarInfo> info =
        mca::find_var(s.catalog.cvars[static_cast<size_t>(h->index)].full_name);
    if (!info) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (int rc = tool::may_write(*info); rc != MPI_SUCCESS) {
        return rc;
    }
    mca::VarValue value;
    value.type = info->type;
    switch (info->type) {
    case MCA_VAR_TYPE_BOOL: value.b = *static_cast<const int *>(buf) != 0; break;
    case MCA_VAR_TYPE_INT:
    case MCA_VAR_TYPE_ENUM: value.i = *static_cast<const int *>(buf); break;
    case MCA_VAR_TYPE_UNSIGNED: value.u = *static_cast<const unsigned *>(buf); break;
    case MCA_VAR_TYPE_SIZE: value.z = *static_cast<const unsigned long *>(buf); break;
    case MCA_VAR_TYPE_DOUBLE: value.d = *static_cast<const double *>(buf); break;
    case MCA_VAR_TYPE_STRING:
    case MCA_VAR_TYPE_LIST: {
        const char *text = static_cast<const char *>(buf);
        value.s.assign(text, strnlen(text, static_cast<size_t>(h->count)));
        break;
    }
    }
    /* A value the parameter does not accept (type, range, its owner's check) changes nothing. */
    return mca::set_from_tool(h->index, value).empty() ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

} // namespace tessera::ompi::native
