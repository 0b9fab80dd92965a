/*
 * Standard input forwarding: mpirun reads its own stdin and writes it, byte for byte, into a pipe that
 * is the stdin of each rank chosen by --stdin (rank 0 by default). mpirun's end of-file closes the
 * pipes, which is the ranks' end-of-file. A pipe rather than the inherited descriptor, because each rank
 * runs in a process group of its own: reading mpirun's terminal from there would stop it (SIGTTIN).
 * The reading waits while some rank has not taken the previous chunk, so a slow reader holds back
 * mpirun's input rather than mpirun's memory growing.
 */
#ifndef TESSERA_TOOLS_MPIRUN_STDIN_FORWARD_H
#define TESSERA_TOOLS_MPIRUN_STDIN_FORWARD_H

#include <poll.h>

#include <string>
#include <vector>

namespace tessera::mpirun {

class StdinForwarder {
public:
    /* Reads from `source` (mpirun's stdin), which it never closes or makes non-blocking (it is the
     * shell's too). */
    explicit StdinForwarder(int source);
    StdinForwarder(const StdinForwarder &) = delete;
    StdinForwarder &operator=(const StdinForwarder &) = delete;
    ~StdinForwarder();

    /* A pipe for one rank: returns the read end (close-on-exec; the caller gives it to the launcher
     * and closes it after the spawn), or -1 with *error. */
    int add_rank(int rank, std::string *error);
    /* The rank has gone: nothing more is written to it. */
    void rank_ended(int rank);

    /* Appends the descriptors to poll (mpirun's stdin when a chunk may be read, pipes with data due). */
    void append_pollfds(std::vector<pollfd> &fds) const;
    /* Acts on one polled descriptor. */
    void on_ready(const pollfd &p);

private:
    struct Sink {
        int rank = 0;
        int fd = -1;     /* non-blocking write end */
        size_t done = 0; /* bytes of chunk_ written to it */
    };

    void read_source();
    void write_sink(Sink &s);
    void close_sink(Sink &s);
    void next_chunk_if_done();

    int source_;
    bool source_open_ = true;
    std::string chunk_;
    std::vector<Sink> sinks_;
};

} // namespace tessera::mpirun

#endif
