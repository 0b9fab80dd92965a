/*
 * The MCA store as MPI_T sees it (ompi/tool/, docs/mpi_t.md): typed values by index, and setting a
 * value while the program runs. Only the layers use this header.
 */
#ifndef TESSERA_MCA_VAR_TOOL_H
#define TESSERA_MCA_VAR_TOOL_H

#include <cstddef>
#include <optional>
#include <string>

#include "mca/var_parse.h"

namespace tessera::mca {

/* How many variables are registered (indices 0..count-1; an index never changes or goes away). */
size_t var_count();
/* The typed value in force of variable `index`, or nullopt for no such index. */
std::optional<VarValue> var_value(int index);
/*
 * Sets variable `index` as the source SourceKind::Tool (MPI_T_cvar_write). The value is checked as a
 * setting from any other source would be (type, range of its row), then by the check its owner gave
 * (set_runtime_check); a value refused leaves the variable as it was. Returns "" or what is wrong.
 * Whether the variable may be set now is the caller's decision (its scope and MCA_VAR_FLAG_RUNTIME).
 */
std::string set_from_tool(int index, const VarValue &value);
/* A check of the owner's values taken together ("" when fine), run after a set_from_tool. */
void set_runtime_check(int index, std::string (*check)());

} // namespace tessera::mca

#endif
