#include "describe.h"

#include "time_format.h"

namespace tessera::trace {

namespace {

std::string route(const Transfer &t)
{
    return std::to_string(t.sender) + " -> " + std::to_string(t.receiver) + ", comm " +
           std::to_string(t.comm) + ", tag " + std::to_string(t.tag);
}

} // namespace

std::string describe_send(const Transfer &t, const Clock &clock)
{
    return "send " + route(t) + ", " + std::to_string(t.bytes) + " bytes at " + time_text(t.time, clock) + " s";
}

std::string describe_receive(const Transfer &t, const Clock &clock)
{
    return "receive " + route(t) + ", " + std::to_string(t.bytes) + " bytes at " + time_text(t.time, clock) +
           " s";
}

std::string describe_message(const Message &m, const Clock &clock)
{
    return route(Transfer{m.sender, m.receiver, m.comm, m.tag, 0, 0}) + ": sent " + std::to_string(m.bytes_sent) +
           " bytes at " + time_text(m.send_time, clock) + " s, received " + std::to_string(m.bytes_received) +
           " bytes at " + time_text(m.recv_time, clock) + " s";
}

} // namespace tessera::trace
