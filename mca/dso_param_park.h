/*
 * Keeping a DSO component's parameters safe when its DSO is unloaded. The parameter system holds a
 * pointer to each variable's storage and writes through it whenever a value is set later (--mca after
 * start-up, a re-read of the sources); a component's storage lives in its DSO, so once the DSO is gone
 * that write would land in unmapped memory.
 */
#ifndef TESSERA_MCA_DSO_PARAM_PARK_H
#define TESSERA_MCA_DSO_PARAM_PARK_H

#include <string>

namespace tessera::mca {

/*
 * Rebinds (registers again, var.h) every variable of <framework>_<component>_* to storage owned by the
 * MCA core, with the same default, so the variables keep their values and stay listed. Call it just
 * before the component's DSO is closed; loading the DSO again binds them back to it.
 */
void park_component_params(const std::string &framework, const std::string &component);

} // namespace tessera::mca

#endif
