/*
 * Where the wire-up service listens and the address each host's ranks connect to.
 *
 * A rank on this machine, or on a loopback "host" (127.0.0.2, ... used by the tests), reaches mpirun at
 * 127.0.0.1; the service then listens on 127.0.0.1 only. A rank on another machine connects to the
 * address this machine uses to reach that host (the source address the kernel picks for a route to it),
 * and the service listens on every interface (0.0.0.0). IPv4 only, like the service.
 */
#ifndef TESSERA_TOOLS_MPIRUN_KV_ADDRESS_H
#define TESSERA_TOOLS_MPIRUN_KV_ADDRESS_H

#include <optional>
#include <string>
#include <vector>

#include "hosts.h"

namespace tessera::mpirun {

struct KvAddresses {
    std::string bind_address;             /* "127.0.0.1" or "0.0.0.0" */
    std::vector<std::string> connect_to;  /* per host (same order): the address without the port */
};

std::optional<KvAddresses> kv_addresses(const std::vector<Host> &hosts, std::string *error);

/* "a.b.c.d:port" from the address and the port of the service's own uri ("0.0.0.0:4711"). */
std::string kv_uri_for(const std::string &address, const std::string &service_uri);

} // namespace tessera::mpirun

#endif
