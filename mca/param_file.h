/*
 * Parameter files: INI text read with inih. Top-level "name = value" lines, and "[prefix]" sections
 * whose keys become "prefix_key" ("[btl_tcp]" + "links = 2" sets btl_tcp_links). Every setting keeps
 * the line it came from, so that a bad value can be traced back to file:line.
 */
#ifndef TESSERA_MCA_PARAM_FILE_H
#define TESSERA_MCA_PARAM_FILE_H

#include <string>
#include <string_view>
#include <vector>

namespace tessera::mca {

struct FileSetting {
    std::string name;
    std::string value;
    int line = 0;
};

struct ParamFile {
    std::string path;
    /* The file does not exist; `errors` says so too, and the caller drops that for the optional
     * system and user files. */
    bool missing = false;
    std::vector<FileSetting> settings; /* in file order; a later line for the same name wins */
    /* "file:/path:LINE: what is wrong", or "file:/path: cannot read: why" */
    std::vector<std::string> errors;
};

/* Reads and parses `path`. Malformed and overlong lines are errors; the rest of the file still counts. */
ParamFile read_param_file(const std::string &path);

/* Parses INI text as if it were the contents of `path` (which only appears in messages). */
ParamFile parse_param_text(std::string_view text, const std::string &path);

} // namespace tessera::mca

#endif
