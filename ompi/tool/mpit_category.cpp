/*
 * Categories (MPI-4.1 15.3.8): one per framework (and one per group of parameters outside frameworks,
 * such as "pml" and "mpi"), with a child per component, each holding that component's parameters; the
 * pvars and events sit in the category of what they measure. Categories are only ever added, and
 * MPI_T_category_changed counts every addition of a category or of a variable to one.
 */
#include <algorithm>

#include "ompi/runtime/native_api.h"
#include "ompi/tool/mpit.h"

namespace tessera::ompi::native {

using tool::State;

namespace {

/* The category at `index` after the usual checks, or an MPI_T error code in *rc. */
const tool::Category *category_at(State &s, int index, int *rc)
{
    *rc = tool::require_init(s);
    if (*rc != MPI_SUCCESS) {
        return nullptr;
    }
    tool::refresh_catalog(s);
    if (index < 0 || static_cast<size_t>(index) >= s.catalog.categories.size()) {
        *rc = MPI_T_ERR_INVALID_INDEX;
        return nullptr;
    }
    return &s.catalog.categories[static_cast<size_t>(index)];
}

int copy_indices(const std::vector<int> &from, int len, int indices[])
{
    if (len < 0 || (len > 0 && indices == nullptr)) {
        return MPI_T_ERR_INVALID;
    }
    std::copy_n(from.begin(), std::min(static_cast<size_t>(len), from.size()), indices);
    return MPI_SUCCESS;
}

template <typename Member>
int get_members(int cat_index, int len, int indices[], Member member)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    int rc = MPI_SUCCESS;
    const tool::Category *c = category_at(s, cat_index, &rc);
    return c == nullptr ? rc : copy_indices(c->*member, len, indices);
}

} // namespace

int t_category_get_num(int *num_cat)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_cat == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    *num_cat = static_cast<int>(s.catalog.categories.size());
    return MPI_SUCCESS;
}

int t_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                        int *num_pvars, int *num_categories)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    int rc = MPI_SUCCESS;
    const tool::Category *c = category_at(s, cat_index, &rc);
    if (c == nullptr) {
        return rc;
    }
    tool::string_out(c->name, name, name_len);
    tool::string_out(c->desc, desc, desc_len);
    if (num_cvars != nullptr) {
        *num_cvars = static_cast<int>(c->cvars.size());
    }
    if (num_pvars != nullptr) {
        *num_pvars = static_cast<int>(c->pvars.size());
    }
    if (num_categories != nullptr) {
        *num_categories = static_cast<int>(c->children.size());
    }
    return MPI_SUCCESS;
}

int t_category_get_num_events(int cat_index, int *num_events)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    int rc = MPI_SUCCESS;
    const tool::Category *c = category_at(s, cat_index, &rc);
    if (c == nullptr) {
        return rc;
    }
    if (num_events == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *num_events = static_cast<int>(c->events.size());
    return MPI_SUCCESS;
}

int t_category_get_index(const char *name, int *cat_index)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (name == nullptr || cat_index == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    auto it = s.catalog.category_by_name.find(std::string_view(name));
    if (it == s.catalog.category_by_name.end()) {
        return MPI_T_ERR_INVALID_NAME;
    }
    *cat_index = it->second;
    return MPI_SUCCESS;
}

int t_category_get_cvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, &tool::Category::cvars);
}

int t_category_get_pvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, &tool::Category::pvars);
}

int t_category_get_events(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, &tool::Category::events);
}

int t_category_get_categories(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, &tool::Category::children);
}

int t_category_changed(int *update_number)
{
    State &s = tool::state();
    std::lock_guard lock(s.mutex);
    if (int rc = tool::require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (update_number == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    tool::refresh_catalog(s);
    *update_number = s.catalog.changed;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
