/*
 * MPI_T events: five messages that arrive before their receives are five pml_unexpected_message events
 * at the receiver, delivered in order (tags 1..5, timestamps not decreasing, from source 0, with their
 * elements readable); a registration whose only callback the context may not call counts the events
 * dropped and its dropped handler hears the count before its next delivery; a derived datatype compiled
 * by the JIT (dte_jit_compile=sync) is a dte_jit_compiled event. Two ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                                                          \
    do {                                                                                                   \
        fprintf(stderr, "rank %d: FAILED %s:%d: ", rank, __FILE__, __LINE__);                              \
        fprintf(stderr, __VA_ARGS__);                                                                      \
        fprintf(stderr, "\n");                                                                             \
        MPI_Abort(MPI_COMM_WORLD, 1);                                                                      \
    } while (0)
#define EXPECT_RC(call, want)                                                                              \
    do {                                                                                                   \
        int rc_ = (call);                                                                                  \
        if (rc_ != (want)) {                                                                               \
            FAIL("%s returned %d, expected %d (%s)", #call, rc_, (int)(want), #want);                      \
        }                                                                                                  \
    } while (0)
#define OK(call) EXPECT_RC(call, MPI_SUCCESS)

static int rank = -1;

struct seen {
    int n;
    int tag[16];
    int source_rank[16];
    int context[16];
    unsigned long bytes[16];
    MPI_Count stamp[16];
    int source_index[16];
    int bad_rc;
};
static struct seen got;
static int dropped_calls;
static MPI_Count dropped_count;
static int b_delivered, b_dropped_before;
static int freed;
static int jit_events;
static double jit_seconds;

static void on_unexpected(MPI_T_event_instance e, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg;
    (void)safety;
    struct seen *s = user;
    if (s->n >= 16) {
        return;
    }
    int tag = -1;
    s->bad_rc |= MPI_T_event_read(e, 2, &tag);
    if (tag < 1 || tag > 7) {
        return; /* a collective's message (MPI_Comm_dup, MPI_Barrier) */
    }
    const int i = s->n++;
    s->bad_rc |= MPI_T_event_read(e, 0, &s->context[i]);
    s->bad_rc |= MPI_T_event_read(e, 1, &s->source_rank[i]);
    s->bad_rc |= MPI_T_event_read(e, 2, &s->tag[i]);
    s->bad_rc |= MPI_T_event_read(e, 3, &s->bytes[i]);
    s->bad_rc |= MPI_T_event_get_timestamp(e, &s->stamp[i]);
    s->bad_rc |= MPI_T_event_get_source(e, &s->source_index[i]);
    if (MPI_T_event_read(e, 4, &s->tag[i]) != MPI_T_ERR_INVALID_INDEX) {
        s->bad_rc |= 1;
    }
    char copy[64];
    s->bad_rc |= MPI_T_event_copy(e, copy);
}

static void never_called(MPI_T_event_instance e, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)e, (void)reg, (void)safety, (void)user;
    got.bad_rc |= 2; /* registered for MPI_T_CB_REQUIRE_NONE: the engine may not call it */
}

static void b_callback(MPI_T_event_instance e, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)safety, (void)user;
    int tag = -1;
    MPI_T_event_read(e, 2, &tag);
    if (tag == 6) {
        b_dropped_before = dropped_calls;
        ++b_delivered;
    }
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source, MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)source, (void)safety, (void)user;
    ++dropped_calls;
    dropped_count += count;
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)safety;
    freed += *(int *)user;
}

static void on_jit(MPI_T_event_instance e, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)safety, (void)user;
    ++jit_events;
    MPI_T_event_read(e, 0, &jit_seconds);
}

static int event_index(const char *name)
{
    int index = -1;
    OK(MPI_T_event_get_index(name, &index));
    return index;
}

static void send_unexpected(MPI_Comm comm, int first_tag, int last_tag)
{
    int value = 0;
    /* Rank 1 says when it is ready: the messages cannot arrive during an earlier call of rank 1. */
    if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 1, 99, comm, MPI_STATUS_IGNORE);
        for (int tag = first_tag; tag <= last_tag; ++tag) {
            MPI_Send(&value, 1, MPI_INT, 1, tag, comm);
        }
    } else {
        MPI_Send(&value, 1, MPI_INT, 0, 99, comm);
        MPI_Probe(0, last_tag, comm, MPI_STATUS_IGNORE);
        for (int tag = first_tag; tag <= last_tag; ++tag) {
            MPI_Recv(&value, 1, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE);
        }
    }
}

int main(int argc, char **argv)
{
    int provided, num = 0;
    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    OK(MPI_T_event_get_num(&num));
    if (num < 2) {
        FAIL("%d events", num);
    }
    const int unexpected = event_index("pml_unexpected_message");
    int elements = 0;
    OK(MPI_T_event_get_info(unexpected, NULL, NULL, NULL, NULL, NULL, &elements, NULL, NULL, NULL, NULL, NULL));
    MPI_Datatype types[8];
    MPI_Aint displs[8];
    OK(MPI_T_event_get_info(unexpected, NULL, NULL, NULL, types, displs, &elements, NULL, NULL, NULL, NULL, NULL));
    if (elements != 4 || types[2] != MPI_INT || types[3] != MPI_UNSIGNED_LONG) {
        FAIL("pml_unexpected_message: %d elements", elements);
    }
    EXPECT_RC(MPI_T_event_get_index("no_such_event", &num), MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_event_handle_alloc(num + 100, NULL, MPI_INFO_NULL, NULL), MPI_T_ERR_INVALID);

    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Barrier(MPI_COMM_WORLD);
    /* From here to the five messages, rank 1 gets no other message: b drops exactly five. */
    MPI_T_event_registration a, b;
    OK(MPI_T_event_handle_alloc(unexpected, NULL, MPI_INFO_NULL, &a));
    OK(MPI_T_event_register_callback(a, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, &got, on_unexpected));
    OK(MPI_T_event_handle_alloc(unexpected, NULL, MPI_INFO_NULL, &b));
    OK(MPI_T_event_register_callback(b, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, never_called));
    OK(MPI_T_event_set_dropped_handler(b, on_dropped));
    MPI_Info info;
    OK(MPI_T_event_handle_get_info(a, &info));
    MPI_Info_free(&info);
    OK(MPI_T_event_callback_get_info(a, MPI_T_CB_REQUIRE_THREAD_SAFE, &info));
    MPI_Info_free(&info);
    OK(MPI_T_event_handle_set_info(a, MPI_INFO_NULL));

    send_unexpected(comm, 1, 5);
    if (rank == 1) {
        if (got.n != 5 || got.bad_rc != 0) {
            FAIL("%d unexpected-message events (expected 5), reads returned %#x", got.n, got.bad_rc);
        }
        for (int i = 0; i < 5; ++i) {
            if (got.tag[i] != i + 1 || got.source_rank[i] != 0 || got.bytes[i] != sizeof(int) ||
                got.source_index[i] != 0 || got.context[i] != got.context[0] || (i > 0 && got.stamp[i] < got.stamp[i - 1])) {
                FAIL("event %d: tag %d from %d, %lu bytes, source %d, timestamp %lld after %lld", i, got.tag[i],
                     got.source_rank[i], got.bytes[i], got.source_index[i], (long long)got.stamp[i],
                     (long long)(i > 0 ? got.stamp[i - 1] : 0));
            }
        }
        MPI_Count now = 0;
        OK(MPI_T_source_get_timestamp(0, &now));
        if (now < got.stamp[4]) {
            FAIL("the source's clock (%lld) is behind the last event's stamp (%lld)", (long long)now, (long long)got.stamp[4]);
        }
    }
    /* b had no callback it could be given: 5 dropped, said before its next delivery. */
    OK(MPI_T_event_register_callback(b, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, NULL, b_callback));
    MPI_Barrier(MPI_COMM_WORLD);
    send_unexpected(comm, 6, 6);
    if (rank == 1 && (b_delivered != 1 || dropped_calls != 1 || dropped_count != 5 || b_dropped_before != 1)) {
        FAIL("registration b: %d delivered, dropped handler called %d times with %lld in all (expected 1, 1, 5)",
             b_delivered, dropped_calls, (long long)dropped_count);
    }
    int one = 1;
    OK(MPI_T_event_handle_free(a, &one, on_free));
    OK(MPI_T_event_handle_free(b, &one, on_free));
    EXPECT_RC(MPI_T_event_handle_free(b, &one, on_free), MPI_T_ERR_INVALID_HANDLE);
    if (freed != 2) {
        FAIL("free callbacks: %d", freed);
    }
    /* Freed: nothing more is delivered. */
    send_unexpected(comm, 7, 7);
    if (rank == 1 && got.n != 6) { /* 1..5, and 6 before the registration was freed */
        FAIL("%d events after the registration was freed (expected 6)", got.n);
    }

    /* The JIT (when built): committing a derived type with dte_jit_compile=sync compiles it. */
    int jit_cvar = -1;
    if (MPI_T_cvar_get_index("dte_jit_compile", &jit_cvar) == MPI_SUCCESS) {
        MPI_T_event_registration j;
        OK(MPI_T_event_handle_alloc(event_index("dte_jit_compiled"), NULL, MPI_INFO_NULL, &j));
        OK(MPI_T_event_register_callback(j, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, NULL, on_jit));
        MPI_Datatype vec;
        MPI_Type_vector(16, 3, 7, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        if (jit_events < 1 || !(jit_seconds > 0.0)) {
            FAIL("dte_jit_compiled: %d events, %g s", jit_events, jit_seconds);
        }
        MPI_Type_free(&vec);
        OK(MPI_T_event_handle_free(j, NULL, NULL));
    }
    MPI_Comm_free(&comm);
    OK(MPI_T_finalize());
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("mpit_events: unexpected messages and JIT compilations delivered in order\n");
    }
    MPI_Finalize();
    return 0;
}
