/*
 * mpirun checks the MCA settings before it starts any rank, so that a typo costs no job: it registers
 * every framework (and so every parameter of every component) exactly as a rank would, then
 *   - a bad value (from any source) is an error (reported at registration with name, value, source);
 *   - a bad selection value ("btl = tpc") is an error, checked without opening the frameworks;
 *   - a name matching no parameter is warned about with the closest names, and is an error when it was
 *     given on mpirun's own command line (--mca).
 */
#ifndef TESSERA_TOOLS_MPIRUN_MCA_CHECK_H
#define TESSERA_TOOLS_MPIRUN_MCA_CHECK_H

#include "mca/cmdline.h"

namespace tessera::mpirun {

/* Loads the parameter sources, registers the frameworks and checks as above. False: do not launch. */
bool check_mca_settings(const tessera::mca::CmdlineResult &cmdline);

} // namespace tessera::mpirun

#endif
