#include "mca/param_file.h"

#include <fcntl.h>
#include <ini.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>

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

std::string kind_of(mode_t mode)
{
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISCHR(mode)) {
        return "a character device";
    }
    if (S_ISBLK(mode)) {
        return "a block device";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a plain file";
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
    ParamFile out;
    out.path = path;
    const auto refuse = [&out, &path](const std::string &why) {
        out.errors.push_back("file:" + path + ": cannot read: " + why);
        return out;
    };
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then tells what it is. */
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int err = errno;
        out.missing = err == ENOENT;
        return refuse(err == ENOENT ? std::string("no such file") : std::strerror(err));
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int err = errno;
        close(fd);
        if (S_ISDIR(st.st_mode)) {
            return refuse("it is a directory");
        }
        return refuse(st.st_mode != 0 ? "it is not a regular file (" + kind_of(st.st_mode) + ")" : std::strerror(err));
    }
    const std::string limit = " (a parameter file may have at most " + std::to_string(kMaxParamFileBytes) + " bytes)";
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxParamFileBytes) {
        close(fd);
        return refuse("it is " + std::to_string(st.st_size) + " bytes" + limit);
    }
    /* The limit holds for what is read, too: the file may grow after fstat. */
    std::string contents;
    char chunk[16384];
    while (contents.size() <= kMaxParamFileBytes) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            const int err = errno;
            close(fd);
            return refuse(std::strerror(err));
        }
        if (n == 0) {
            break;
        }
        contents.append(chunk, static_cast<std::size_t>(n));
    }
    close(fd);
    if (contents.size() > kMaxParamFileBytes) {
        return refuse("it grew past the limit while being read" + limit);
    }
    return parse_param_text(contents, path);
}

} // namespace tessera::mca
