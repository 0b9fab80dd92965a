/* tessera_launch_agent: reading the launch spec from the channel (stdin). */
#ifndef TESSERA_TOOLS_LAUNCH_AGENT_SPEC_READER_H
#define TESSERA_TOOLS_LAUNCH_AGENT_SPEC_READER_H

#include <optional>
#include <string>

#include "frameworks/plm/base/plm_base_agent_protocol.h"

namespace tessera::orte::launch_agent {

/*
 * Reads `fd` until the decoder has the whole spec. What arrived after it (signal records) stays in the
 * decoder for the supervisor. nullopt with *error set on a malformed stream, or with *error empty when
 * the channel closed before the spec was complete (the launcher went away: nothing to report to).
 */
std::optional<plm::agent::LaunchSpec> read_spec(int fd, plm::agent::Decoder *decoder, std::string *error);

} // namespace tessera::orte::launch_agent

#endif
