/* plm ssh: building the command that runs the launch agent on another host. */
#include "components/plm/ssh/plm_ssh_agent_command.h"

namespace tessera::orte::plm_ssh {

std::optional<std::vector<std::string>> split_command(std::string_view text, std::string *error)
{
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                words.push_back(std::move(word));
                word.clear();
                in_word = false;
            }
            continue;
        }
        in_word = true;
        if (c == '\'') {
            size_t end = text.find('\'', i + 1);
            if (end == std::string_view::npos) {
                *error = "unterminated single quote";
                return std::nullopt;
            }
            word.append(text.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() &&
                    (text[j + 1] == '"' || text[j + 1] == '\\' || text[j + 1] == '$' || text[j + 1] == '`')) {
                    ++j;
                }
                word.push_back(text[j]);
            }
            if (j >= text.size()) {
                *error = "unterminated double quote";
                return std::nullopt;
            }
            i = j;
        } else if (c == '\\') {
            if (i + 1 >= text.size()) {
                *error = "trailing backslash";
                return std::nullopt;
            }
            word.push_back(text[++i]);
        } else {
            word.push_back(c);
        }
    }
    if (in_word) {
        words.push_back(std::move(word));
    }
    return words;
}

std::string shell_quote(std::string_view word)
{
    auto safe = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
               c == '.' || c == '_' || c == '-' || c == '+' || c == ':' || c == ',' || c == '@' || c == '%';
    };
    bool all_safe = !word.empty();
    for (char c : word) {
        all_safe = all_safe && safe(c);
    }
    if (all_safe) {
        return std::string(word);
    }
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    return out + "'";
}

bool host_is_usable(std::string_view host)
{
    if (host.empty() || host.front() == '-') {
        return false;
    }
    for (char c : host) {
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) {
            return false;
        }
    }
    return true;
}

std::vector<std::string> remote_command(const std::vector<std::string> &agent_words, std::string_view host,
                                        std::string_view remote_agent_path)
{
    std::vector<std::string> argv = agent_words;
    argv.emplace_back(host);
    argv.push_back(shell_quote(remote_agent_path));
    return argv;
}

} // namespace tessera::orte::plm_ssh
