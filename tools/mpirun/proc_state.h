/*
 * Whether one of mpirun's children is dying: killed or exiting but not reaped yet. The kernel closes a
 * dying process's sockets before its exit can be reaped, so a peer may report the broken connection
 * first; mpirun uses this to blame the rank that died, not the one that saw it die.
 */
#ifndef TESSERA_TOOLS_MPIRUN_PROC_STATE_H
#define TESSERA_TOOLS_MPIRUN_PROC_STATE_H

#include <cstdint>
#include <string_view>

namespace tessera::mpirun {

/* True when /proc/<pid>/stat shows the process exiting (PF_EXITING) or a zombie; false when it runs
 * or cannot be read. */
bool process_dying(int64_t pid);

/* The same judgement on the text of a /proc/<pid>/stat file. */
bool stat_says_dying(std::string_view stat);

} // namespace tessera::mpirun

#endif
