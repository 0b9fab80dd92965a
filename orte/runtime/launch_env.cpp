/*
 * A rank's launch environment (launch_env.h). Every variable is checked before the rank acts on it:
 * a launcher bug or a stale environment must give a message that names the variable and its value,
 * not a rank that connects as the wrong process. The job key is the exception: its value is never
 * printed, only what is wrong with its shape.
 */
#include "orte/runtime/launch_env.h"

#include <unistd.h>

#include <charconv>
#include <climits>
#include <cstdlib>
#include <string_view>

namespace tessera::orte {

namespace {

constexpr size_t kJobKeyDigits = 64;

class EnvReader {
public:
    explicit EnvReader(std::string *error) : error_(error) {}

    bool failed() const { return failed_; }

    /* A launched rank must have it. */
    std::optional<std::string> required(const char *name)
    {
        const char *v = std::getenv(name);
        if (v == nullptr) {
            fail(std::string(name) + " is not set, but " + kEnvKvUri +
                 " is (this process was started by a launcher that did not finish its job)");
            return std::nullopt;
        }
        return std::string(v);
    }

    /* A decimal integer in [lo, hi]. */
    bool integer(const char *name, long long lo, long long hi, long long *out)
    {
        auto text = required(name);
        if (!text) {
            return false;
        }
        long long value = 0;
        const char *b = text->data();
        const char *e = b + text->size();
        auto [end, ec] = std::from_chars(b, e, value);
        if (text->empty() || ec == std::errc::invalid_argument || end != e) {
            fail(std::string(name) + "='" + *text + "' is not a decimal integer");
            return false;
        }
        if (ec == std::errc::result_out_of_range || value < lo || value > hi) {
            fail(std::string(name) + "=" + *text + " is out of range [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "]");
            return false;
        }
        *out = value;
        return true;
    }

    /* The same for a variable that may be absent: then *out keeps its value. */
    bool optional_integer(const char *name, long long lo, long long hi, long long *out)
    {
        return std::getenv(name) == nullptr || integer(name, lo, hi, out);
    }

    void fail(std::string message)
    {
        if (!failed_ && error_ != nullptr) {
            *error_ = "launch environment: " + std::move(message);
        }
        failed_ = true;
    }

private:
    std::string *error_;
    bool failed_ = false;
};

bool all_digits(std::string_view s)
{
    if (s.empty()) {
        return false;
    }
    for (char c : s) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    return true;
}

/* "host:port" or "[v6]:port", port 1..65535. */
bool valid_uri(std::string_view uri)
{
    size_t colon;
    if (!uri.empty() && uri.front() == '[') {
        size_t close = uri.find(']');
        if (close == std::string_view::npos || close < 2 || close + 1 >= uri.size() || uri[close + 1] != ':') {
            return false;
        }
        colon = close + 1;
    } else {
        colon = uri.rfind(':');
        if (colon == std::string_view::npos || colon == 0) {
            return false;
        }
    }
    std::string_view port = uri.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    return all_digits(port) && ec == std::errc() && end == port.data() + port.size() && value >= 1 &&
           value <= 65535;
}

/* "none", empty, or PU os-indices: "0,1" (ranges "2-5" too, as hwloc prints them). */
bool valid_bind(std::string_view bind)
{
    if (bind.empty() || bind == "none") {
        return true;
    }
    size_t start = 0;
    for (;;) {
        size_t comma = bind.find(',', start);
        std::string_view item = bind.substr(start, comma == std::string_view::npos ? bind.npos : comma - start);
        size_t dash = item.find('-');
        if (dash == std::string_view::npos) {
            if (!all_digits(item) || item.size() > 9) {
                return false;
            }
        } else {
            std::string_view lo = item.substr(0, dash);
            std::string_view hi = item.substr(dash + 1);
            if (!all_digits(lo) || !all_digits(hi) || lo.size() > 9 || hi.size() > 9 ||
                std::stol(std::string(lo)) > std::stol(std::string(hi))) {
                return false;
            }
        }
        if (comma == std::string_view::npos) {
            return true;
        }
        start = comma + 1;
    }
}

bool valid_job_key(std::string_view key, std::string *why)
{
    if (key.size() != kJobKeyDigits) {
        *why = "has " + std::to_string(key.size()) + " characters, not " + std::to_string(kJobKeyDigits);
        return false;
    }
    for (char c : key) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            *why = "contains a character that is not a lower-case hex digit";
            return false;
        }
    }
    return true;
}

std::string local_host_name()
{
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) {
        return "localhost";
    }
    return host;
}

/* Bytes written as-is in encode_cmdline_mca: printable ASCII except the three with a meaning. */
bool plain_byte(unsigned char c) { return c > 0x20 && c < 0x7f && c != '%' && c != '=' && c != ','; }

void append_escaped(std::string &out, std::string_view s)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        if (plain_byte(c)) {
            out.push_back(ch);
        } else {
            out.push_back('%');
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xf]);
        }
    }
}

int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::optional<std::string> unescape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '=' || s[i] == ',') {
            return std::nullopt; /* never written raw inside a name or value */
        }
        if (s[i] != '%') {
            out.push_back(s[i]);
            continue;
        }
        if (i + 2 >= s.size()) {
            return std::nullopt;
        }
        int hi = hex_value(s[i + 1]);
        int lo = hex_value(s[i + 2]);
        if (hi < 0 || lo < 0) {
            return std::nullopt;
        }
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
    }
    return out;
}

} // namespace

std::optional<LaunchInfo> read_launch_env(std::string *error)
{
    LaunchInfo info;
    const char *uri = std::getenv(kEnvKvUri);
    if (uri == nullptr) {
        /* Started by hand: a world of one, whatever else the environment holds. */
        info.host = local_host_name();
        return info;
    }
    EnvReader env(error);
    info.singleton = false;
    info.kv_uri = uri;
    if (!valid_uri(info.kv_uri)) {
        env.fail(std::string(kEnvKvUri) + "='" + info.kv_uri + "' is not address:port (port 1-65535)");
        return std::nullopt;
    }

    /* Plain integers rather than optionals: each check needs the bound read before it, and a
     * failure stops the chain (the first error is the one reported). */
    long long jobid = 0, size = 0, rank = 0, local_size = 0, local_rank = 0, node_id = 0;
    if (!env.integer(kEnvJobId, 0, UINT32_MAX, &jobid) || !env.integer(kEnvSize, 1, INT_MAX, &size) ||
        !env.integer(kEnvRank, 0, size - 1, &rank) || !env.integer(kEnvLocalSize, 1, size, &local_size) ||
        !env.integer(kEnvLocalRank, 0, local_size - 1, &local_rank) ||
        !env.integer(kEnvNodeId, 0, INT_MAX, &node_id)) {
        return std::nullopt;
    }
    info.jobid = static_cast<uint32_t>(jobid);
    info.size = static_cast<int>(size);
    info.rank = static_cast<int>(rank);
    info.local_size = static_cast<int>(local_size);
    info.local_rank = static_cast<int>(local_rank);
    info.node_id = static_cast<int>(node_id);
    long long universe = size, appnum = 0;
    if (!env.optional_integer(kEnvUniverseSize, size, INT_MAX, &universe) ||
        !env.optional_integer(kEnvAppnum, 0, INT_MAX, &appnum)) {
        return std::nullopt;
    }
    info.universe_size = static_cast<int>(universe);
    info.appnum = static_cast<int>(appnum);

    auto host = env.required(kEnvHost);
    if (!host) {
        return std::nullopt;
    }
    if (host->empty()) {
        env.fail(std::string(kEnvHost) + " is empty");
        return std::nullopt;
    }
    info.host = *host;

    auto key = env.required(kEnvJobKey);
    if (!key) {
        return std::nullopt;
    }
    std::string why;
    if (!valid_job_key(*key, &why)) {
        /* The value is a secret: say what is wrong with it, never what it is. */
        env.fail(std::string(kEnvJobKey) + " " + why + " (expected " + std::to_string(kJobKeyDigits) +
                 " lower-case hex digits)");
        return std::nullopt;
    }
    info.job_key = *key;

    if (const char *bind = std::getenv(kEnvBind)) {
        if (!valid_bind(bind)) {
            env.fail(std::string(kEnvBind) + "='" + bind + "' is neither 'none' nor a list of PU numbers like '0,1'");
            return std::nullopt;
        }
        info.bind = bind;
    }
    if (!read_launcher_settings(&why)) {
        env.fail(why);
        return std::nullopt;
    }
    return info;
}

std::optional<LauncherSettings> read_launcher_settings(std::string *error)
{
    LauncherSettings settings;
    if (const char *mca = std::getenv(kEnvCmdlineMca)) {
        auto decoded = decode_cmdline_mca(mca);
        if (!decoded) {
            *error = std::string(kEnvCmdlineMca) + "='" + mca +
                     "' is not name=value pairs separated by ',' with %XX escapes";
            return std::nullopt;
        }
        settings.mca = std::move(*decoded);
    }
    if (const char *tune = std::getenv(kEnvCmdlineTune)) {
        std::string_view files(tune);
        while (!files.empty()) {
            const size_t colon = files.find(':');
            const std::string_view file = files.substr(0, colon);
            if (file.empty() || colon == files.size() - 1) {
                *error = std::string(kEnvCmdlineTune) + "='" + tune + "' has an empty file name";
                return std::nullopt;
            }
            settings.tune_files.emplace_back(file);
            files = colon == std::string_view::npos ? std::string_view() : files.substr(colon + 1);
        }
    }
    return settings;
}

std::string encode_cmdline_mca(const std::vector<std::pair<std::string, std::string>> &settings)
{
    std::string out;
    for (size_t i = 0; i < settings.size(); ++i) {
        if (i > 0) {
            out.push_back(',');
        }
        append_escaped(out, settings[i].first);
        out.push_back('=');
        append_escaped(out, settings[i].second);
    }
    return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> decode_cmdline_mca(const std::string &text)
{
    std::vector<std::pair<std::string, std::string>> settings;
    if (text.empty()) {
        return settings;
    }
    size_t start = 0;
    for (;;) {
        size_t comma = text.find(',', start);
        std::string_view item(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
        size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            return std::nullopt;
        }
        auto name = unescape(item.substr(0, eq));
        auto value = unescape(item.substr(eq + 1));
        if (!name || !value) {
            return std::nullopt;
        }
        settings.emplace_back(std::move(*name), std::move(*value));
        if (comma == std::string::npos) {
            return settings;
        }
        start = comma + 1;
    }
}

std::vector<std::string> warned_mca_names()
{
    std::vector<std::string> names;
    const char *text = std::getenv(kEnvWarnedMcaNames);
    if (text == nullptr) {
        return names;
    }
    std::string_view rest(text);
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        if (std::string_view name = rest.substr(0, comma); !name.empty()) {
            names.emplace_back(name);
        }
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return names;
}

} // namespace tessera::orte
