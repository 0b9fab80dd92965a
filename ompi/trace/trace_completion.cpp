/* The feed's completions: Wait, Test and their any/some/all forms (trace_feed.h). */
#include <cstdlib>
#include <vector>

#include "ompi/trace/trace_feed.h"
#include "ompi/trace/trace_requests.h"

using namespace tessera::ompi::trace;

namespace {

/* Whether the call hands back one status (Wait, Test, the any forms) or one per request. */
bool one_status(int how)
{
    return how == TESSERA_TRACE_WAIT_ONE || how == TESSERA_TRACE_WAIT_ANY;
}

/* The storage for `count` handles and, when the caller ignores them, statuses: inline up to
 * TESSERA_TRACE_WAIT_INLINE, else one allocation. */
bool provide_storage(tessera_trace_wait_t *w, bool own_statuses)
{
    const size_t n = static_cast<size_t>(w->count);
    const size_t statuses = own_statuses ? (one_status(w->how) ? 1 : n) : 0;
    if (n <= TESSERA_TRACE_WAIT_INLINE && statuses <= TESSERA_TRACE_WAIT_INLINE) {
        w->before = w->inline_before;
        if (own_statuses) {
            w->statuses = w->inline_statuses;
        }
        return true;
    }
    w->heap = std::malloc(statuses * sizeof(MPI_Status) + n * sizeof(MPI_Request));
    if (w->heap == nullptr) {
        return false;
    }
    auto *status_block = static_cast<MPI_Status *>(w->heap);
    w->before = reinterpret_cast<MPI_Request *>(status_block + statuses);
    if (own_statuses) {
        w->statuses = status_block;
    }
    return true;
}

struct Completed {
    int index;
    const MPI_Status *status;
};

/* Which requests the call completed, with their statuses. */
std::vector<Completed> completed(const tessera_trace_wait_t *w, int rc, const int *flag, const int *index,
                                 const int *outcount, const int *indices)
{
    std::vector<Completed> done;
    const bool error_in_status = rc == MPI_ERR_IN_STATUS;
    if ((rc != MPI_SUCCESS && !error_in_status) || (flag != nullptr && *flag == 0)) {
        return done;
    }
    const MPI_Status *st = w->statuses;
    auto status_at = [st](int k) { return st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : st + k; };
    switch (w->how) {
    case TESSERA_TRACE_WAIT_ONE:
        done.push_back({0, status_at(0)});
        break;
    case TESSERA_TRACE_WAIT_ANY:
        if (*index != MPI_UNDEFINED && *index >= 0 && *index < w->count) {
            done.push_back({*index, status_at(0)});
        }
        break;
    case TESSERA_TRACE_WAIT_ALL:
        for (int i = 0; i < w->count; ++i) {
            /* MPI_ERR_IN_STATUS: the requests still pending say so in their status. */
            if (!error_in_status || (st != MPI_STATUSES_IGNORE && st[i].MPI_ERROR != MPI_ERR_PENDING)) {
                done.push_back({i, status_at(i)});
            }
        }
        break;
    case TESSERA_TRACE_WAIT_SOME:
        if (*outcount != MPI_UNDEFINED) {
            for (int k = 0; k < *outcount; ++k) {
                if (indices[k] >= 0 && indices[k] < w->count) {
                    done.push_back({indices[k], status_at(k)});
                }
            }
        }
        break;
    default:
        break;
    }
    return done;
}

} // namespace

extern "C" {

MPI_Status *tessera_trace_wait_begin(tessera_trace_wait_t *w, int how, const MPI_Request *list, int count,
                                     MPI_Status *statuses)
{
    w->how = how;
    w->count = count;
    w->tracked = 0;
    w->statuses = statuses;
    w->before = nullptr;
    w->heap = nullptr;
    if (requests().empty() || count <= 0 || list == nullptr ||
        !provide_storage(w, statuses == MPI_STATUS_IGNORE)) {
        return statuses;
    }
    w->token = next_request_id();
    int tracked = 0;
    for (int i = 0; i < count; ++i) {
        const bool claimed = requests().claim(list[i], w->token);
        w->before[i] = claimed ? list[i] : MPI_REQUEST_NULL;
        tracked += claimed ? 1 : 0;
    }
    if (tracked == 0) {
        std::free(w->heap);
        w->heap = nullptr;
        w->statuses = statuses;
        return statuses;
    }
    w->tracked = tracked;
    return w->statuses;
}

void tessera_trace_wait_end(tessera_trace_wait_t *w, int rc, const int *flag, const int *index, const int *outcount,
                            const int *indices)
{
    if (w->tracked == 0) {
        return;
    }
    for (const Completed &c : completed(w, rc, flag, index, outcount, indices)) {
        MPI_Request &handle = w->before[c.index];
        if (handle == MPI_REQUEST_NULL) {
            continue;
        }
        if (std::optional<RequestRecord> r = requests().complete(handle, w->token)) {
            report_completion(*r, c.status, rc == MPI_ERR_IN_STATUS);
        }
        handle = MPI_REQUEST_NULL;
    }
    for (int i = 0; i < w->count; ++i) {
        if (w->before[i] != MPI_REQUEST_NULL) {
            requests().release(w->before[i], w->token); /* still under way */
        }
    }
    std::free(w->heap);
    w->heap = nullptr;
}

} // extern "C"
