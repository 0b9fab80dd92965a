/*
 * The loader's trust decision: may this component struct be used by this framework in this build?
 * A component from an older or foreign build would otherwise be called through a struct layout it was
 * not compiled for, which crashes far from the cause; refusing it here names the file and both values.
 */
#ifndef TESSERA_MCA_COMPONENT_CHECK_H
#define TESSERA_MCA_COMPONENT_CHECK_H

#include <optional>
#include <string>
#include <string_view>

#include "mca/framework.h"

namespace tessera::mca {

/* "1.2.0" */
std::string version_string(const mca_base_version_t &v);

/*
 * Checks, in order: magic, MCA version (major equal, the component's minor not above ours), build id,
 * framework name, framework API version (same rule), component name == `expected_name` (the one in
 * the file name), and that the struct is at least as large as the framework's component struct.
 * Returns nothing when the component is acceptable, else the reason with both values, e.g.
 * "built for MCA 2.0.0, this library is MCA 1.0.0". The reason does not name the file: LoadError
 * carries it separately.
 */
std::optional<std::string> check_component(const mca_base_component_t &component,
                                            const mca_base_framework_t &fw,
                                            std::string_view expected_name);

/* A name field of the struct, read without trusting it to be NUL-terminated. */
std::string component_field(const char *field, size_t capacity);

} // namespace tessera::mca

#endif
