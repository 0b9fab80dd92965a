/*
 * The MCA options every Tessera program accepts (mpirun, tessera_info, the other tools):
 *   --mca NAME VALUE   (also -mca NAME VALUE)  set a parameter from the command line
 *   --tune FILE        (also --tune=FILE)      read a parameter file (INI)
 * Everything else is handed back, in order, for the program's own option parser. Parsing stops at
 * "--", which is handed back with what follows it.
 */
#ifndef TESSERA_MCA_CMDLINE_H
#define TESSERA_MCA_CMDLINE_H

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tessera::mca {

struct CmdlineResult {
    std::vector<char *> remaining; /* the arguments that were not MCA options, in order */
    std::string error;             /* empty on success */
    /* What was found, in order: mpirun forwards these to the ranks so that they see the same sources. */
    std::vector<std::pair<std::string, std::string>> mca;
    std::vector<std::string> tune_files;

    bool ok() const { return error.empty(); }
};

/*
 * Parses `args` (argv[0] included or not: it is handed back like any other non-MCA argument). On
 * success the settings are applied with set_command_line() and add_tune_file(); on error nothing is
 * applied and `error` says which option lacks what.
 */
CmdlineResult parse_mca_args(std::span<char *> args);

/* The same, without applying anything. */
CmdlineResult scan_mca_args(std::span<char *> args);

} // namespace tessera::mca

#endif
