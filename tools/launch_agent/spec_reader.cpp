/* tessera_launch_agent: reading the launch spec from the channel (stdin). */
#include "spec_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::orte::launch_agent {

using plm::agent::Decoder;

std::optional<plm::agent::LaunchSpec> read_spec(int fd, Decoder *decoder, std::string *error)
{
    error->clear();
    char buf[65536];
    for (;;) {
        switch (decoder->next()) {
        case Decoder::Event::kSpec:
            return decoder->spec();
        case Decoder::Event::kError:
            *error = decoder->error();
            return std::nullopt;
        case Decoder::Event::kSignal: /* not before the spec: the decoder never says so */
        case Decoder::Event::kInput:
        case Decoder::Event::kInputEnd:
        case Decoder::Event::kNeedMore:
            break;
        }
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            *error = std::string("cannot read the launch spec: ") + strerror(errno);
            return std::nullopt;
        }
        if (n == 0) {
            return std::nullopt;
        }
        decoder->feed(buf, static_cast<size_t>(n));
    }
}

} // namespace tessera::orte::launch_agent
