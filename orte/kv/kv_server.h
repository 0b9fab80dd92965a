/*
 * The wire-up ("modex") service mpirun runs: each rank connects, proves it knows the job key, puts its
 * business cards, fences, and receives every rank's cards once all have fenced. It also carries the
 * ranks' control messages to mpirun (abort, finalize). Single-threaded: mpirun polls fd() in its event
 * loop and calls progress() when it is readable.
 *
 * A connection that sends garbage, a wrong key, a truncated frame or a frame above the size limit is
 * dropped (and reported through on_rejected) without disturbing the job.
 */
#ifndef TESSERA_ORTE_KV_KV_SERVER_H
#define TESSERA_ORTE_KV_KV_SERVER_H

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace tessera::orte {

struct KvServerEvents {
    /* A rank called MPI_Abort (or failed in MPI_Init and asked for the job to end). */
    std::function<void(int rank, int exit_code, const std::string &message)> on_abort;
    /* A rank entered MPI_Finalize. */
    std::function<void(int rank)> on_finalize;
    /* A connection was refused or dropped: peer address and why. */
    std::function<void(const std::string &peer, const std::string &reason)> on_rejected;
};

struct KvServerOptions {
    std::string bind_address = "127.0.0.1"; /* "0.0.0.0" to serve other hosts */
    int nranks = 1;
    std::string job_key;
    size_t max_frame_bytes = 64u << 20; /* larger frames drop the connection */
    double handshake_timeout = 10.0;    /* seconds a connection may take to present the key */
};

class KvServer {
public:
    static std::unique_ptr<KvServer> start(const KvServerOptions &options, KvServerEvents events,
                                           std::string *error);
    virtual ~KvServer() = default;

    /* "address:port", for TESSERA_KV_URI. */
    virtual std::string uri() const = 0;
    /* Readable when progress() has work (an epoll fd). */
    virtual int fd() const = 0;
    /* Handles whatever is ready; waits at most timeout_ms (0: do not wait). */
    virtual void progress(int timeout_ms) = 0;
    /* Ranks that completed the handshake and are still connected. */
    virtual int connected_ranks() const = 0;
    virtual bool rank_finalized(int rank) const = 0;
    /* The rank completed the handshake once (it reached the wire-up), connected still or not. */
    virtual bool rank_seen(int rank) const = 0;
};

} // namespace tessera::orte

#endif
