/*
 * The engine's queues, none of which allocates per message once warm: requests are linked through
 * their own next/prev fields (a request is in at most one queue), and messages kept by the engine
 * (unexpected ones, and fragments that overtook an earlier one) are list nodes that go back to a pool
 * with their payload buffer's capacity when done.
 */
#ifndef TESSERA_OMPI_PML_PML_QUEUES_H
#define TESSERA_OMPI_PML_PML_QUEUES_H

#include <list>
#include <vector>

#include "ompi/pml/pml_request.h"
#include "ompi/pml/pml_wire.h"

namespace tessera::ompi::pml {

/* Requests in the order they were added. */
struct RequestList {
    Request *head = nullptr;
    Request *tail = nullptr;
    std::size_t size = 0;

    bool empty() const { return head == nullptr; }
    void push_back(Request *r)
    {
        r->next = nullptr;
        r->prev = tail;
        (tail != nullptr ? tail->next : head) = r;
        tail = r;
        ++size;
    }
    void erase(Request *r)
    {
        (r->prev != nullptr ? r->prev->next : head) = r->next;
        (r->next != nullptr ? r->next->prev : tail) = r->prev;
        r->next = r->prev = nullptr;
        --size;
    }
    bool contains(const Request *r) const
    {
        for (const Request *p = head; p != nullptr; p = p->next) {
            if (p == r) {
                return true;
            }
        }
        return false;
    }
};

/* A matching fragment the engine keeps: an EAGER message (data = the payload) or an RTS (data = the
 * sender's address when it offers single copy). */
struct KeptMessage {
    MatchHeader header{};
    tessera_proc_t *proc = nullptr;
    std::vector<char> data;
};

using MessageList = std::list<KeptMessage>;

/* Moves a node from `pool` (or a new one while the pool is cold) to `to` before `pos`, filled in;
 * returns it. Each communicator's matching state has its pool, under its lock (pml_engine_private.h). */
MessageList::iterator keep_message(MessageList &pool, MessageList &to, MessageList::iterator pos, const MatchHeader &h,
                                   tessera_proc_t *proc, const char *data, std::size_t len);

/* Returns a node of `from` to `pool`. */
void drop_message(MessageList &pool, MessageList &from, MessageList::iterator it);

} // namespace tessera::ompi::pml

#endif
