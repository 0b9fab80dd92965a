/* plm base: encoding and decoding of the launch agent protocol (see plm_base_agent_protocol.h). */
#include "frameworks/plm/base/plm_base_agent_protocol.h"

#include <signal.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "mca/constants.h"

namespace tessera::orte::plm::agent {
namespace {

constexpr size_t kMaxHeaderBytes = 32; /* "<name> <length>\n" */

void append_record(std::string *out, std::string_view name, std::string_view payload)
{
    out->append(name);
    out->push_back(' ');
    out->append(std::to_string(payload.size()));
    out->push_back('\n');
    out->append(payload);
    out->push_back('\n');
}

std::string format_double(double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    return buf;
}

template <typename T>
bool parse_number(std::string_view text, T *out)
{
    if (text.empty()) {
        return false;
    }
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

std::string printable(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, 40)) {
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    return out;
}

} // namespace

std::string encode_spec(const LaunchSpec &spec)
{
    std::string out(kMagic);
    for (const std::string &a : spec.argv) {
        append_record(&out, "arg", a);
    }
    for (const std::string &e : spec.env) {
        append_record(&out, "env", e);
    }
    if (!spec.working_dir.empty()) {
        append_record(&out, spec.working_dir_required ? "cwd" : "cwd-if-exists", spec.working_dir);
    }
    append_record(&out, "grace", format_double(spec.kill_grace));
    if (spec.forward_stdin) {
        append_record(&out, "stdin", "");
    }
    append_record(&out, "start", "");
    return out;
}

std::string encode_signal(int signal)
{
    std::string out;
    append_record(&out, "signal", std::to_string(signal));
    return out;
}

std::string encode_input(std::string_view data)
{
    std::string out;
    append_record(&out, "input", data);
    return out;
}

std::string encode_input_end()
{
    std::string out;
    append_record(&out, "input-end", "");
    return out;
}

void Decoder::feed(const char *data, size_t size)
{
    if (!error_.empty()) {
        return;
    }
    /* Drop what was consumed before growing, so that a long run of signal records stays small. */
    if (pos_ > 0 && pos_ == buffer_.size()) {
        buffer_.clear();
        pos_ = 0;
    } else if (pos_ > 4096 && pos_ > buffer_.size() / 2) {
        buffer_.erase(0, pos_);
        pos_ = 0;
    }
    buffer_.append(data, size);
}

Decoder::Event Decoder::fail(std::string message)
{
    if (error_.empty()) {
        error_ = std::move(message);
    }
    return Event::kError;
}

bool Decoder::take_record(std::string *name, std::string_view *payload)
{
    std::string_view rest(buffer_);
    rest.remove_prefix(pos_);
    size_t nl = rest.substr(0, kMaxHeaderBytes).find('\n');
    if (nl == std::string_view::npos) {
        if (rest.size() >= kMaxHeaderBytes) {
            fail("record header too long or malformed: '" + printable(rest) + "'");
        }
        return false;
    }
    std::string_view header = rest.substr(0, nl);
    size_t space = header.find(' ');
    size_t length = 0;
    if (space == std::string_view::npos || space == 0 || !parse_number(header.substr(space + 1), &length)) {
        fail("malformed record header '" + printable(header) + "'");
        return false;
    }
    for (char c : header.substr(0, space)) {
        if (!((c >= 'a' && c <= 'z') || c == '-')) {
            fail("malformed record name in '" + printable(header) + "'");
            return false;
        }
    }
    if (length > kMaxRecordBytes) {
        fail("record of " + std::to_string(length) + " bytes exceeds the limit of " +
             std::to_string(kMaxRecordBytes));
        return false;
    }
    size_t total = nl + 1 + length + 1;
    if (!started_ && consumed_ + total > kMaxSpecBytes) {
        fail("launch spec exceeds the limit of " + std::to_string(kMaxSpecBytes) + " bytes");
        return false;
    }
    if (rest.size() < total) {
        return false;
    }
    if (rest[total - 1] != '\n') {
        fail("record '" + printable(header) + "' is not terminated by a newline");
        return false;
    }
    *name = std::string(header.substr(0, space));
    *payload = rest.substr(nl + 1, length);
    pos_ += total;
    if (!started_) {
        consumed_ += total;
    }
    return true;
}

Decoder::Event Decoder::apply_spec_record(const std::string &name, std::string_view payload)
{
    if (name == "arg" || name == "env") {
        if (spec_.argv.size() + spec_.env.size() >= kMaxEntries) {
            return fail("launch spec has more than " + std::to_string(kMaxEntries) + " arg/env entries");
        }
        if (name == "arg") {
            if (payload.find('\0') != std::string_view::npos) {
                return fail("argument contains a NUL byte");
            }
            spec_.argv.emplace_back(payload);
        } else {
            size_t eq = payload.find('=');
            if (eq == std::string_view::npos || eq == 0 || payload.find('\0') != std::string_view::npos) {
                return fail("environment entry '" + printable(payload) + "' is not NAME=value");
            }
            spec_.env.emplace_back(payload);
        }
        return Event::kNeedMore;
    }
    if (name == "cwd" || name == "cwd-if-exists") {
        if (have_cwd_) {
            return fail("working directory given twice");
        }
        if (payload.empty() || payload.find('\0') != std::string_view::npos) {
            return fail("empty or malformed working directory");
        }
        have_cwd_ = true;
        spec_.working_dir = std::string(payload);
        spec_.working_dir_required = name == "cwd";
        return Event::kNeedMore;
    }
    if (name == "grace") {
        double grace = 0;
        if (have_grace_ || !parse_number(payload, &grace) || !std::isfinite(grace) || grace < 0) {
            return fail("bad or repeated grace period '" + printable(payload) + "'");
        }
        have_grace_ = true;
        spec_.kill_grace = grace;
        return Event::kNeedMore;
    }
    if (name == "stdin") {
        if (spec_.forward_stdin || !payload.empty()) {
            return fail("repeated stdin record, or one with a payload");
        }
        spec_.forward_stdin = true;
        return Event::kNeedMore;
    }
    if (name == "start") {
        if (!payload.empty()) {
            return fail("start record with a payload");
        }
        if (spec_.argv.empty() || spec_.argv[0].empty()) {
            return fail("launch spec without a program (no arg record)");
        }
        started_ = true;
        return Event::kSpec;
    }
    return fail("unknown record '" + name + "' in the launch spec");
}

Decoder::Event Decoder::next()
{
    if (!error_.empty()) {
        return Event::kError;
    }
    if (!magic_seen_) {
        size_t have = buffer_.size() - pos_;
        size_t n = std::min(have, kMagic.size());
        if (std::string_view(buffer_).substr(pos_, n) != kMagic.substr(0, n)) {
            return fail("not a Tessera launch spec (bad header '" + printable(buffer_.substr(pos_, n)) + "')");
        }
        if (have < kMagic.size()) {
            return Event::kNeedMore;
        }
        pos_ += kMagic.size();
        consumed_ += kMagic.size();
        magic_seen_ = true;
    }
    for (;;) {
        std::string name;
        std::string_view payload;
        if (!take_record(&name, &payload)) {
            return error_.empty() ? Event::kNeedMore : Event::kError;
        }
        if (!started_) {
            Event e = apply_spec_record(name, payload);
            if (e != Event::kNeedMore) {
                return e;
            }
            continue;
        }
        if (name == "input" || name == "input-end") {
            if (!spec_.forward_stdin || input_ended_) {
                return fail("'" + name + "' record " + (input_ended_ ? "after input-end" : "without a stdin record"));
            }
            if (name == "input-end") {
                if (!payload.empty()) {
                    return fail("input-end record with a payload");
                }
                input_ended_ = true;
                return Event::kInputEnd;
            }
            input_ = payload;
            return Event::kInput;
        }
        if (name != "signal") {
            return fail("unexpected record '" + name + "' after start");
        }
        int sig = 0;
        if (!parse_number(payload, &sig) || sig <= 0 || sig >= NSIG) {
            return fail("bad signal number '" + printable(payload) + "'");
        }
        signal_ = sig;
        return Event::kSignal;
    }
}

std::string encode_started(long pid)
{
    return std::string(kStatusPrefix) + "started " + std::to_string(pid) + "\n";
}

std::string encode_failed(int code, std::string_view message)
{
    std::string text(message);
    for (char &c : text) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return std::string(kStatusPrefix) + "failed " + std::to_string(code) + " " + text + "\n";
}

std::optional<StartStatus> parse_status_line(std::string_view line)
{
    if (line.substr(0, kStatusPrefix.size()) != kStatusPrefix) {
        return std::nullopt;
    }
    line.remove_prefix(kStatusPrefix.size());
    StartStatus status;
    if (line.substr(0, 8) == "started ") {
        if (!parse_number(line.substr(8), &status.pid) || status.pid <= 0) {
            return std::nullopt;
        }
        status.started = true;
        return status;
    }
    if (line.substr(0, 7) == "failed ") {
        line.remove_prefix(7);
        size_t space = line.find(' ');
        if (space == std::string_view::npos || !parse_number(line.substr(0, space), &status.code) ||
            status.code >= 0) {
            return std::nullopt;
        }
        status.message = std::string(line.substr(space + 1));
        return status;
    }
    return std::nullopt;
}

} // namespace tessera::orte::plm::agent
