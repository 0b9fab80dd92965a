/* The creation exchange (comm_channel.h): binomial gather to the leader, the leaders' trade, binomial
 * broadcast of the result, each one schedule of internal messages. */
#include "ompi/communicator/comm_channel.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"

namespace tessera::ompi::comm {

namespace {

const Datatype *int_type()
{
    return datatype_lookup(MPI_INT);
}

const Datatype *word_type()
{
    return datatype_lookup(MPI_UINT64_T);
}

/* The binomial tree over n members, rooted at virtual index 0; this process is virtual index v. */
struct Tree {
    Tree(int members, int virtual_index) : n(members), v(virtual_index)
    {
        int top = 1;
        while (top < n) {
            top <<= 1;
        }
        low = v == 0 ? top : (v & -v);
    }
    int parent() const { return v - low; }
    /* How many members the subtree of this process holds (itself first). */
    int span() const { return std::min(low, n - v); }
    /* f(child, its subtree's size) for each child. */
    template <typename F>
    void children(F f) const
    {
        for (int bit = 1; bit < low && v + bit < n; bit <<= 1) {
            f(v + bit, std::min(bit, n - v - bit));
        }
    }

    int n;
    int v;
    int low;
};

std::unique_ptr<coll::Schedule> schedule_on(Communicator *comm, int tag)
{
    if (tag == kCollectiveTag) {
        return std::make_unique<coll::Schedule>(comm);
    }
    return std::make_unique<coll::Schedule>(comm, tag);
}

} // namespace

Channel channel_of(Communicator *comm)
{
    Channel ch;
    ch.comm = comm;
    if (comm->is_inter()) {
        ch.comm = comm->local_comm;
        ch.link = comm;
        ch.remote_leader = 0;
        ch.remote_size = comm->remote_size();
    }
    ch.members.resize(static_cast<std::size_t>(ch.comm->size));
    std::iota(ch.members.begin(), ch.members.end(), 0);
    ch.me = ch.comm->rank;
    return ch;
}

Channel channel_of_request(Communicator *comm)
{
    Channel ch = channel_of(comm);
    const coll::FixedTags tags = coll::reserve_tags(comm);
    ch.tag = ch.link != nullptr ? tags.local_tag : tags.tag; /* an intercommunicator's group: its local_comm */
    ch.link_tag = tags.tag;
    return ch;
}

Task exchange(const Channel &ch, std::vector<int> mine, std::vector<std::uint64_t> mask, Exchanged *out,
              std::size_t max_words)
{
    /* A failed message does not stop the exchange: the others would wait for this process forever. */
    int error = MPI_SUCCESS;
    const auto note = [&error](int rc) {
        if (error == MPI_SUCCESS) {
            error = rc;
        }
    };
    const int n = static_cast<int>(ch.members.size());
    const auto k = mine.size();
    const auto m = mask.size();
    const Tree tree(n, (ch.me - ch.root + n) % n);
    const auto member = [&ch, n](int v) { return ch.members[static_cast<std::size_t>((v + ch.root) % n)]; };
    const auto at = [k](std::vector<int> &v, int index) { return v.data() + static_cast<std::size_t>(index) * k; };
    /* Combines another contribution into mask: AND, but MAX for the last max_words words. */
    const std::size_t anded = m - std::min(max_words, m);
    const auto combine = [&](coll::Schedule &s, void *theirs) {
        if (anded > 0) {
            s.reduce(theirs, mask.data(), anded, word_type(), op_lookup(MPI_BAND));
        }
        if (anded < m) {
            s.reduce(static_cast<std::uint64_t *>(theirs) + anded, mask.data() + anded, m - anded, word_type(),
                     op_lookup(MPI_MAX));
        }
    };

    /* Up the tree: every subtree's contributions in virtual order, the masks combined on the way. */
    std::vector<int> gathered(static_cast<std::size_t>(n) * k);
    std::copy(mine.begin(), mine.end(), at(gathered, tree.v));
    {
        auto s = schedule_on(ch.comm, ch.tag);
        std::vector<void *> masks;
        tree.children([&](int child, int span) {
            if (k > 0) {
                s->recv(at(gathered, child), static_cast<std::size_t>(span) * k, int_type(), member(child));
            }
            masks.push_back(s->scratch(m, word_type()));
            s->recv(masks.back(), m, word_type(), member(child));
        });
        s->round();
        for (void *theirs : masks) {
            combine(*s, theirs);
        }
        if (tree.v != 0) {
            if (k > 0) {
                s->send(at(gathered, tree.v), static_cast<std::size_t>(tree.span()) * k, int_type(),
                        member(tree.parent()));
            }
            s->send(mask.data(), m, word_type(), member(tree.parent()));
        }
        note(co_await wait(*s));
    }
    out->local.assign(static_cast<std::size_t>(n) * k, 0);
    out->remote.assign(static_cast<std::size_t>(ch.remote_size) * k, 0);
    if (tree.v == 0) {
        for (int index = 0; index < n; ++index) {
            const int *from = at(gathered, (index - ch.root + n) % n);
            std::copy(from, from + k, at(out->local, index));
        }
    }

    /* Across: the leaders trade their groups' results. Every member of an intercommunicator counts the
     * trade among its collectives, so that their numbers stay the same everywhere. */
    if (ch.link != nullptr && (tree.v == 0 || ch.link_tag == kCollectiveTag)) {
        auto s = schedule_on(ch.link, ch.link_tag);
        if (tree.v == 0) {
            if (k > 0) {
                s->send(out->local.data(), out->local.size(), int_type(), ch.remote_leader);
                s->recv(out->remote.data(), out->remote.size(), int_type(), ch.remote_leader);
            }
            void *theirs = s->scratch(m, word_type());
            s->send(mask.data(), m, word_type(), ch.remote_leader);
            s->recv(theirs, m, word_type(), ch.remote_leader);
            s->round();
            combine(*s, theirs);
        }
        note(co_await wait(*s));
    }

    /* Down the tree: the result. */
    {
        auto s = schedule_on(ch.comm, ch.tag);
        const auto move = [&](bool send, int peer) {
            for (std::vector<int> *ints : {&out->local, &out->remote}) {
                if (!ints->empty()) {
                    send ? s->send(ints->data(), ints->size(), int_type(), peer)
                         : s->recv(ints->data(), ints->size(), int_type(), peer);
                }
            }
            send ? s->send(mask.data(), m, word_type(), peer) : s->recv(mask.data(), m, word_type(), peer);
        };
        if (tree.v != 0) {
            move(false, member(tree.parent()));
            s->round();
        }
        tree.children([&](int child, int) { move(true, member(child)); });
        note(co_await wait(*s));
    }
    out->mask = std::move(mask);
    co_return error;
}

Task trade_int(Communicator *bridge, int remote_leader, int tag, int mine, int *theirs)
{
    coll::Schedule s(bridge, tag);
    s.send(&mine, 1, int_type(), remote_leader);
    s.recv(theirs, 1, int_type(), remote_leader);
    co_return co_await wait(s);
}

Task bcast_int(Communicator *comm, int root, int *value)
{
    const int n = comm->size;
    const Tree tree(n, (comm->rank - root + n) % n);
    coll::Schedule s(comm);
    if (tree.v != 0) {
        s.recv(value, 1, int_type(), (tree.parent() + root) % n);
        s.round();
    }
    tree.children([&](int child, int) { s.send(value, 1, int_type(), (child + root) % n); });
    co_return co_await wait(s);
}

} // namespace tessera::ompi::comm
