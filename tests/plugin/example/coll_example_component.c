/*
 * An example third-party coll component, in plain C against the installed SDK: MPI_Barrier as a
 * dissemination barrier and MPI_Bcast as a binomial tree, on intracommunicators, through point-to-point
 * calls; MPI_Ibarrier and MPI_Ibcast the same as schedules. Every other collective
 * is left NULL, so the framework serves it from the next component (basic, tuned, sm). It counts its
 * calls and writes them to coll_example_counts_file.<world rank> when it closes, so that tests can see
 * that its functions were the ones called.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "frameworks/coll/coll.h"
#include "frameworks/coll/coll_services.h"
#include "mca/report.h"
#include "mca/var.h"
#include "ompi/proc/modex.h"

extern mca_coll_base_component_t mca_coll_example_component;

static int priority;
static const char *counts_file;
static atomic_ullong barriers, bcasts, ibarriers, ibcasts;
static unsigned world_rank;

static int example_register(const mca_base_component_t *self)
{
    (void)self;
    const mca_var_row_t rows[] = {
        {"priority", MCA_VAR_TYPE_INT, "40", NULL, NULL,
         "Priority of the example barrier and bcast (above tuned's 30: they serve every intracommunicator)",
         MCA_INFO_LVL_6, NULL, &priority},
        {"counts_file", MCA_VAR_TYPE_STRING, "", NULL, NULL,
         "File prefix the component writes its call counts to when it closes (<prefix>.<world rank>); "
         "empty: none",
         MCA_INFO_LVL_6, NULL, &counts_file},
    };
    const int rc = mca_var_register_rows("coll", "example", rows, sizeof rows / sizeof rows[0], MCA_VAR_SCOPE_LOCAL);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

static int example_open(void)
{
    const int v = tessera_coll_services_version();
    if (v / 1000 != TESSERA_COLL_SERVICES_VERSION_MAJOR || v % 1000 < TESSERA_COLL_SERVICES_VERSION_MINOR) {
        char why[128];
        snprintf(why, sizeof why, "coll example: needs coll services %d.%d, the library has %d.%d",
                 TESSERA_COLL_SERVICES_VERSION_MAJOR, TESSERA_COLL_SERVICES_VERSION_MINOR, v / 1000, v % 1000);
        tessera_report(TESSERA_REPORT_WARNING, why);
        return TESSERA_ERR_NOT_AVAILABLE;
    }
    return TESSERA_SUCCESS;
}

static int example_close(void)
{
    if (counts_file == NULL || counts_file[0] == '\0') {
        return TESSERA_SUCCESS;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s.%u", counts_file, world_rank);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        tessera_report(TESSERA_REPORT_WARNING, "coll example: cannot write coll_example_counts_file");
        return TESSERA_SUCCESS;
    }
    fprintf(out, "barrier %llu\nbcast %llu\nibarrier %llu\nibcast %llu\n", (unsigned long long)atomic_load(&barriers),
            (unsigned long long)atomic_load(&bcasts), (unsigned long long)atomic_load(&ibarriers),
            (unsigned long long)atomic_load(&ibcasts));
    fclose(out);
    return TESSERA_SUCCESS;
}

/* Round k: send to rank + 2^k, receive from rank - 2^k; after ceil(log2 size) rounds every rank has
 * heard, through some chain, from every other. */
static int example_barrier(struct tessera_comm *comm, mca_coll_base_module_t *module)
{
    (void)module;
    atomic_fetch_add(&barriers, 1);
    const int tag = tessera_coll_next_tag(comm);
    const int rank = tessera_coll_comm_rank(comm), size = tessera_coll_comm_size(comm);
    const mca_coll_dt_t bytes = tessera_coll_type_bytes();
    for (int dist = 1; dist < size; dist *= 2) {
        tessera_coll_p2p_t *r[2] = {NULL, NULL};
        int rc = tessera_coll_irecv(NULL, 0, bytes, (rank - dist + size) % size, tag, comm, &r[0]);
        if (rc == MPI_SUCCESS) {
            rc = tessera_coll_isend(NULL, 0, bytes, (rank + dist) % size, tag, comm, &r[1]);
        }
        const int wrc = tessera_coll_waitall(2, r);
        if (rc != MPI_SUCCESS || wrc != MPI_SUCCESS) {
            return rc != MPI_SUCCESS ? rc : wrc;
        }
    }
    return MPI_SUCCESS;
}

/* Binomial tree rooted at `root`, in ranks relative to it: receive from the parent (clear the lowest
 * set bit), then send to the children (add each lower power of two). */
static int example_bcast(void *buf, size_t count, mca_coll_dt_t dt, int root, struct tessera_comm *comm,
                         mca_coll_base_module_t *module)
{
    (void)module;
    atomic_fetch_add(&bcasts, 1);
    const int tag = tessera_coll_next_tag(comm);
    const int rank = tessera_coll_comm_rank(comm), size = tessera_coll_comm_size(comm);
    const int vrank = (rank - root + size) % size;
    int mask = 1;
    while (mask < size) {
        if (vrank & mask) {
            const int rc = tessera_coll_recv(buf, count, dt, (vrank - mask + root) % size, tag, comm);
            if (rc != MPI_SUCCESS) {
                return rc;
            }
            break;
        }
        mask <<= 1;
    }
    tessera_coll_p2p_t *sends[32];
    size_t n = 0;
    int rc = MPI_SUCCESS;
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        if (vrank + mask < size) {
            rc = tessera_coll_isend(buf, count, dt, (vrank + mask + root) % size, tag, comm, &sends[n++]);
        }
    }
    const int wrc = tessera_coll_waitall(n, sends);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* The non-blocking forms: the same algorithms as schedules, which the library's engine progresses. */
static int example_ibarrier(struct tessera_request **request, struct tessera_comm *comm,
                            mca_coll_base_module_t *module)
{
    (void)module;
    atomic_fetch_add(&ibarriers, 1);
    tessera_coll_schedule_t *s = tessera_coll_schedule_create(comm);
    if (s == NULL) {
        return MPI_ERR_NO_MEM;
    }
    const int rank = tessera_coll_comm_rank(comm), size = tessera_coll_comm_size(comm);
    const mca_coll_dt_t bytes = tessera_coll_type_bytes();
    for (int dist = 1; dist < size; dist *= 2) {
        tessera_coll_schedule_recv(s, NULL, 0, bytes, (rank - dist + size) % size);
        tessera_coll_schedule_send(s, NULL, 0, bytes, (rank + dist) % size);
        tessera_coll_schedule_round(s);
    }
    return tessera_coll_schedule_start(s, request);
}

static int example_ibcast(void *buf, size_t count, mca_coll_dt_t dt, int root, struct tessera_request **request,
                          struct tessera_comm *comm, mca_coll_base_module_t *module)
{
    (void)module;
    atomic_fetch_add(&ibcasts, 1);
    tessera_coll_schedule_t *s = tessera_coll_schedule_create(comm);
    if (s == NULL) {
        return MPI_ERR_NO_MEM;
    }
    const int rank = tessera_coll_comm_rank(comm), size = tessera_coll_comm_size(comm);
    const int vrank = (rank - root + size) % size;
    int mask = 1;
    while (mask < size) {
        if (vrank & mask) {
            tessera_coll_schedule_recv(s, buf, count, dt, (vrank - mask + root) % size);
            tessera_coll_schedule_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            tessera_coll_schedule_send(s, buf, count, dt, (vrank + mask + root) % size);
        }
    }
    return tessera_coll_schedule_start(s, request);
}

static void example_release(mca_coll_base_module_t *module, struct tessera_comm *comm)
{
    (void)comm;
    free(module);
}

static int example_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void)enable_progress_threads, (void)enable_mpi_threads;
    const tessera_job_info_t *job = tessera_job_info();
    world_rank = job != NULL ? job->rank : 0;
    return TESSERA_SUCCESS;
}

static mca_coll_base_module_t *example_comm_query(struct tessera_comm *comm, int *out_priority)
{
    if (tessera_coll_comm_is_inter(comm)) {
        return NULL; /* intercommunicators stay with the components that implement their forms */
    }
    mca_coll_base_module_t *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return NULL;
    }
    m->coll_component = &mca_coll_example_component;
    m->coll_module_release = example_release;
    m->coll_barrier = example_barrier;
    m->coll_bcast = example_bcast;
    m->coll_ibarrier = example_ibarrier;
    m->coll_ibcast = example_ibcast;
    *out_priority = priority;
    return m;
}

mca_coll_base_component_t mca_coll_example_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_coll_base_component_t, "coll", MCA_COLL_BASE_VERSION, "example",
                                       1, 0, 0),
             .mca_register_params = example_register,
             .mca_open_component = example_open,
             .mca_close_component = example_close},
    .coll_init_query = example_init_query,
    .coll_comm_query = example_comm_query,
};
