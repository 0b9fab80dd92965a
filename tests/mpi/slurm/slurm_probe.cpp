/*
 * What a rank started by srun sees and does, for the Slurm tests (slurm_native.sh):
 *   slurm_probe            every rank: a line "probe rank=R size=S node=N local=L/LS ess=E library=V
 *                          key=shared|BAD stranger=S peers=P:btl,..." (the transport the engine chose
 *                          for each peer; whether every rank holds the same 64-digit job key; rank 0:
 *                          whether a connection to the last rank's tcp listener with a wrong key was
 *                          refused), after an exchange with every peer and an allreduce it checks
 *   slurm_probe abort C    rank 1 calls MPI_Abort(MPI_COMM_WORLD, C); the others wait in a barrier
 *   slurm_probe die        rank 1 kills itself (SIGKILL); the others wait in a barrier
 * The transport and ess names come from Tessera's own structures (a test hook: MPI has no query for
 * them).
 */
#include <mpi.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "components/btl/tcp/btl_tcp_hdr.h"
#include "frameworks/btl/base/base.h"
#include "frameworks/ess/base/base.h"
#include "ompi/proc/modex.h"
#include "ompi/runtime/runtime.h"

namespace {

std::string peer_transport(int peer)
{
    const auto &procs = tessera::ompi::runtime().world_procs;
    if (peer < 0 || static_cast<size_t>(peer) >= procs.size() || procs[peer] == nullptr) {
        return "none";
    }
    const mca_btl_base_peer_t *set = mca_btl_base_peer(procs[peer]);
    if (set == nullptr || set->modules[0].btl == nullptr) {
        return "none";
    }
    std::string name = set->modules[0].btl->btl_name;
    return name.substr(0, name.find(':')); /* "tcp:eth0:1" -> "tcp" */
}

/*
 * Rank 0 as a stranger: connects to `peer`'s tcp listener and says hello with this job's id but a key
 * one digit off. "refused" when the peer closes without a word, as it must; else what happened.
 */
std::string stranger_to(int peer, const char *real_key)
{
    namespace wire = tessera::ompi::btl_tcp;
    const void *data = nullptr;
    size_t len = 0;
    if (tessera_modex_get(static_cast<uint32_t>(peer), "btl.tcp", &data, &len) != 0) {
        return "no-card";
    }
    wire::Card card{};
    std::memcpy(&card, data, std::min(len, sizeof card));
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = card.link[0].addr;
    to.sin_port = card.link[0].port;
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to) != 0) {
        close(fd);
        return "no-connect";
    }
    wire::Hello h{};
    h.magic = htonl(wire::kHelloMagic);
    h.version = htons(wire::kProtocolVersion);
    h.jobid = htonl(tessera_job_info()->jobid);
    h.rank = htonl(0);
    h.max_frame = htonl(1u << 16);
    std::memcpy(h.key, real_key, wire::kKeyBytes);
    h.key[0] = h.key[0] == '0' ? '1' : '0';
    std::string result = "answered";
    if (send(fd, &h, sizeof h, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof h)) {
        pollfd p{fd, POLLIN, 0};
        result = "stayed-open";
        if (poll(&p, 1, 10000) == 1) {
            char reply[64];
            result = recv(fd, reply, sizeof reply, 0) > 0 ? "answered" : "refused";
        }
    }
    close(fd);
    return result;
}

} // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::string mode = argc > 1 ? argv[1] : "";

    if (mode == "abort" || mode == "die") {
        if (rank == 1) {
            if (mode == "abort") {
                MPI_Abort(MPI_COMM_WORLD, argc > 2 ? std::atoi(argv[2]) : 1);
            }
            kill(getpid(), SIGKILL);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: the step must end these ranks */
        std::printf("rank %d passed the barrier\n", rank);
        MPI_Finalize();
        return 0;
    }

    /* A stranger first, while the others make progress in the all-to-all: it must be refused and the
     * job go on. Only where tcp is used: the last rank on another node. */
    std::string stranger = "-";
    const tessera_job_info_t *job = tessera_job_info();
    if (rank == 0 && size > 1 && peer_transport(size - 1) == "tcp") {
        stranger = stranger_to(size - 1, job->job_key);
    }

    /* Every pair talks, so every connection (and the tcp handshake with the job key) is made. */
    std::vector<int> out(size), in(size, -1);
    for (int p = 0; p < size; ++p) {
        out[p] = rank * 1000 + p;
    }
    MPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int bad = 0;
    for (int p = 0; p < size; ++p) {
        bad += in[p] != p * 1000 + rank;
    }
    long sum = 0, mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != static_cast<long>(size) * (size + 1) / 2) {
        ++bad;
    }

    /* The job key: 64 hex digits, the same in every rank (one rank made it, PMIx carried it). */
    char key[65] = {};
    std::snprintf(key, sizeof key, "%s", job != nullptr && job->job_key != nullptr ? job->job_key : "");
    std::vector<char> keys(static_cast<size_t>(size) * 65);
    MPI_Allgather(key, 65, MPI_CHAR, keys.data(), 65, MPI_CHAR, MPI_COMM_WORLD);
    bool key_shared = strlen(key) == 64 && strspn(key, "0123456789abcdef") == 64;
    for (int p = 0; p < size; ++p) {
        key_shared = key_shared && std::memcmp(&keys[static_cast<size_t>(p) * 65], key, 65) == 0;
    }

    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(version, &len);
    std::string library(version, strcspn(version, " \n"));
    std::string peers;
    for (int p = 0; p < size; ++p) {
        if (p != rank) {
            peers += (peers.empty() ? "" : ",") + std::to_string(p) + ":" + peer_transport(p);
        }
    }
    std::printf("probe rank=%d size=%d node=%u local=%u/%u ess=%s library=%s key=%s stranger=%s peers=%s%s\n", rank, size,
                job != nullptr ? job->node_id : 99u, job != nullptr ? job->local_rank : 99u,
                job != nullptr ? job->local_size : 99u, tessera::orte::ess::component_name().c_str(),
                library.c_str(), key_shared ? "shared" : "BAD", stranger.c_str(), peers.c_str(), bad != 0 ? " WRONG-RESULTS" : "");
    std::fflush(stdout);
    MPI_Finalize();
    return bad != 0 ? 1 : 0;
}
