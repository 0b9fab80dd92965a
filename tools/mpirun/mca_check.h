/*
 * mpirun checks the MCA settings before it starts any rank, so that a typo costs no job: it registers
 * every framework (and so every parameter of every component) exactly as a rank would, then
 *   - a value its type or enumeration refuses (from any source) is an error (reported at registration
 *     with name, value, source);
 *   - a value outside its parameter's range (the ranges tessera_info shows) is an error, for every
 *     component's parameters, whether or not a rank would open that component;
 *   - a bad selection value ("btl = tpc") is an error, checked without opening the frameworks;
 *   - a name matching no parameter is warned about once, with the closest names; the ranks are told
 *     (TESSERA_WARNED_MCA_NAMES) so that they do not warn again.
 */
#ifndef TESSERA_TOOLS_MPIRUN_MCA_CHECK_H
#define TESSERA_TOOLS_MPIRUN_MCA_CHECK_H

#include <string>
#include <vector>

#include "mca/cmdline.h"

namespace tessera::mpirun {

/* Loads the parameter sources, registers the frameworks and checks as above. False: do not launch. */
bool check_mca_settings(const tessera::mca::CmdlineResult &cmdline, std::vector<std::string> *warned_names);

} // namespace tessera::mpirun

#endif
