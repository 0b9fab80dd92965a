#include "mca/dso_param_park.h"

#include <map>
#include <memory>
#include <vector>

#include "mca/var.h"
#include "mca/var_parse.h"
#include "mca/var_store.h"

namespace tessera::mca {

namespace {

struct ParkedVar {
    alignas(alignof(std::max_align_t)) unsigned char storage[16] = {}; /* any of the C storage types */
    std::string text; /* what a STRING or LIST storage points to */
    std::vector<std::string> enum_names;
    std::vector<mca_var_enum_value_t> enum_table;
};

/* By full name, never erased: the parameter system keeps pointers to these slots. A variable parked
 * again (another close) reuses its slot. */
std::map<std::string, std::unique_ptr<ParkedVar>> &parked()
{
    static std::map<std::string, std::unique_ptr<ParkedVar>> slots;
    return slots;
}

} // namespace

void park_component_params(const std::string &framework, const std::string &component)
{
    static_assert(sizeof(ParkedVar::storage) >= sizeof(double) && sizeof(ParkedVar::storage) >= sizeof(size_t) &&
                  sizeof(ParkedVar::storage) >= sizeof(const char *));
    for (const auto &v : list_vars()) {
        if (v.framework != framework || v.component != component) {
            continue;
        }
        auto &slot = parked()[v.full_name];
        if (!slot) {
            slot = std::make_unique<ParkedVar>();
        }
        ParkedVar &p = *slot;

        p.enum_names.clear();
        p.enum_table.clear();
        for (const auto &e : v.enumerators) {
            p.enum_names.push_back(e.second);
        }
        for (size_t i = 0; i < v.enumerators.size(); ++i) {
            p.enum_table.push_back({v.enumerators[i].first, p.enum_names[i].c_str()});
        }
        p.enum_table.push_back({0, nullptr});

        /* The default goes into the slot first: registering reads the default from the storage. */
        const ParseResult def = parse_value(v.type, v.enumerators, v.default_value);
        VarValue value;
        value.type = v.type;
        if (def.ok()) {
            value = *def.value;
        }
        store_value(value, p.storage, p.text);
        mca_var_register(v.framework.c_str(), v.component.c_str(), v.name.c_str(), v.help.c_str(), v.type,
                         v.type == MCA_VAR_TYPE_ENUM ? p.enum_table.data() : nullptr,
                         static_cast<mca_var_info_level_t>(v.level), v.scope, v.flags, p.storage);
    }
}

} // namespace tessera::mca
