/*
 * A rank's side of the wire-up service (kv_server.h): put business cards, fence, read peers' cards;
 * tell mpirun about MPI_Abort and MPI_Finalize. Blocking calls; used during MPI_Init/Finalize only.
 */
#ifndef TESSERA_ORTE_KV_KV_CLIENT_H
#define TESSERA_ORTE_KV_KV_CLIENT_H

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::orte {

class KvClient {
public:
    /* Connects to uri ("address:port") and presents the key for `rank`; nullptr and *error on failure. */
    static std::unique_ptr<KvClient> connect(const std::string &uri, const std::string &job_key, int rank,
                                             std::string *error, double timeout_seconds = 30.0);
    virtual ~KvClient() = default;

    /* Buffered until the next fence. */
    virtual int put(std::string_view key, std::span<const std::byte> value) = 0;
    /* Sends the puts, waits until every rank has fenced, receives all ranks' data. */
    virtual int fence() = 0;
    /* A key another rank (or this one) put before the last fence. */
    virtual std::optional<std::vector<std::byte>> get(int rank, std::string_view key) const = 0;

    /* Asks mpirun to end the job with exit_code (MPI_Abort). Returns once mpirun has it. */
    virtual int abort(int exit_code, std::string_view message) = 0;
    /* Tells mpirun this rank reached MPI_Finalize. */
    virtual int finalize() = 0;
};

} // namespace tessera::orte

#endif
