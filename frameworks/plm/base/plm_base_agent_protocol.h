/*
 * plm base: the protocol between a remote launcher (plm ssh) and tessera_launch_agent, the program it
 * runs on the other host. Everything secret (the environment additions carry the job key) travels in
 * the agent's stdin, never on a command line, where `ps` on either host would show it.
 *
 * Launcher -> agent, on the agent's stdin:
 *   "TESSERA-LAUNCH 1\n", then records  <name> SP <decimal length> LF <payload> LF
 *     arg            one argv entry, in order (at least one)
 *     env            one "NAME=value" addition to the agent's environment
 *     cwd            the directory to start in; missing is an error
 *     cwd-if-exists  the directory to start in when it exists there (else the agent's own, the home
 *                    directory under sshd) — what a launcher sends when the caller named none
 *     grace          seconds between SIGTERM and SIGKILL at teardown, as decimal text
 *     stdin          (empty) the program's stdin is a pipe fed by input records; without it /dev/null
 *     start          (empty) the spec is complete: start the program
 *   then, while the program runs:
 *     signal         decimal signal number: sent to the program's process group
 *     input          bytes for the program's stdin (only after a "stdin" record)
 *     input-end      (empty) the end of that input: the agent closes the pipe once it is written
 *   The agent stops reading the channel while it holds kMaxPendingInput bytes the program has not
 *   read, so a slow reader holds back the launcher (and, through it, mpirun's stdin) instead of the
 *   agent's memory growing; signal records queue behind that input meanwhile.
 *   End-of-file on stdin (the launcher closed the channel, or the ssh connection died) tears the
 *   program down: SIGTERM to its process group, SIGKILL after the grace period.
 * Agent -> launcher, once, as the first line on the agent's stdout (before the program can write):
 *   "TESSERA-LAUNCH-AGENT started <pid>\n"  or  "TESSERA-LAUNCH-AGENT failed <TESSERA_* code> <message>\n"
 * The agent exits with the program's exit status, or 128+N when signal N killed it (a shell's
 * convention: the ssh client can carry an exit code but not a signal).
 */
#ifndef TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_AGENT_PROTOCOL_H
#define TESSERA_FRAMEWORKS_PLM_BASE_PLM_BASE_AGENT_PROTOCOL_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::orte::plm::agent {

inline constexpr std::string_view kMagic = "TESSERA-LAUNCH 1\n";
/* Limits, so that a garbled or hostile stream cannot make the agent allocate without bound. */
inline constexpr size_t kMaxRecordBytes = size_t{1} << 20; /* one payload */
inline constexpr size_t kMaxEntries = size_t{1} << 16;     /* arg + env records */
inline constexpr size_t kMaxSpecBytes = size_t{64} << 20;  /* the whole spec */
inline constexpr size_t kMaxInputRecordBytes = size_t{64} << 10; /* what a launcher puts in one input record */
inline constexpr size_t kMaxPendingInput = size_t{1} << 20;      /* input the agent holds for a slow reader */

/* What the agent starts. */
struct LaunchSpec {
    std::vector<std::string> argv;
    std::vector<std::string> env;  /* "NAME=value" additions */
    std::string working_dir;       /* empty: stay in the agent's directory */
    bool working_dir_required = true;
    double kill_grace = 1.0;
    bool forward_stdin = false;    /* input records follow: the program's stdin is a pipe */
};

/* The whole launcher -> agent stream up to and including "start". */
std::string encode_spec(const LaunchSpec &spec);
/* A "signal" record, for after the spec. */
std::string encode_signal(int signal);
/* An "input" record carrying `data` (at most kMaxRecordBytes), and the "input-end" record. */
std::string encode_input(std::string_view data);
std::string encode_input_end();

/* Incremental reader of the launcher -> agent stream: feed() what arrived, then call next() until it
 * says kNeedMore. Errors are final and name what was wrong. */
class Decoder {
public:
    enum class Event { kNeedMore, kSpec, kSignal, kInput, kInputEnd, kError };

    void feed(const char *data, size_t size);
    Event next();

    const LaunchSpec &spec() const { return spec_; }
    int signal() const { return signal_; }
    /* The payload of the last kInput: valid until the next feed(). */
    std::string_view input() const { return input_; }
    const std::string &error() const { return error_; }

private:
    Event fail(std::string message);
    /* One complete record at the read position, or false (need more / error set). */
    bool take_record(std::string *name, std::string_view *payload);
    Event apply_spec_record(const std::string &name, std::string_view payload);

    std::string buffer_;
    size_t pos_ = 0;
    size_t consumed_ = 0; /* bytes of the spec so far, for kMaxSpecBytes */
    bool magic_seen_ = false;
    bool started_ = false;
    bool have_cwd_ = false;
    bool have_grace_ = false;
    bool input_ended_ = false;
    LaunchSpec spec_;
    int signal_ = 0;
    std::string_view input_;
    std::string error_;
};

inline constexpr std::string_view kStatusPrefix = "TESSERA-LAUNCH-AGENT ";

/* The agent's first stdout line, '\n' included. Newlines in the message become spaces. */
std::string encode_started(long pid);
std::string encode_failed(int code, std::string_view message);

struct StartStatus {
    bool started = false;
    long pid = 0;       /* started: the program's pid on its host */
    int code = 0;       /* failed: a TESSERA_* code */
    std::string message;
};
/* A line without its '\n'; nullopt when it is not a well-formed status line (e.g. a remote shell's
 * start-up file printed something first). */
std::optional<StartStatus> parse_status_line(std::string_view line);

} // namespace tessera::orte::plm::agent

#endif
