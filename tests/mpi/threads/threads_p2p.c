/* Point-to-point stress under MPI_THREAD_MULTIPLE. Each rank runs T sender threads, sender t using tag
 * t, each sending M messages to every rank (itself included) on each of three duplicates of
 * MPI_COMM_WORLD, in the four send modes (MPI_Send, MPI_Isend, MPI_Ssend, MPI_Issend, by turns) and at
 * sizes on both sides of the eager limits (small, about 16 KiB, 64 KiB, and optionally a few MiB).
 * Every message carries (source, thread, tag, sequence, communicator, size) and a pattern derived from
 * them. Receivers run in other threads of the destination:
 *   - specific: thread t receives tag t from each source by name (MPI_Irecv, then MPI_Waitall or an
 *     MPI_Waitany loop);
 *   - any source: thread t receives tag t with MPI_ANY_SOURCE (MPI_Recv and MPI_Irecv by turns);
 *   - any tag: one thread per source receives everything it sends with MPI_ANY_TAG.
 * Each receiver checks the status against the header, the size and the pattern, and that the sequence
 * numbers per (source, tag, communicator) arrive in order, without loss or duplicate; at the end every
 * expected message must have arrived and no message may be left over.
 *
 * usage: threads_p2p [T threads (default 4)] [M messages (default 200)] [large KiB (default 3072, 0: none)]
 */
#include "threads_check.h"

#include <stdint.h>

enum { kComms = 3, kSpecific = 0, kAnySource = 1, kAnyTag = 2, kMaxRanks = 64 };

typedef struct {
    int source, thread, tag, seq, comm, size;
} header;

static int T, M, large_bytes;
static MPI_Comm comms[kComms];

/* Bytes of message `seq` on communicator `c`: mostly small, some either side of the shm and tcp eager
 * limits (16 KiB with the header), some well into rendezvous, and every 64th on the specific
 * communicator `large_bytes` (a few MiB: striped over every module that reaches the peer). */
static int msg_size(int seq, int c)
{
    if (c == kSpecific && large_bytes > 0 && seq % 64 == 63) {
        return large_bytes;
    }
    switch (seq % 16) {
    case 3: case 11: return 65536 + 24;
    case 5: return 16000;
    case 13: return 16384 + 8;
    default: return (int)sizeof(header) + 8 + (seq % 7) * 24;
    }
}

static unsigned char pattern(const header *h, int i)
{
    return (unsigned char)(h->source * 31 + h->tag * 7 + h->seq * 13 + h->comm * 101 + i);
}

static unsigned char *make_message(int tag, int seq, int c)
{
    const int bytes = msg_size(seq, c);
    unsigned char *buf = malloc((size_t)bytes);
    CHECK(buf != NULL, "cannot allocate %d bytes", bytes);
    header h = {world_rank, tag, tag, seq, c, bytes};
    memcpy(buf, &h, sizeof h);
    for (int i = (int)sizeof h; i < bytes; ++i) {
        buf[i] = pattern(&h, i);
    }
    return buf;
}

/* Checks one received message against its status; returns its header. */
static header check_message(const unsigned char *buf, const MPI_Status *st, int c, const char *who)
{
    header h;
    int bytes = -1;
    MPI_Get_count(st, MPI_BYTE, &bytes);
    CHECK(bytes >= (int)sizeof h, "%s: a message of %d bytes on communicator %d (from %d, tag %d)", who, bytes, c,
          st->MPI_SOURCE, st->MPI_TAG);
    memcpy(&h, buf, sizeof h);
    CHECK(h.source == st->MPI_SOURCE && h.tag == st->MPI_TAG && h.thread == h.tag && h.comm == c,
          "%s: status (source %d, tag %d, communicator %d) but the header says (source %d, thread %d, tag %d, "
          "communicator %d)", who, st->MPI_SOURCE, st->MPI_TAG, c, h.source, h.thread, h.tag, h.comm);
    CHECK(h.seq >= 0 && h.seq < M && h.size == bytes && bytes == msg_size(h.seq, c),
          "%s: message %d from %d tag %d has %d bytes (header: %d; expected %d)", who, h.seq, h.source, h.tag, bytes,
          h.size, h.seq >= 0 && h.seq < M ? msg_size(h.seq, c) : -1);
    for (int i = (int)sizeof h; i < bytes; ++i) {
        CHECK(buf[i] == pattern(&h, i), "%s: message %d from %d tag %d communicator %d: byte %d of %d is %u, expected %u",
              who, h.seq, h.source, h.tag, c, i, bytes, buf[i], pattern(&h, i));
    }
    return h;
}

static void *sender(void *arg)
{
    const int t = (int)(long)arg;
    for (int seq = 0; seq < M; ++seq) {
        for (int c = 0; c < kComms; ++c) {
            for (int d = 0; d < world_size; ++d) {
                unsigned char *buf = make_message(t, seq, c);
                const int bytes = msg_size(seq, c);
                MPI_Request rq;
                switch ((seq + d + c) % 4) {
                case 0: MPI_Send(buf, bytes, MPI_BYTE, d, t, comms[c]); break;
                case 1: MPI_Isend(buf, bytes, MPI_BYTE, d, t, comms[c], &rq); MPI_Wait(&rq, MPI_STATUS_IGNORE); break;
                case 2: MPI_Ssend(buf, bytes, MPI_BYTE, d, t, comms[c]); break;
                default: MPI_Issend(buf, bytes, MPI_BYTE, d, t, comms[c], &rq); MPI_Wait(&rq, MPI_STATUS_IGNORE); break;
                }
                free(buf);
            }
        }
    }
    return NULL;
}

/* Thread t: tag t from every source by name, one sequence number at a time. */
static void *specific_receiver(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Request rq[kMaxRanks];
    MPI_Status st[kMaxRanks];
    unsigned char *bufs[kMaxRanks];
    for (int seq = 0; seq < M; ++seq) {
        const int bytes = msg_size(seq, kSpecific);
        for (int s = 0; s < world_size; ++s) {
            bufs[s] = malloc((size_t)bytes);
            MPI_Irecv(bufs[s], bytes, MPI_BYTE, s, t, comms[kSpecific], &rq[s]);
        }
        if (seq % 2 == 0) {
            MPI_Waitall(world_size, rq, st);
        } else {
            for (int done = 0; done < world_size; ++done) {
                int i = -1;
                MPI_Status one;
                MPI_Waitany(world_size, rq, &i, &one);
                CHECK(i >= 0 && i < world_size && rq[i] == MPI_REQUEST_NULL, "MPI_Waitany gave index %d", i);
                st[i] = one;
            }
        }
        for (int s = 0; s < world_size; ++s) {
            const header h = check_message(bufs[s], &st[s], kSpecific, "specific receiver");
            CHECK(h.source == s && h.seq == seq, "specific receiver, tag %d: from %d expected message %d, got %d from %d",
                  t, s, seq, h.seq, h.source);
            free(bufs[s]);
        }
    }
    return NULL;
}

static int max_bytes(void)
{
    int most = 0;
    for (int seq = 0; seq < M; ++seq) {
        for (int c = 0; c < kComms; ++c) {
            most = msg_size(seq, c) > most ? msg_size(seq, c) : most;
        }
    }
    return most;
}

/* Thread t: tag t from MPI_ANY_SOURCE; per source, the sequence numbers in order. */
static void *any_source_receiver(void *arg)
{
    const int t = (int)(long)arg, cap = max_bytes();
    unsigned char *buf = malloc((size_t)cap);
    int next[kMaxRanks] = {0};
    for (int n = 0; n < M * world_size; ++n) {
        MPI_Status st;
        if (n % 2 == 0) {
            MPI_Recv(buf, cap, MPI_BYTE, MPI_ANY_SOURCE, t, comms[kAnySource], &st);
        } else {
            MPI_Request rq;
            MPI_Irecv(buf, cap, MPI_BYTE, MPI_ANY_SOURCE, t, comms[kAnySource], &rq);
            MPI_Wait(&rq, &st);
        }
        const header h = check_message(buf, &st, kAnySource, "any-source receiver");
        CHECK(h.tag == t && h.seq == next[h.source], "any-source receiver, tag %d: from %d expected message %d, got %d",
              t, h.source, next[h.source], h.seq);
        ++next[h.source];
    }
    for (int s = 0; s < world_size; ++s) {
        CHECK(next[s] == M, "any-source receiver, tag %d: %d messages from %d, expected %d", t, next[s], s, M);
    }
    free(buf);
    return NULL;
}

/* Thread s: everything source s sends on the any-tag communicator, with MPI_ANY_TAG; per tag, in order. */
static void *any_tag_receiver(void *arg)
{
    const int s = (int)(long)arg, cap = max_bytes();
    unsigned char *buf = malloc((size_t)cap);
    int next[kMaxThreads] = {0};
    for (int n = 0; n < M * T; ++n) {
        MPI_Status st;
        MPI_Recv(buf, cap, MPI_BYTE, s, MPI_ANY_TAG, comms[kAnyTag], &st);
        const header h = check_message(buf, &st, kAnyTag, "any-tag receiver");
        CHECK(h.source == s && h.tag >= 0 && h.tag < T && h.seq == next[h.tag],
              "any-tag receiver of source %d: tag %d expected message %d, got %d from %d", s, h.tag,
              h.tag >= 0 && h.tag < T ? next[h.tag] : -1, h.seq, h.source);
        ++next[h.tag];
    }
    free(buf);
    return NULL;
}

static void *role(void *arg)
{
    const long i = (long)arg;
    if (i < T) {
        return sender((void *)i);
    }
    if (i < 2 * T) {
        return specific_receiver((void *)(i - T));
    }
    if (i < 3 * T) {
        return any_source_receiver((void *)(i - 2 * T));
    }
    return any_tag_receiver((void *)(i - 3 * T));
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, 16, "threads");
    M = threads_arg(argc, argv, 2, 200, 1, 100000, "messages");
    large_bytes = threads_arg(argc, argv, 3, 3072, 0, 65536, "large KiB") * 1024;
    CHECK(world_size <= kMaxRanks && 3 * T + world_size <= kMaxThreads, "%d ranks and %d threads: too many",
          world_size, T);
    for (int c = 0; c < kComms; ++c) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
    }
    threads_run(3 * T + world_size, role);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 0; c < kComms; ++c) {
        int flag = 1;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c], &flag, &st);
        CHECK(!flag, "a message left over on communicator %d: from %d, tag %d", c, st.MPI_SOURCE, st.MPI_TAG);
        MPI_Comm_free(&comms[c]);
    }
    char what[96];
    snprintf(what, sizeof what, "%d threads, %d messages per thread, communicator and peer", T, M);
    return threads_pass("threads_p2p", what);
}
