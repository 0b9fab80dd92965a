#include "ompi/pml/pml_queues.h"

namespace tessera::ompi::pml {

MessageList::iterator keep_message(MessageList &pool, MessageList &to, MessageList::iterator pos, const MatchHeader &h,
                                   tessera_proc_t *proc, const char *data, std::size_t len)
{
    if (pool.empty()) {
        pool.emplace_back();
    }
    const MessageList::iterator node = pool.begin();
    to.splice(pos, pool, node);
    node->header = h;
    node->proc = proc;
    node->data.assign(data, data + len); /* within the node's old capacity once the pool is warm */
    return node;
}

void drop_message(MessageList &pool, MessageList &from, MessageList::iterator it)
{
    pool.splice(pool.begin(), from, it);
}

} // namespace tessera::ompi::pml
