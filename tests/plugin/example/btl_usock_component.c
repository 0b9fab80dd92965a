/*
 * An example third-party transport, in plain C against the installed SDK: fragments travel as Unix
 * datagrams between the ranks of one host. Each rank binds a socket in the abstract namespace (nothing
 * is left in the file system), publishes its name with the modex, and reads its peers' names in
 * add_procs. A datagram carries one fragment whole and in order, so a small header (sender's rank, tag)
 * is all the framing there is. The counts of what it carried go to btl_usock_counts_file, so that
 * tests can see the traffic went through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "frameworks/btl/btl.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

extern mca_btl_base_component_t mca_btl_usock_component;

#define USOCK_MODEX_KEY "btl.usock"
/* A send is cut into at most this many segments plus the header by the pml. */
#define USOCK_MAX_IOV 16

static struct {
    unsigned exclusivity;
    size_t max_send_size;
    unsigned bandwidth;
    const char *counts_file;
} params = {MCA_BTL_EXCLUSIVITY_LOW, 32768, 1000, ""};

/* What a peer needs to reach this rank: the host it runs on and the socket's abstract name. */
typedef struct usock_card {
    uint32_t node_id;
    uint32_t name_len;
    char name[sizeof(((struct sockaddr_un *)0)->sun_path)];
} usock_card_t;

typedef struct usock_hdr {
    uint32_t rank; /* the sender, in MPI_COMM_WORLD */
    uint8_t tag;
    uint8_t pad[3];
} usock_hdr_t;

struct mca_btl_base_endpoint {
    struct sockaddr_un addr;
    socklen_t addr_len;
    tessera_proc_t *proc;
};

typedef struct usock_state {
    int fd;
    uint32_t rank;
    uint32_t size;
    mca_btl_base_endpoint_t **by_rank; /* the endpoint of each world rank, to tell receivers the sender */
    pthread_mutex_t recv_lock;         /* progress from several threads shares the receive buffer */
    char *recv_buf;
    atomic_ullong sent_frags, sent_bytes, recv_frags, recv_bytes;
} usock_state_t;

static mca_btl_base_module_t usock_module;
static mca_btl_base_module_t *usock_modules[1] = {&usock_module};
static usock_state_t usock;

static int usock_register(const mca_base_component_t *self)
{
    (void)self;
    const mca_var_row_t rows[] = {
        {"exclusivity", MCA_VAR_TYPE_UNSIGNED, "0", "0", "65536",
         "Exclusivity of the usock module (1024: as shm, so that large messages stripe over both)",
         MCA_INFO_LVL_5, NULL, &params.exclusivity},
        {"max_send_size", MCA_VAR_TYPE_SIZE, "32k", "1k", "128k",
         "Largest fragment, header included: one datagram", MCA_INFO_LVL_5, NULL, &params.max_send_size},
        {"bandwidth", MCA_VAR_TYPE_UNSIGNED, "1000", "1", NULL,
         "Bandwidth estimate in MB/s (weights striping)", MCA_INFO_LVL_5, NULL, &params.bandwidth},
        {"counts_file", MCA_VAR_TYPE_STRING, "", NULL, NULL,
         "File prefix the module writes its traffic counts to at finalize, one file per rank "
         "(<prefix>.<rank>); empty: none",
         MCA_INFO_LVL_5, NULL, &params.counts_file},
    };
    const int rc = mca_var_register_rows("btl", "usock", rows, sizeof rows / sizeof rows[0], MCA_VAR_SCOPE_LOCAL);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

static int usock_query(void **module, int *priority)
{
    *module = NULL;
    *priority = 10;
    if (params.exclusivity != MCA_BTL_EXCLUSIVITY_LOW && params.exclusivity != MCA_BTL_EXCLUSIVITY_DEFAULT &&
        params.exclusivity != MCA_BTL_EXCLUSIVITY_HIGH) {
        char value[32];
        snprintf(value, sizeof value, "%u", params.exclusivity);
        tessera_report_bad_value(TESSERA_REPORT_ERROR, "btl_usock_exclusivity", value, "must be 0, 1024 or 65536");
        return TESSERA_ERR_BAD_PARAM;
    }
    return TESSERA_SUCCESS;
}

static int usock_add_procs(mca_btl_base_module_t *btl, size_t nprocs, tessera_proc_t *const *procs,
                           mca_btl_base_endpoint_t **endpoints)
{
    (void)btl;
    const tessera_job_info_t *job = tessera_job_info();
    for (size_t i = 0; i < nprocs; ++i) {
        endpoints[i] = NULL;
        const uint32_t rank = procs[i]->proc_name.rank;
        if (procs[i]->proc_name.jobid != job->jobid || rank >= usock.size) {
            continue; /* another job's process: the card exchange knows only this job's */
        }
        if (usock.by_rank[rank] != NULL) {
            endpoints[i] = usock.by_rank[rank];
            continue;
        }
        const void *data = NULL;
        size_t len = 0;
        if (tessera_modex_get(rank, USOCK_MODEX_KEY, &data, &len) != TESSERA_SUCCESS ||
            len != sizeof(usock_card_t)) {
            continue; /* usock does not run there */
        }
        usock_card_t card;
        memcpy(&card, data, sizeof card);
        if (card.node_id != job->node_id || card.name_len == 0 || card.name_len > sizeof card.name) {
            continue; /* a Unix socket reaches this host only */
        }
        mca_btl_base_endpoint_t *ep = calloc(1, sizeof *ep);
        if (ep == NULL) {
            return TESSERA_ERR_OUT_OF_RESOURCE;
        }
        ep->addr.sun_family = AF_UNIX;
        memcpy(ep->addr.sun_path, card.name, card.name_len);
        ep->addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + card.name_len);
        ep->proc = procs[i];
        usock.by_rank[rank] = ep;
        endpoints[i] = ep;
    }
    return TESSERA_SUCCESS;
}

static int usock_del_procs(mca_btl_base_module_t *btl, size_t nprocs, tessera_proc_t *const *procs,
                           mca_btl_base_endpoint_t **endpoints)
{
    (void)btl;
    for (size_t i = 0; i < nprocs; ++i) {
        if (endpoints[i] == NULL) {
            continue;
        }
        const uint32_t rank = procs[i]->proc_name.rank;
        if (rank < usock.size && usock.by_rank[rank] == endpoints[i]) {
            usock.by_rank[rank] = NULL;
        }
        free(endpoints[i]);
    }
    return TESSERA_SUCCESS;
}

static int usock_send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint, mca_btl_base_tag_t tag,
                      const mca_btl_base_segment_t *segments, size_t segment_count,
                      mca_btl_base_send_done_fn_t done, void *done_data)
{
    (void)done, (void)done_data;
    if (endpoint == NULL || segment_count > USOCK_MAX_IOV) {
        return TESSERA_ERR_BAD_PARAM;
    }
    usock_hdr_t hdr = {.rank = usock.rank, .tag = tag};
    struct iovec iov[USOCK_MAX_IOV + 1];
    iov[0].iov_base = &hdr;
    iov[0].iov_len = sizeof hdr;
    size_t bytes = 0;
    for (size_t i = 0; i < segment_count; ++i) {
        iov[i + 1].iov_base = (void *)segments[i].seg_addr;
        iov[i + 1].iov_len = segments[i].seg_len;
        bytes += segments[i].seg_len;
    }
    if (bytes > btl->btl_max_send_size) {
        return TESSERA_ERR_BAD_PARAM;
    }
    struct msghdr msg = {.msg_name = &endpoint->addr, .msg_namelen = endpoint->addr_len, .msg_iov = iov,
                         .msg_iovlen = segment_count + 1};
    for (;;) {
        if (sendmsg(usock.fd, &msg, MSG_NOSIGNAL) >= 0) {
            break;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) {
            return TESSERA_ERR_OUT_OF_RESOURCE; /* the peer's queue is full: the pml retries after progress */
        }
        char why[160];
        snprintf(why, sizeof why, "btl usock: sendmsg to rank %u: %s", endpoint->proc->proc_name.rank,
                 strerror(errno));
        mca_btl_base_report_error(btl, endpoint->proc, TESSERA_ERR_UNREACH, why);
        return TESSERA_ERR_UNREACH;
    }
    atomic_fetch_add(&usock.sent_frags, 1);
    atomic_fetch_add(&usock.sent_bytes, bytes);
    return MCA_BTL_SEND_COMPLETE;
}

static int usock_progress(mca_btl_base_module_t *btl)
{
    if (pthread_mutex_trylock(&usock.recv_lock) != 0) {
        return 0; /* another thread drains the socket */
    }
    int events = 0;
    for (;;) {
        const ssize_t n = recv(usock.fd, usock.recv_buf, sizeof(usock_hdr_t) + btl->btl_max_send_size, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            break; /* EAGAIN: nothing more now */
        }
        if ((size_t)n < sizeof(usock_hdr_t)) {
            continue;
        }
        usock_hdr_t hdr;
        memcpy(&hdr, usock.recv_buf, sizeof hdr);
        mca_btl_base_endpoint_t *ep = hdr.rank < usock.size ? usock.by_rank[hdr.rank] : NULL;
        if (ep == NULL) {
            char why[96];
            snprintf(why, sizeof why, "btl usock: dropped a fragment from unknown rank %u", hdr.rank);
            tessera_report(TESSERA_REPORT_WARNING, why);
            continue;
        }
        const mca_btl_base_segment_t seg = {usock.recv_buf + sizeof hdr, (size_t)n - sizeof hdr};
        const mca_btl_base_recv_desc_t desc = {
            .endpoint = ep, .proc = ep->proc, .segments = &seg, .segment_count = 1, .tag = hdr.tag};
        atomic_fetch_add(&usock.recv_frags, 1);
        atomic_fetch_add(&usock.recv_bytes, seg.seg_len);
        mca_btl_base_deliver(btl, &desc);
        ++events;
    }
    pthread_mutex_unlock(&usock.recv_lock);
    return events;
}

static void write_counts(void)
{
    if (params.counts_file == NULL || params.counts_file[0] == '\0') {
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s.%u", params.counts_file, usock.rank);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        char why[4200];
        snprintf(why, sizeof why, "btl usock: cannot write btl_usock_counts_file %s: %s", path, strerror(errno));
        tessera_report(TESSERA_REPORT_WARNING, why);
        return;
    }
    fprintf(out, "sent_fragments %llu\nsent_bytes %llu\nreceived_fragments %llu\nreceived_bytes %llu\n",
            (unsigned long long)atomic_load(&usock.sent_frags), (unsigned long long)atomic_load(&usock.sent_bytes),
            (unsigned long long)atomic_load(&usock.recv_frags), (unsigned long long)atomic_load(&usock.recv_bytes));
    fclose(out);
}

static int usock_finalize(mca_btl_base_module_t *btl)
{
    (void)btl;
    write_counts();
    close(usock.fd);
    usock.fd = -1;
    free(usock.by_rank);
    free(usock.recv_buf);
    pthread_mutex_destroy(&usock.recv_lock);
    return TESSERA_SUCCESS;
}

static mca_btl_base_module_t **usock_init(int *num_modules, bool enable_progress_threads, bool enable_mpi_threads)
{
    (void)enable_progress_threads, (void)enable_mpi_threads;
    *num_modules = 0;
    const tessera_job_info_t *job = tessera_job_info();
    if (job == NULL) {
        return NULL;
    }
    memset(&usock, 0, sizeof usock);
    usock.rank = job->rank;
    usock.size = job->size;
    usock.fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (usock.fd < 0) {
        tessera_report(TESSERA_REPORT_ERROR, "btl usock: cannot create a Unix datagram socket");
        return NULL;
    }
    /* Room for a few fragments in flight per peer; the kernel caps it at net.core.wmem_max. */
    const int buf = 4 << 20;
    setsockopt(usock.fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
    setsockopt(usock.fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);

    usock_card_t card = {.node_id = job->node_id};
    /* Abstract namespace (leading NUL): unique per job, rank and process, and gone with the socket. */
    const int len = snprintf(card.name + 1, sizeof card.name - 1, "tessera-usock-%u-%u-%ld", job->jobid,
                             job->rank, (long)getpid());
    card.name_len = (uint32_t)len + 1;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, card.name, card.name_len);
    usock.by_rank = calloc(usock.size, sizeof *usock.by_rank);
    usock.recv_buf = malloc(sizeof(usock_hdr_t) + params.max_send_size);
    if (usock.by_rank == NULL || usock.recv_buf == NULL ||
        bind(usock.fd, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + card.name_len)) != 0 ||
        tessera_modex_put(USOCK_MODEX_KEY, &card, sizeof card) != TESSERA_SUCCESS) {
        tessera_report(TESSERA_REPORT_ERROR, "btl usock: cannot bind or publish the socket");
        close(usock.fd);
        free(usock.by_rank);
        free(usock.recv_buf);
        return NULL;
    }
    pthread_mutex_init(&usock.recv_lock, NULL);

    usock_module = (mca_btl_base_module_t){
        .btl_component = &mca_btl_usock_component,
        .btl_name = "usock",
        .btl_eager_limit = params.max_send_size,
        .btl_max_send_size = params.max_send_size,
        .btl_exclusivity = params.exclusivity,
        .btl_latency = 5000,
        .btl_bandwidth = params.bandwidth,
        .btl_flags = MCA_BTL_FLAG_SEND,
        .btl_add_procs = usock_add_procs,
        .btl_del_procs = usock_del_procs,
        .btl_send = usock_send,
        .btl_progress = usock_progress,
        .btl_finalize = usock_finalize,
    };
    *num_modules = 1;
    return usock_modules;
}

mca_btl_base_component_t mca_btl_usock_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_btl_base_component_t, "btl", MCA_BTL_BASE_VERSION, "usock", 1, 0, 0),
             .mca_register_params = usock_register,
             .mca_query_component = usock_query},
    .btl_init = usock_init,
};
