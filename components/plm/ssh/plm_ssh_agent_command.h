/* plm ssh: the command line that reaches another host — `<agent words...> <host> <remote agent path>`. */
#ifndef TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_AGENT_COMMAND_H
#define TESSERA_COMPONENTS_PLM_SSH_PLM_SSH_AGENT_COMMAND_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::orte::plm_ssh {

/*
 * Splits a command the way a POSIX shell splits words, without expansions: blanks separate words;
 * '...' keeps everything literally; "..." keeps everything but \" \\ \$ \` (backslash-escaped);
 * outside quotes a backslash takes the next character literally. nullopt with *error on an unterminated
 * quote or a trailing backslash. "ssh -o 'ProxyCommand=ssh -W %h:%p gw'" gives three words.
 */
std::optional<std::vector<std::string>> split_command(std::string_view text, std::string *error);

/* `word` as one word for the remote shell (ssh hands the command to the login shell): unchanged when
 * it only has safe characters, else single-quoted. */
std::string shell_quote(std::string_view word);

/* Whether `host` can be handed to ssh as a host name: not empty, no leading '-' (it would be read as an
 * option), no blanks or control characters. */
bool host_is_usable(std::string_view host);

/* The local command: the agent's words, the host, and the remote agent path quoted for the remote shell. */
std::vector<std::string> remote_command(const std::vector<std::string> &agent_words, std::string_view host,
                                        std::string_view remote_agent_path);

} // namespace tessera::orte::plm_ssh

#endif
