/*
 * Output forwarding: the ranks' stdout and stderr pipes, read without blocking and written to mpirun's
 * own stdout and stderr a whole line at a time, so that lines of different ranks never mix. With
 * --tag-output each line is prefixed "[<jobid>,<rank>]<stdout>: " or "[<jobid>,<rank>]<stderr>: ".
 * A line longer than the buffer is forwarded in pieces (each tagged as a line of its own).
 * With --output-filename DIR, rank N's output goes instead to DIR/1/rank.N/stdout and DIR/1/rank.N/stderr
 * (Open MPI's layout; "1" is the job within the run, as mpirun starts one), untagged.
 */
#ifndef TESSERA_TOOLS_MPIRUN_IOF_H
#define TESSERA_TOOLS_MPIRUN_IOF_H

#include <poll.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::mpirun {

class OutputForwarder {
public:
    enum class Kind { Stdout, Stderr };

    /* output_dir: "" to forward to mpirun's stdout and stderr; else the --output-filename directory,
     * made ready with prepare_output_dir. */
    OutputForwarder(uint32_t jobid, bool tag_output, std::string output_dir = "");
    OutputForwarder(const OutputForwarder &) = delete;
    OutputForwarder &operator=(const OutputForwarder &) = delete;
    /* Flushes and closes what is still open. */
    ~OutputForwarder();

    /* Takes ownership of a non-blocking read end (ignored when fd < 0). */
    void add(int rank, Kind kind, int fd);

    /* Appends one pollfd per open stream. */
    void append_pollfds(std::vector<pollfd> &fds) const;
    /* Reads the stream behind fd (after poll said so); closes it at end-of-file. */
    void on_ready(int fd);
    /* Reads every stream of `rank` until it would block (a rank that exited has said all it will). */
    void drain_rank(int rank);
    /* Reads every open stream until it would block. */
    void drain_all();
    bool any_open() const;
    /* Forwards partial lines and closes every stream (a rank's orphaned child may keep a pipe open). */
    void close_all();

    /* Creates DIR/1/rank.N for ranks 0..nranks-1; false and *error naming the directory when it cannot. */
    static bool prepare_output_dir(const std::string &dir, int nranks, std::string *error);

    /* mpirun's own message to stderr, as one write between ranks' lines. */
    static void message(const std::string &line);

private:
    struct Stream {
        int rank = 0;
        Kind kind = Kind::Stdout;
        int fd = -1;
        int file_fd = -1; /* --output-filename: where its output goes instead */
        std::string pending; /* the part of a line not yet ended by '\n' */
    };

    /* Returns false at end-of-file or error (the stream was closed). */
    bool read_some(Stream &s);
    void forward(Stream &s, bool at_eof);
    void close_stream(Stream &s);
    std::string prefix(const Stream &s) const;

    const uint32_t jobid_;
    const bool tag_;
    const std::string output_dir_;
    std::vector<Stream> streams_;
};

} // namespace tessera::mpirun

#endif
