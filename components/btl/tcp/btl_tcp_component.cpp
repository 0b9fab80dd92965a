/* btl tcp: parameters, query, and the listening sockets of the links (btl_tcp.h). */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "components/btl/tcp/btl_tcp.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_tcp {

Params params;

namespace {

constexpr int kPriority = 10;
constexpr int kMaxLinks = 16;

mca_btl_base_module_t *modules[kMaxLinks];

int register_params(const mca_base_component_t *)
{
    params = Params{};
    struct {
        const char *name;
        const char *help;
        mca_var_type_t type;
        void *storage;
    } vars[] = {
        {"links", "Connections per peer, each its own module (large messages are striped over them), 1..16",
         MCA_VAR_TYPE_INT, &params.links},
        {"if_include", "Interfaces (names or a.b.c.d/n subnets, comma-separated) to use; not with if_exclude",
         MCA_VAR_TYPE_STRING, &params.if_include},
        {"if_exclude", "Interfaces (names or subnets) not to use; loopback is used only when nothing else is there",
         MCA_VAR_TYPE_STRING, &params.if_exclude},
        {"eager_limit", "Largest message (header included) the pml sends in one fragment", MCA_VAR_TYPE_SIZE,
         &params.eager_limit},
        {"max_send_size", "Bytes of one fragment, header included", MCA_VAR_TYPE_SIZE, &params.max_send_size},
        {"queue_limit", "Bytes a connection may queue before a send is retried later", MCA_VAR_TYPE_SIZE,
         &params.queue_limit},
        {"latency", "One-way latency estimate, ns", MCA_VAR_TYPE_UNSIGNED, &params.latency},
        {"bandwidth", "Bandwidth estimate, MB/s (weights striping)", MCA_VAR_TYPE_UNSIGNED, &params.bandwidth},
    };
    for (const auto &v : vars) {
        const int rc = mca_var_register("btl", "tcp", v.name, v.help, v.type, nullptr, MCA_INFO_LVL_4,
                                        MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE, v.storage);
        if (rc < 0) {
            return rc;
        }
    }
    return TESSERA_SUCCESS;
}

int open_component()
{
    std::string problem;
    if (params.links < 1 || params.links > kMaxLinks) {
        problem = "btl_tcp_links: value " + std::to_string(params.links) + " is not in 1.." + std::to_string(kMaxLinks);
    } else if (params.if_include != nullptr && *params.if_include != '\0' && params.if_exclude != nullptr &&
               *params.if_exclude != '\0') {
        problem = std::string("btl_tcp_if_include (\"") + params.if_include + "\") and btl_tcp_if_exclude (\"" +
                  params.if_exclude + "\") are both set; set one of them";
    } else if (params.max_send_size < 1024 || params.eager_limit > params.max_send_size) {
        problem = "btl_tcp_max_send_size: value " + std::to_string(params.max_send_size) +
                  " must be at least 1024 and at least btl_tcp_eager_limit (" + std::to_string(params.eager_limit) + ")";
    }
    if (!problem.empty()) {
        tessera::mca::report(tessera::mca::Severity::Error, problem);
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

int query(void **module, int *priority)
{
    *module = nullptr;
    *priority = kPriority;
    return TESSERA_SUCCESS;
}

int close_component()
{
    modules_destroy();
    return TESSERA_SUCCESS;
}

int listen_on(in_addr_t addr, uint16_t *port, std::string *error)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = addr;
    socklen_t len = sizeof sa;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0) {
        *error = std::strerror(errno);
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *port = ntohs(sa.sin_port);
    return fd;
}

mca_btl_base_module_t **init(int *num_modules, bool, bool)
{
    *num_modules = 0;
    const tessera_job_info_t *job = tessera_job_info();
    if (job == nullptr || job->size < 2) {
        return nullptr; /* nobody to reach */
    }
    std::string error;
    const in_addr_t addr = choose_address(job->host, &error);
    if (addr == 0) {
        tessera::mca::report(tessera::mca::Severity::Error, "btl tcp: " + error);
        return nullptr;
    }
    Card card{};
    card.addr = addr;
    card.links = static_cast<uint32_t>(params.links);
    int fds[kMaxLinks];
    for (int i = 0; i < params.links; ++i) {
        fds[i] = listen_on(addr, &card.ports[i], &error);
        if (fds[i] < 0) {
            char text[INET_ADDRSTRLEN] = "?";
            inet_ntop(AF_INET, &addr, text, sizeof text);
            tessera::mca::report(tessera::mca::Severity::Error,
                                 "btl tcp: cannot listen on " + std::string(text) + ": " + error);
            for (int k = 0; k < i; ++k) {
                close(fds[k]);
            }
            return nullptr;
        }
    }
    if (tessera_modex_put("btl.tcp", &card, sizeof card) != TESSERA_SUCCESS) {
        for (int i = 0; i < params.links; ++i) {
            close(fds[i]);
        }
        return nullptr;
    }
    for (int i = 0; i < params.links; ++i) {
        modules[i] = module_create(i, fds[i], addr);
    }
    *num_modules = params.links;
    return modules;
}

} // namespace

} // namespace tessera::ompi::btl_tcp

using namespace tessera::ompi::btl_tcp;

mca_btl_base_component_t mca_btl_tcp_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "tcp", 1, 0, 0),
             .mca_register_params = register_params,
             .mca_open_component = open_component,
             .mca_close_component = close_component,
             .mca_query_component = query,
             .mca_flags = 0,
             .mca_reserved_u32 = {},
             .mca_reserved_ptr = {}},
    .btl_init = init,
    .reserved = {},
};
