/*
 * MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup, MPI_Comm_idup_with_info (MPI-4.1 7.4.2): the same
 * group(s) on a new context. The duplicate keeps the error handler and the topology, gets the
 * attributes their copy callbacks choose to copy (a callback's error fails the call), and the info
 * hints of the original (or those given). Its name is empty (names are not inherited, 7.8).
 *
 * MPI_Comm_idup copies the attributes, hints and error handler when called, as the blocking form does;
 * the context agreement then runs as a request, and the new handle may be used once that has
 * completed — except to set or read its error handler, name and attributes, which the application may
 * do meanwhile (comm_lookup_settable).
 */
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/comm_checks.h"
#include "ompi/communicator/comm_creation.h"
#include "ompi/runtime/native_api.h"
#include "ompi/errhandler/errhandler.h"

namespace tessera::ompi::native {

namespace {

using comm::Task;

Task dup_task(Communicator *parent, comm::Channel ch, Communicator *c, InfoEntries info, bool blocking,
              std::string *error)
{
    comm::Agreement a;
    a.count = parent->is_inter() ? 2 : 1;
    a.blocking = blocking;
    const comm::Decide same = [parent, &info](const comm::Exchanged &, std::optional<comm::Spec> *spec, std::string *) {
        *spec = comm::Spec{parent->procs, parent->rank, parent->remote_procs, parent->errhandler, info, parent->topo};
        return MPI_SUCCESS;
    };
    Task creating = comm::create(std::move(ch), std::move(a), same, c, error);
    co_return co_await creating;
}

/* MPI_Comm_idup's request: the creation, then what a failure must undo (the attributes copied when
 * the call was made go with the unfinished communicator). The channel's tags are taken by the call. */
Task idup_task(Communicator *parent, comm::Channel ch, Communicator *c, InfoEntries info)
{
    std::string error;
    Task duplicating = dup_task(parent, std::move(ch), c, std::move(info), false, &error);
    const int rc = co_await duplicating;
    if (rc != MPI_SUCCESS || handle_state(c) != handle_bits::kOpen) {
        attr_delete_all(AttrKind::Comm, comm_handle(c), &error);
        comm_release(c);
    }
    co_return rc;
}

/* The hints of the duplicate: `info`'s when given (the _with_info forms), else the original's. */
int hints(const char *function, MPI_Comm comm, const Communicator *parent, const MPI_Info *info, InfoEntries *out)
{
    if (info == nullptr) {
        *out = parent->info;
        return MPI_SUCCESS;
    }
    return hints_argument(function, comm, *info, out);
}

int dup(const char *function, MPI_Comm comm, const MPI_Info *info, MPI_Comm *newcomm)
{
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(function, comm, &rc);
    InfoEntries entries;
    if (parent == nullptr || (rc = hints(function, comm, parent, info, &entries)) != MPI_SUCCESS) {
        return rc;
    }
    Communicator *c = comm_new();
    std::string error;
    rc = comm::run_blocking(dup_task(parent, comm::channel_of(parent), c, std::move(entries), true, &error));
    if ((rc = comm::finish(function, comm, c, rc, error, newcomm)) != MPI_SUCCESS) {
        return rc;
    }
    rc = attr_copy_all(AttrKind::Comm, comm, *newcomm, &error);
    if (rc != MPI_SUCCESS) {
        comm_release(c);
        comm_reap();
        *newcomm = MPI_COMM_NULL;
        return raise_on_comm(comm, rc, function, "an attribute's copy callback failed: " + error);
    }
    return MPI_SUCCESS;
}

int idup(const char *function, MPI_Comm comm, const MPI_Info *info, MPI_Comm *newcomm, MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    Communicator *parent = comm_argument(function, comm, &rc);
    InfoEntries entries;
    if (parent == nullptr || (rc = hints(function, comm, parent, info, &entries)) != MPI_SUCCESS) {
        return rc;
    }
    Communicator *c = comm_new();
    std::string error;
    rc = attr_copy_all(AttrKind::Comm, comm, comm_handle(c), &error);
    if (rc != MPI_SUCCESS) {
        comm_release(c);
        comm_reap();
        return raise_on_comm(comm, rc, function, "an attribute's copy callback failed: " + error);
    }
    /* The handle is the application's at once: its error handler (the original's until changed), name
     * and attributes may be set before the request completes, as Open MPI and MPICH allow. */
    const MPI_Errhandler inherited = errhandler_get(&parent->errhandler);
    errhandler_assign(&c->errhandler, inherited);
    errhandler_release(inherited);
    handle_set_state(c, handle_bits::kPending);
    *newcomm = comm_handle(c);
    *request = pml::to_handle(
        comm::start_request(idup_task(parent, comm::channel_of_request(parent), c, std::move(entries)), parent));
    return MPI_SUCCESS;
}

} // namespace

int comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return dup("MPI_Comm_dup", comm, nullptr, newcomm);
}

int comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return dup("MPI_Comm_dup_with_info", comm, &info, newcomm);
}

int comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup("MPI_Comm_idup", comm, nullptr, newcomm, request);
}

int comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup("MPI_Comm_idup_with_info", comm, &info, newcomm, request);
}

} // namespace tessera::ompi::native
