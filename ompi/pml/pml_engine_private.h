/*
 * What the engine's files share and nothing outside them sees: the matching state of each
 * communicator, the queues of requests in progress, and the small helpers every message passes
 * through. The helpers are inline here because they were static in one file before the engine was
 * split by role, and the hot path must not pay a call for the split.
 *
 * Hidden: the state was in one file's anonymous namespace; with default visibility every access from a
 * shared library would go through the GOT, and every call through the PLT.
 */
#ifndef TESSERA_OMPI_PML_PML_ENGINE_PRIVATE_H
#define TESSERA_OMPI_PML_PML_ENGINE_PRIVATE_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "frameworks/btl/base/base.h"
#include "ompi/datatype/convertor.h"
#include "ompi/pml/pml_engine.h"
#include "ompi/pml/pml_internal.h"
#include "ompi/pml/pml_queues.h"
#include "ompi/pml/pml_wire.h"

#pragma GCC visibility push(hidden)

namespace tessera::ompi::pml {

inline constexpr mca_btl_base_tag_t kTag = MCA_BTL_TAG_PML;

struct PeerState {
    uint32_t send_seq = 0;
    uint32_t recv_seq = 0;
    MessageList held; /* fragments ahead of recv_seq, by sequence number */
};

struct CommState {
    Communicator *comm = nullptr;
    RequestList posted;     /* receives in posting order */
    MessageList unexpected; /* in arrival order */
    std::vector<PeerState> peers;
};

/* Sequence numbers wrap: a is before b when the distance from b back to a is short. */
inline bool seq_before(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

/* A control fragment the btl could not take yet; sent in order by progress(). */
struct Pending {
    tessera_proc_t *proc;
    std::vector<char> header;
    const char *payload;
    std::size_t payload_len;
    Request *completes; /* an eager send completes once its fragment is taken */
};

/* The engine's state (pml_engine.cpp). */
extern std::vector<CommState *> states_by_context;
/* Matching fragments for a context no communicator of this process has yet: a peer may start using a
 * new communicator as soon as its own creation call returns, before this process has finished its own
 * (comm_attach replays them). */
extern MessageList early;
extern std::deque<Pending> pending;
extern RequestList awaiting_cts; /* rendezvous sends whose RTS is out */
extern RequestList active_sends; /* rendezvous sends moving their data */
extern RequestList receiving;    /* matched rendezvous receives waiting for their data */
extern std::vector<const tessera_proc_t *> finalizing_peers; /* whose FIN came: they receive nothing more */
extern std::vector<ProgressHook> progress_hooks;
extern bool running;

inline CommState *state_of(uint32_t context)
{
    return context < states_by_context.size() ? states_by_context[context] : nullptr;
}

inline void complete(Request *r)
{
    r->complete = true;
    Request *parent = r->parent;
    if (parent != nullptr) {
        /* A child of a compound request: the receive's status is the parent's; a failed send shows
         * as the parent's error when the receive succeeded. */
        if (r->kind == Kind::Recv) {
            const int error = parent->status.MPI_ERROR;
            parent->status = r->status;
            if (r->status.MPI_ERROR == MPI_SUCCESS && error != MPI_SUCCESS) {
                parent->status.MPI_ERROR = error;
            }
        } else if (r->status.MPI_ERROR != MPI_SUCCESS) {
            parent->status.MPI_ERROR = r->status.MPI_ERROR;
        }
        request_release(r);
        if (--parent->children == 0) {
            complete(parent);
        }
        return;
    }
    if (r->freed) {
        r->active = false;
        request_release(r);
    }
}

inline void fail(Request *r, int code)
{
    r->status.MPI_ERROR = code;
    complete(r);
}

/* A send of a non-contiguous type: packs its message up to byte `end` (what is packed already stays). */
inline void pack_until(Request *s, std::size_t end)
{
    if (!s->type->contiguous && s->packed_upto < end) {
        convertor_pack(s->sbuf, s->count, *s->type, s->packed_upto, s->packed.data() + s->packed_upto,
                       end - s->packed_upto);
        s->packed_upto = end;
    }
}

/* MPI_ANY_TAG takes user tags only: the library's own traffic (negative tags, pml_internal.h) stays out
 * of reach of every wildcard receive and probe. */
inline bool tag_matches(int wanted, int tag)
{
    return wanted == tag || (wanted == MPI_ANY_TAG && tag >= 0);
}

inline bool matches(const Request *r, int source, int tag)
{
    return (r->peer == MPI_ANY_SOURCE || r->peer == source) && tag_matches(r->tag, tag);
}

/* The protocol state of a request that starts (again: persistent requests start many times). */
inline void restart(Request *r)
{
    r->complete = false;
    r->active = true;
    r->matched = false;
    r->cancelled = false;
    r->rendezvous = false;
    r->remote = 0;
    r->address = 0;
    r->msg_bytes = 0;
    r->scheduled = 0;
    r->packed_upto = 0;
    r->delivered = 0;
    r->in_flight = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    status_set_count(&r->status, 0);
    status_set_cancelled(&r->status, false);
}

/* pml_send.cpp: sends one control fragment on the peer's first module, behind any already waiting. */
int send_control(tessera_proc_t *proc, const void *header, std::size_t header_len, const char *payload,
                 std::size_t payload_len, Request *completes);
/* pml_send.cpp: what progress() drives; each returns how much it did. */
int progress_pending();
int progress_sends();
/* pml_send.cpp: the receiver matched a rendezvous send (or read its data itself). */
void on_cts(const CtsHeader &h);

/* pml_recv.cpp */
void deliver(Request *r, const MatchHeader &h, tessera_proc_t *proc, const char *data);

/* pml_recv_frag.cpp: a matching fragment (EAGER or RTS), and the btl's receive callback. */
void on_match(const MatchHeader &h, tessera_proc_t *proc, const char *data, std::size_t len);
void on_fragment(mca_btl_base_module_t *, const mca_btl_base_recv_desc_t *desc, void *);

/* pml_peer_failure.cpp: the btl's error callback. */
void on_peer_error(mca_btl_base_module_t *btl, tessera_proc_t *proc, int, const char *why, void *);

} // namespace tessera::ompi::pml

#pragma GCC visibility pop

#endif
