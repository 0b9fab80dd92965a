/*
 * The message list, written row by row as messages are matched (never kept): CSV lines, or the
 * elements of a JSON array. Times are seconds from the clock's offset with nanosecond digits.
 */
#ifndef TESSERA_TOOLS_TRACE_MESSAGE_WRITER_H
#define TESSERA_TOOLS_TRACE_MESSAGE_WRITER_H

#include <cstdio>
#include <vector>

#include "trace_types.h"

namespace tessera::trace {

class MessageWriter : public MessageSink {
public:
    enum class Format { Csv, JsonArray };

    /* CSV starts with its header line; a JSON array is opened by the caller's document. */
    MessageWriter(std::FILE *out, Format format, const Clock &clock);
    ~MessageWriter() override;
    MessageWriter(const MessageWriter &) = delete;
    MessageWriter &operator=(const MessageWriter &) = delete;

    void message(const Message &m) override;
    /* Writes what is buffered; false if any write failed (disk full, closed pipe). */
    bool flush();

    static const char *csv_header();

private:
    std::FILE *out_;
    Format format_;
    const Clock &clock_;
    std::vector<char> buf_;
    size_t used_ = 0;
    bool first_ = true;
    bool failed_ = false;
};

} // namespace tessera::trace

#endif
