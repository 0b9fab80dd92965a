#include "mca/component_check.h"

#include <cstdio>
#include <cstring>

namespace tessera::mca {

namespace {

/* The compatibility rule for both the MCA and the framework API version: the major is an ABI break, a
 * newer minor may rely on entries that we do not provide. */
bool version_compatible(const mca_base_version_t &theirs, const mca_base_version_t &ours)
{
    return theirs.major == ours.major && theirs.minor <= ours.minor;
}

std::string hex32(uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

} // namespace

std::string version_string(const mca_base_version_t &v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.release);
}

std::string component_field(const char *field, size_t capacity)
{
    return std::string(field, strnlen(field, capacity));
}

std::optional<std::string> check_component(const mca_base_component_t &c, const mca_base_framework_t &fw,
                                            std::string_view expected_name)
{
    if (c.mca_magic != MCA_BASE_MAGIC) {
        return "not a Tessera component (magic " + hex32(c.mca_magic) + ", expected " +
               hex32(MCA_BASE_MAGIC) + ")";
    }

    const mca_base_version_t ours = {MCA_BASE_VERSION_MAJOR, MCA_BASE_VERSION_MINOR,
                                     MCA_BASE_VERSION_RELEASE};
    if (!version_compatible(c.mca_version, ours)) {
        return "built for MCA " + version_string(c.mca_version) + ", this library is MCA " +
               version_string(ours);
    }

    const std::string build_id = component_field(c.mca_build_id, sizeof c.mca_build_id);
    if (build_id != TESSERA_BUILD_ID) {
        return "built with build id \"" + build_id + "\", this library has build id \"" +
               TESSERA_BUILD_ID + "\" (rebuild the component against this installation's headers)";
    }

    const std::string fw_name = component_field(c.mca_framework_name, sizeof c.mca_framework_name);
    if (fw_name != fw.name) {
        return "the component is for framework \"" + fw_name + "\", its file name says framework \"" +
               fw.name + "\"";
    }

    if (!version_compatible(c.mca_framework_version, fw.version)) {
        return std::string("built for ") + fw.name + " framework API " +
               version_string(c.mca_framework_version) + ", this library has " + fw.name +
               " framework API " + version_string(fw.version);
    }

    const std::string comp_name = component_field(c.mca_component_name, sizeof c.mca_component_name);
    if (comp_name != expected_name) {
        return "the component calls itself \"" + comp_name + "\", its file name says \"" +
               std::string(expected_name) + "\"";
    }

    if (c.mca_struct_size < fw.component_struct_size) {
        return "component struct is " + std::to_string(c.mca_struct_size) + " bytes, the " + fw.name +
               " framework needs at least " + std::to_string(fw.component_struct_size) + " bytes";
    }
    return std::nullopt;
}

} // namespace tessera::mca
