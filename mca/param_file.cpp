#include "mca/param_file.h"

#include <ini.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace tessera::mca {

namespace {

/*
 * Feeds inih one physical line at a time so that the handler always knows which line it is on, and so
 * that what inih cannot handle is caught here instead of being mis-parsed:
 *  - a line that does not fit inih's buffer would be split and its tail read as a separate line;
 *  - an indented line would be taken as the continuation of the previous value (INI_ALLOW_MULTILINE).
 */
struct LineReader {
    std::string_view text;
    size_t pos = 0;
    int line = 0;
    std::vector<std::string> lines; /* as written, for quoting in messages */
    std::map<int, std::string> errors; /* by line, so that messages come out in file order */
    std::string path;
    std::vector<FileSetting> *settings = nullptr;

    std::string where(int at) const { return "file:" + path + ":" + std::to_string(at); }
};

char *read_line(char *buffer, int size, void *stream)
{
    auto *r = static_cast<LineReader *>(stream);
    if (r->pos >= r->text.size() || size < 2) {
        return nullptr;
    }
    size_t end = r->text.find('\n', r->pos);
    if (end == std::string_view::npos) {
        end = r->text.size();
    }
    std::string_view line = r->text.substr(r->pos, end - r->pos);
    r->pos = end + 1;
    ++r->line;
    r->lines.emplace_back(line);
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
        line.remove_prefix(1);
    }
    /* inih needs room for the newline and the terminating NUL. */
    const size_t room = static_cast<size_t>(size) - 2;
    if (line.size() > room) {
        r->errors[r->line] = r->where(r->line) + ": line is " + std::to_string(line.size()) +
                             " characters long; at most " + std::to_string(room) +
                             " are allowed, so the line was ignored";
        line = {};
    } else if (line.find('\0') != std::string_view::npos) {
        r->errors[r->line] = r->where(r->line) + ": line contains a NUL byte and was ignored";
        line = {};
    }
    if (!line.empty()) {
        std::memcpy(buffer, line.data(), line.size());
    }
    buffer[line.size()] = '\n';
    buffer[line.size() + 1] = '\0';
    return buffer;
}

std::string unquoted(std::string_view v)
{
    /* Quotes let a value keep blanks or a ';' that inih would otherwise strip or treat as a comment. */
    if (v.size() >= 2 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\''))) {
        v = v.substr(1, v.size() - 2);
    }
    return std::string(v);
}

int on_setting(void *user, const char *section, const char *name, const char *value)
{
    auto *r = static_cast<LineReader *>(user);
    std::string_view key = name != nullptr ? name : "";
    if (key.empty()) {
        r->errors[r->line] = r->where(r->line) + ": missing parameter name before '=' in \"" +
                             r->lines.back() + "\"";
        return 1; /* reported here; 0 would make inih report the same line again */
    }
    std::string full = (section != nullptr && *section != '\0') ? std::string(section) + "_" : std::string();
    full += key;
    r->settings->push_back(FileSetting{std::move(full), unquoted(value != nullptr ? value : ""), r->line});
    return 1;
}

} // namespace

ParamFile parse_param_text(std::string_view text, const std::string &path)
{
    ParamFile out;
    out.path = path;
    LineReader reader;
    reader.text = text;
    reader.path = path;
    reader.settings = &out.settings;
    const int rc = ini_parse_stream(&read_line, &reader, &on_setting, &reader);
    if (rc > 0 && !reader.errors.contains(rc)) {
        const std::string &bad = reader.lines.at(static_cast<size_t>(rc - 1));
        reader.errors[rc] = reader.where(rc) + ": malformed line \"" + bad +
                            "\" (expected \"name = value\", \"[section]\" or a comment starting with # or ;)";
    } else if (rc < 0) {
        reader.errors[0] = "file:" + path + ": the INI parser ran out of memory";
    }
    for (auto &[line, message] : reader.errors) {
        out.errors.push_back(std::move(message));
    }
    return out;
}

ParamFile read_param_file(const std::string &path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) {
        ParamFile out;
        out.path = path;
        out.missing = true;
        out.errors.push_back("file:" + path + ": cannot read: no such file");
        return out;
    }
    if (status.type() == std::filesystem::file_type::directory) {
        ParamFile out;
        out.path = path;
        out.errors.push_back("file:" + path + ": cannot read: it is a directory");
        return out;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        ParamFile out;
        out.path = path;
        out.errors.push_back("file:" + path + ": cannot read: " + std::strerror(err));
        return out;
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    return parse_param_text(contents.str(), path);
}

} // namespace tessera::mca
