#include "message_writer.h"

#include <charconv>
#include <cstring>

#include "time_format.h"

namespace tessera::trace {

namespace {

constexpr size_t buffer_size = 1 << 16;
/* The longest row: nine fields of at most 32 characters plus the JSON names. */
constexpr size_t row_max = 512;

char *put(char *p, const char *text)
{
    size_t n = std::strlen(text);
    std::memcpy(p, text, n);
    return p + n;
}

char *put(char *p, uint64_t v)
{
    return std::to_chars(p, p + 20, v).ptr;
}

} // namespace

const char *MessageWriter::csv_header()
{
    return "sender,receiver,comm,tag,bytes_sent,bytes_received,send_time_s,recv_time_s,latency_s\n";
}

MessageWriter::MessageWriter(std::FILE *out, Format format, const Clock &clock)
    : out_(out), format_(format), clock_(clock), buf_(buffer_size)
{
    if (format_ == Format::Csv) {
        used_ = static_cast<size_t>(put(buf_.data(), csv_header()) - buf_.data());
    }
}

MessageWriter::~MessageWriter()
{
    flush();
}

void MessageWriter::message(const Message &m)
{
    if (used_ + row_max > buf_.size()) {
        flush();
    }
    char *p = buf_.data() + used_;
    const uint64_t res = clock_.resolution;
    if (format_ == Format::Csv) {
        p = put(p, m.sender);
        *p++ = ',';
        p = put(p, m.receiver);
        *p++ = ',';
        p = put(p, m.comm);
        *p++ = ',';
        p = put(p, m.tag);
        *p++ = ',';
        p = put(p, m.bytes_sent);
        *p++ = ',';
        p = put(p, m.bytes_received);
        *p++ = ',';
        p = format_seconds(since_offset(m.send_time, clock_), res, p);
        *p++ = ',';
        p = format_seconds(since_offset(m.recv_time, clock_), res, p);
        *p++ = ',';
        p = format_seconds(m.latency(), res, p);
        *p++ = '\n';
    } else {
        p = put(p, first_ ? "\n    {\"sender\": " : ",\n    {\"sender\": ");
        p = put(p, m.sender);
        p = put(p, ", \"receiver\": ");
        p = put(p, m.receiver);
        p = put(p, ", \"comm\": ");
        p = put(p, m.comm);
        p = put(p, ", \"tag\": ");
        p = put(p, m.tag);
        p = put(p, ", \"bytes_sent\": ");
        p = put(p, m.bytes_sent);
        p = put(p, ", \"bytes_received\": ");
        p = put(p, m.bytes_received);
        p = put(p, ", \"send_time\": ");
        p = format_seconds(since_offset(m.send_time, clock_), res, p);
        p = put(p, ", \"recv_time\": ");
        p = format_seconds(since_offset(m.recv_time, clock_), res, p);
        p = put(p, ", \"latency\": ");
        p = format_seconds(m.latency(), res, p);
        *p++ = '}';
    }
    first_ = false;
    used_ = static_cast<size_t>(p - buf_.data());
}

bool MessageWriter::flush()
{
    if (used_ > 0 && std::fwrite(buf_.data(), 1, used_, out_) != used_) {
        failed_ = true;
    }
    used_ = 0;
    if (std::fflush(out_) != 0) {
        failed_ = true;
    }
    return !failed_;
}

} // namespace tessera::trace
