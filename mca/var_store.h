/*
 * C++ side of the MCA variables: where values come from (sources), and what tools read back.
 * Components register through mca/var.h; only the layers and tools use this header.
 */
#ifndef TESSERA_MCA_VAR_STORE_H
#define TESSERA_MCA_VAR_STORE_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mca/var.h"

namespace tessera::mca {

/* Lowest precedence first: a higher kind overrides a lower one. */
enum class SourceKind { Default, SystemFile, UserFile, TuneFile, Environment, CommandLine, Tool };

struct Source {
    SourceKind kind = SourceKind::Default;
    std::string file; /* for the file kinds */
    int line = 0;     /* for the file kinds */
    /* "default", "file:/etc/x.conf:12", "environment", "command line", "MPI_T" (MPI_T_cvar_write: the
     * application's own choice while it runs, above everything the user set before) */
    std::string describe() const;
};

struct VarInfo {
    int index = -1;
    std::string full_name;
    std::string framework; /* "" for none */
    std::string component; /* "" for none */
    std::string name;
    std::string help;
    mca_var_type_t type = MCA_VAR_TYPE_STRING;
    std::string type_name; /* "bool", "int", "unsigned", "size", "double", "string", "enum", "list" */
    std::vector<std::pair<int, std::string>> enumerators;
    int level = 1;
    mca_var_scope_t scope = MCA_VAR_SCOPE_LOCAL;
    std::string scope_name;
    unsigned flags = 0;
    std::string value;         /* current value in its canonical text form */
    std::string default_value; /* canonical text form */
    std::string min_value;     /* the range of a row (canonical text form); "" when unbounded */
    std::string max_value;
    Source source;
    std::vector<std::string> synonyms;
    std::vector<bool> synonym_deprecated;
};

/* "--mca name value": the highest source. May come before or after the name is registered. */
void set_command_line(std::string_view name, std::string_view value);
/* "--tune FILE": read in order, a later file overriding an earlier one. */
void add_tune_file(std::string_view path);

/*
 * Reads the system file (<prefix>/etc/tessera-mca-params.conf), the user file
 * (~/.tessera/mca-params.conf), the --tune files and those in mca_param_files, and the TESSERA_MCA_*
 * environment. Errors (unreadable --tune file, malformed INI line) are reported with file:line and
 * counted in error_count(). Safe to call again: later calls re-read nothing.
 */
int load_sources();

/* Every registered variable, in registration order. */
std::vector<VarInfo> list_vars();
std::optional<VarInfo> find_var(std::string_view full_name);

/*
 * After every framework has registered: warns about each name set in the environment, a file or on the
 * command line that matches no registered variable or synonym, with up to three closest names.
 * Returns how many such names there were.
 */
int warn_unknown_names();
/* The same, without a warning for the names in `already_warned` (mpirun's, passed to its ranks); they
 * are still counted. */
int warn_unknown_names(const std::vector<std::string> &already_warned);
/* The names set in some source that match no registered variable or synonym. */
std::vector<std::string> unknown_names();

/* Bad values and malformed sources reported so far (the messages went to stderr as they happened). */
int error_count();
std::vector<std::string> error_messages();
std::vector<std::string> warning_messages();

/* A range as tessera_info and errors say it: "1..16", "at least 1", "at most 64M"; "" when unbounded. */
std::string range_text(const VarInfo &v);

/* Canonical text of a size (e.g. "64k" for 65536). */
std::string format_size(size_t bytes);

/* Drops every variable and source (unit tests, and MPI_Finalize after the last user is gone). */
void vars_finalize();

} // namespace tessera::mca

#endif
