/*
 * An example third-party trace component, written in plain C against the installed SDK: it counts the
 * point-to-point events of a run and writes the totals to the file named by trace_example_counts_file
 * (stderr when empty) at the end of the run.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "frameworks/trace/trace.h"
#include "mca/var.h"

extern mca_trace_base_component_t mca_trace_example_component;

static const char *counts_file = "";

typedef struct example_state {
    atomic_ullong sends;
    atomic_ullong recvs;
    atomic_ullong bytes_sent;
    int rank;
} example_state_t;

static int example_register(const mca_base_component_t *self)
{
    (void)self;
    int rc = mca_var_register("trace", "example", "counts_file",
                              "File the example component writes its event counts to (empty: stderr)",
                              MCA_VAR_TYPE_STRING, NULL, MCA_INFO_LVL_4, MCA_VAR_SCOPE_LOCAL, MCA_VAR_FLAG_NONE,
                              &counts_file);
    return rc < 0 ? rc : TESSERA_SUCCESS;
}

static int example_query(void **module, int *priority)
{
    *module = NULL; /* the module is made by trace_init, once the job is known */
    *priority = 5;
    return TESSERA_SUCCESS;
}

static void on_send(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes)
{
    (void)comm, (void)peer, (void)tag;
    example_state_t *s = m->module_state;
    atomic_fetch_add(&s->sends, 1);
    atomic_fetch_add(&s->bytes_sent, bytes);
}

static void on_isend(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes, uint64_t req)
{
    (void)req;
    on_send(m, comm, peer, tag, bytes);
}

static void on_recv(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes)
{
    (void)comm, (void)peer, (void)tag, (void)bytes;
    example_state_t *s = m->module_state;
    atomic_fetch_add(&s->recvs, 1);
}

static void on_irecv(mca_trace_base_module_t *m, uint64_t comm, int peer, int tag, uint64_t bytes, uint64_t req)
{
    (void)req;
    on_recv(m, comm, peer, tag, bytes);
}

static int example_finalize(mca_trace_base_module_t *m)
{
    example_state_t *s = m->module_state;
    FILE *out = stderr;
    if (counts_file != NULL && counts_file[0] != '\0') {
        out = fopen(counts_file, "w");
        if (out == NULL) {
            perror(counts_file);
            out = stderr;
        }
    }
    fprintf(out, "rank %d: %llu sends (%llu bytes), %llu receives\n", s->rank,
            (unsigned long long)atomic_load(&s->sends), (unsigned long long)atomic_load(&s->bytes_sent),
            (unsigned long long)atomic_load(&s->recvs));
    if (out != stderr) {
        fclose(out);
    }
    free(s);
    free(m);
    return TESSERA_SUCCESS;
}

static mca_trace_base_module_t *example_init(const mca_trace_base_job_info_t *job)
{
    mca_trace_base_module_t *m = calloc(1, sizeof(*m));
    example_state_t *s = calloc(1, sizeof(*s));
    if (m == NULL || s == NULL) {
        free(m);
        free(s);
        return NULL;
    }
    s->rank = job != NULL ? job->world_rank : 0;
    m->trace_component = &mca_trace_example_component;
    m->hooks.send = on_send;
    m->hooks.isend = on_isend;
    m->hooks.recv = on_recv;
    m->hooks.irecv = on_irecv;
    m->trace_finalize = example_finalize;
    m->module_state = s;
    return m;
}

mca_trace_base_component_t mca_trace_example_component = {
    .base = {MCA_BASE_COMPONENT_HEADER(mca_trace_base_component_t, "trace", MCA_TRACE_BASE_VERSION, "example",
                                       1, 0, 0),
             .mca_register_params = example_register,
             .mca_query_component = example_query},
    .trace_init = example_init,
};
