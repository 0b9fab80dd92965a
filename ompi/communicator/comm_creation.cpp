#include "ompi/communicator/comm_creation.h"

#include <unordered_map>

#include "ompi/communicator/comm_context.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::comm {

Task create(Channel ch, Agreement a, Decide decide, Communicator *c, std::string *error)
{
    Exchanged records;
    Agreed agreed;
    const bool kept = a.keep;
    Task agreeing = agree(std::move(ch), std::move(a), &records, &agreed);
    int rc = co_await agreeing;
    if (rc == MPI_ERR_INTERN) {
        *error = "no context id is free on every process taking part (each has mpi_max_context_ids = " +
                 std::to_string(cid::max_ids) + "; " + std::to_string(cid::used_count()) + " in use here)";
    } else if (rc != MPI_SUCCESS) {
        *error = "a message of the context id agreement failed";
    }
    if (rc != MPI_SUCCESS) {
        co_return rc;
    }
    std::optional<Spec> spec;
    rc = decide(records, &spec, error);
    if (rc != MPI_SUCCESS || !spec) {
        if (kept) {
            for (std::uint32_t id : agreed.ids) {
                cid::release(id);
            }
        }
        co_return rc;
    }
    co_return build(c, std::move(*spec), agreed, error);
}

int finish(const char *function, MPI_Comm raise_on, Communicator *c, int rc, const std::string &error,
           MPI_Comm *newcomm)
{
    if (rc == MPI_SUCCESS && handle_state(c) == handle_bits::kOpen) {
        *newcomm = comm_handle(c);
        return MPI_SUCCESS;
    }
    *newcomm = MPI_COMM_NULL;
    comm_release(c);
    comm_reap();
    return rc == MPI_SUCCESS ? MPI_SUCCESS : raise_on_comm(raise_on, rc, function, error);
}

std::vector<int> ranks_in(const std::vector<tessera_proc_t *> &in, const std::vector<tessera_proc_t *> &procs)
{
    std::unordered_map<const tessera_proc_t *, int> rank;
    for (std::size_t r = 0; r < in.size(); ++r) {
        rank.emplace(in[r], static_cast<int>(r));
    }
    std::vector<int> out;
    out.reserve(procs.size());
    for (const tessera_proc_t *p : procs) {
        const auto it = rank.find(p);
        out.push_back(it == rank.end() ? -1 : it->second);
    }
    return out;
}

} // namespace tessera::ompi::comm
