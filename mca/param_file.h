/*
 * Parameter files: INI text read with inih. Top-level "name = value" lines, and "[prefix]" sections
 * whose keys become "prefix_key" ("[btl_tcp]" + "links = 2" sets btl_tcp_links). Every setting keeps
 * the line it came from, so that a bad value can be traced back to file:line.
 */
#ifndef TESSERA_MCA_PARAM_FILE_H
#define TESSERA_MCA_PARAM_FILE_H

#include <cstddef>
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

/* The largest parameter file read: a few hundred settings take a few KiB, so anything near this is
 * not a parameter file, and a bound keeps a mistaken --tune from eating the memory. */
inline constexpr std::size_t kMaxParamFileBytes = 1u << 20;

/* Reads and parses `path`. Malformed and overlong lines are errors; the rest of the file still counts.
 * Only a regular file of at most kMaxParamFileBytes is read: a FIFO, a device (/dev/zero) or a larger
 * file is an error naming the file, why and the limit, found without reading it (a FIFO is opened
 * without blocking). */
ParamFile read_param_file(const std::string &path);

/* Parses INI text as if it were the contents of `path` (which only appears in messages). */
ParamFile parse_param_text(std::string_view text, const std::string &path);

} // namespace tessera::mca

#endif
