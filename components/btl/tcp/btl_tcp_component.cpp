/* btl tcp: parameters, query, the listeners of the links and the card (btl_tcp.h). */
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <string>

#include "components/btl/tcp/btl_tcp.h"
#include "components/btl/tcp/btl_tcp_endpoint.h"
#include "components/btl/tcp/btl_tcp_hdr.h"
#include "components/btl/tcp/btl_tcp_if.h"
#include "frameworks/btl/base/base.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

namespace tessera::ompi::btl_tcp {

Params params;
Component *component = nullptr;

namespace {

/* Only orders modules of equal exclusivity. */
constexpr int kPriority = 10;
/* Frame lengths are 32-bit, and a receive buffer holds two frames: keep both far from overflow. */
const std::string kMaxSendSizeText = std::to_string(kMaxAnnouncedFrame);
/* A card has room for this many links. */
const std::string kMaxLinksText = std::to_string(kMaxLinks);

mca_btl_base_module_t *modules[kMaxLinks];

int register_params(const mca_base_component_t *)
{
    const mca_btl_base_common_specs_t common = {
        .eager_limit = {"64k", "64", nullptr, nullptr, MCA_INFO_LVL_4},
        .max_send_size = {"128k", "1k", kMaxSendSizeText.c_str(), nullptr, MCA_INFO_LVL_4},
        .latency = {"8000", nullptr, nullptr, nullptr, MCA_INFO_LVL_4},
        .bandwidth = {"2000", "1", nullptr, nullptr, MCA_INFO_LVL_4},
    };
    if (const int rc = mca_btl_base_register_common("tcp", &common, &params.common); rc != TESSERA_SUCCESS) {
        return rc;
    }
    const mca_var_row_t rows[] = {
        {"links", MCA_VAR_TYPE_INT, "1", "1", kMaxLinksText.c_str(),
         "Connections per peer, each its own module (large messages are striped over them)", MCA_INFO_LVL_4, nullptr,
         &params.links},
        {"if_include", MCA_VAR_TYPE_STRING, nullptr, nullptr, nullptr,
         "Interfaces to use: names or a.b.c.d/n subnets, comma-separated; not together with btl_tcp_if_exclude",
         MCA_INFO_LVL_4, nullptr, &params.if_include},
        {"if_exclude", MCA_VAR_TYPE_STRING, nullptr, nullptr, nullptr,
         "Interfaces not to use: names or a.b.c.d/n subnets, comma-separated. Unset: any interface, loopback only "
         "when nothing else is up",
         MCA_INFO_LVL_4, nullptr, &params.if_exclude},
        {"queue_limit", MCA_VAR_TYPE_SIZE, "8M", "1", nullptr, "Bytes queued per connection before send() asks to be retried",
         MCA_INFO_LVL_4, nullptr, &params.queue_limit},
        {"copy_limit", MCA_VAR_TYPE_SIZE, "256", nullptr, nullptr,
         "A queued fragment's segments up to this size are copied; larger ones are written from the caller's "
         "memory until its done callback is called (sends without one are copied whole)",
         MCA_INFO_LVL_4, nullptr, &params.copy_limit},
        {"sndbuf", MCA_VAR_TYPE_SIZE, "0", nullptr, "1G", "SO_SNDBUF of every connection; 0: the kernel's default, which grows by itself",
         MCA_INFO_LVL_4, nullptr, &params.sndbuf},
        {"rcvbuf", MCA_VAR_TYPE_SIZE, "0", nullptr, "1G", "SO_RCVBUF of every connection; 0: the kernel's default, which grows by itself",
         MCA_INFO_LVL_4, nullptr, &params.rcvbuf},
        {"handshake_timeout", MCA_VAR_TYPE_DOUBLE, "10", nullptr, nullptr,
         "Seconds an accepted connection has to present its hello", MCA_INFO_LVL_4, nullptr, &params.handshake_timeout},
        {"handshake_limit", MCA_VAR_TYPE_INT, "128", "1", nullptr,
         "Accepted connections that may wait for their hello per link; beyond, the oldest is refused", MCA_INFO_LVL_4,
         nullptr, &params.handshake_limit},
        {"handshake_retries", MCA_VAR_TYPE_INT, "5", "0", nullptr,
         "Times a connection the peer closed before answering the hello is opened again (the peer closes one whose "
         "hello did not come within its btl_tcp_handshake_timeout, as when this process was out of MPI)",
         MCA_INFO_LVL_4, nullptr, &params.handshake_retries},
        {"close_linger", MCA_VAR_TYPE_DOUBLE, "1", "0", nullptr,
         "Seconds del_procs keeps writing what is still queued to a peer before closing", MCA_INFO_LVL_4, nullptr,
         &params.close_linger},
        {"direct_reads", MCA_VAR_TYPE_INT, "1", "0", "64",
         "While a module has at most this many connections, progress reads them directly instead of asking epoll "
         "first (0: always epoll)",
         MCA_INFO_LVL_4, nullptr, &params.direct_reads},
        {"poll_every", MCA_VAR_TYPE_INT, "64", "1", nullptr,
         "While reading directly, progress polls epoll (new connections, handshakes) every this many passes",
         MCA_INFO_LVL_4, nullptr, &params.poll_every},
    };
    return mca_var_register_rows("btl", "tcp", rows, std::size(rows), MCA_VAR_SCOPE_LOCAL);
}

bool set(const char *value)
{
    return value != nullptr && *value != '\0';
}

/* What the rows' ranges cannot say; "" when all is sane. */
std::string check_params()
{
    const auto bad = [](const char *name, const std::string &value, const std::string &rule) {
        return tessera::mca::bad_value(std::string("btl_tcp_") + name, value, rule);
    };
    if (set(params.if_include) && set(params.if_exclude)) {
        return std::string("btl_tcp_if_include (\"") + params.if_include + "\") and btl_tcp_if_exclude (\"" +
               params.if_exclude + "\") are both set; set one of them";
    }
    IfList list;
    if (std::string e = parse_if_list("btl_tcp_if_include", params.if_include, &list); !e.empty()) {
        return e;
    }
    if (std::string e = parse_if_list("btl_tcp_if_exclude", params.if_exclude, &list); !e.empty()) {
        return e;
    }
    if (params.copy_limit > params.common.max_send_size) {
        return bad("copy_limit", std::to_string(params.copy_limit),
                   "exceeds btl_tcp_max_send_size (" + std::to_string(params.common.max_send_size) + ")");
    }
    if (!(params.handshake_timeout > 0)) {
        return bad("handshake_timeout", std::to_string(params.handshake_timeout), "must be positive (seconds)");
    }
    return "";
}

int open_component()
{
    if (mca_btl_base_check_common("tcp", &params.common) != TESSERA_SUCCESS) {
        return TESSERA_ERR_BAD_PARAM;
    }
    if (const std::string problem = check_params(); !problem.empty()) {
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
    if (fd >= 0) {
        /* Accepted connections inherit the buffer sizes. */
        set_socket_options(fd);
    }
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0) {
        *error = std::strerror(errno);
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *port = sa.sin_port;
    return fd;
}

/* The address this rank listens on, or 0 after saying why. */
in_addr_t pick_address(const tessera_job_info_t *job)
{
    IfList include, exclude;
    parse_if_list("btl_tcp_if_include", params.if_include, &include);
    parse_if_list("btl_tcp_if_exclude", params.if_exclude, &exclude);
    std::string error;
    const std::vector<Interface> interfaces = system_interfaces(&error);
    const in_addr_t addr = error.empty() ? choose_address(job->host, include, exclude, interfaces, &error) : 0;
    if (addr == 0) {
        tessera::mca::report(tessera::mca::Severity::Error, "btl tcp: " + error);
    }
    return addr;
}

mca_btl_base_module_t **init(int *num_modules, bool, bool enable_mpi_threads)
{
    *num_modules = 0;
    const tessera_job_info_t *job = tessera_job_info();
    if (job == nullptr || job->size < 2 || component != nullptr) {
        return nullptr; /* nobody to reach */
    }
    const in_addr_t addr = pick_address(job);
    if (addr == 0) {
        return nullptr;
    }
    Card card{};
    card.version = kCardVersion;
    card.links = static_cast<uint8_t>(params.links);
    int fds[kMaxLinks];
    for (int i = 0; i < params.links; ++i) {
        std::string error;
        fds[i] = listen_on(addr, &card.link[i].port, &error);
        card.link[i].addr = addr;
        if (fds[i] < 0) {
            tessera::mca::report(tessera::mca::Severity::Error,
                                 "btl tcp: cannot listen on " + address_text(addr) + ": " + error);
            for (int k = 0; k < i; ++k) {
                close(fds[k]);
            }
            return nullptr;
        }
    }
    const int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0 || tessera_modex_put("btl.tcp", &card, card_size(params.links)) != TESSERA_SUCCESS) {
        tessera::mca::report(tessera::mca::Severity::Error, epfd < 0 ? "btl tcp: epoll_create1 failed"
                                                                     : "btl tcp: cannot publish the card btl.tcp");
        for (int i = 0; i < params.links; ++i) {
            close(fds[i]);
        }
        if (epfd >= 0) {
            close(epfd);
        }
        return nullptr;
    }
    /* See btl_tcp.h: created here, released by close_component, never by a static destructor. */
    component = new Component();
    component->epfd = epfd;
    component->threaded = enable_mpi_threads;
    component->jobid = job->jobid;
    component->rank = job->rank;
    component->size = job->size;
    component->key = job->job_key != nullptr ? job->job_key : "";
    component->addr = addr;
    for (int i = 0; i < params.links; ++i) {
        modules[i] = module_create(i, fds[i]);
    }
    *num_modules = params.links;
    return modules;
}

} // namespace

} // namespace tessera::ompi::btl_tcp

using namespace tessera::ompi::btl_tcp;

mca_btl_base_component_t mca_btl_tcp_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "tcp", 1, 1, 0),
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
