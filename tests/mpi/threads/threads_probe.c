/* Probes, matched probes, cancelled receives, persistent requests and the calls that complete several
 * requests, driven from T threads of every rank at once. Thread t of rank r talks to thread t of the
 * next rank (sends) and of the previous one (receives), with tags of its own, except for the matched
 * probes, where every thread of a rank receives on one shared tag:
 *   1. MPI_Probe / MPI_Iprobe, then MPI_Recv of the probed count (safe: no other thread takes that tag);
 *   2. MPI_Mprobe / MPI_Improbe on MPI_ANY_SOURCE and the shared tag, then MPI_Mrecv of the probed
 *      count: every message is received exactly once and whole. This is the race mprobe exists for:
 *      with MPI_Probe + MPI_Recv another thread could take the probed message in between;
 *   3. receives cancelled: one nobody sends to (must report cancelled), one that races its message
 *      (either cancelled, then received by a new receive, or received whole: never lost or both);
 *   4. persistent MPI_Send_init / MPI_Recv_init started R times (MPI_Start and MPI_Startall);
 *   5. K receives completed with MPI_Waitany, MPI_Waitsome or MPI_Testall, their sends posted in reverse.
 *
 * usage: threads_probe [T threads (default 4)] [R rounds (default 100)]
 */
#include "threads_check.h"

#include <sched.h>

enum { kProbeTag = 100, kMprobeTag = 200, kCancelTag = 300, kRaceTag = 400, kPersistTag = 500, kMultiTag = 1000,
       kMulti = 8, kMaxLen = 64 };

static int T, R, next_rank, prev_rank;
static start_line start;
static atomic_int *mprobe_seen; /* [source thread * R + i]: times that message was received */

static int probe_len(int t, int i)
{
    return 1 + (t * 13 + i * 7) % kMaxLen;
}

static void fill(int *buf, int len, int a, int b)
{
    for (int k = 0; k < len; ++k) {
        buf[k] = a * 1000003 + b * 1009 + k;
    }
}

static void check_fill(const int *buf, int len, int a, int b, const char *what)
{
    for (int k = 0; k < len; ++k) {
        CHECK(buf[k] == a * 1000003 + b * 1009 + k, "%s: element %d of %d is %d, expected %d", what, k, len, buf[k],
              a * 1000003 + b * 1009 + k);
    }
}

static void probes(int t)
{
    for (int i = 0; i < R; ++i) {
        int out[kMaxLen], in[kMaxLen], count = -1, flag = 0;
        const int len = probe_len(t, i);
        MPI_Request rq;
        MPI_Status st;
        fill(out, len, t, i);
        MPI_Isend(out, len, MPI_INT, next_rank, kProbeTag + t, MPI_COMM_WORLD, &rq);
        if (i % 2 == 0) {
            MPI_Probe(prev_rank, kProbeTag + t, MPI_COMM_WORLD, &st);
        } else {
            while (!flag) {
                MPI_Iprobe(prev_rank, kProbeTag + t, MPI_COMM_WORLD, &flag, &st);
                if (!flag) {
                    sched_yield();
                }
            }
        }
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == len && st.MPI_SOURCE == prev_rank && st.MPI_TAG == kProbeTag + t,
              "thread %d round %d: probe found %d ints from %d tag %d, expected %d from %d tag %d", t, i, count,
              st.MPI_SOURCE, st.MPI_TAG, len, prev_rank, kProbeTag + t);
        MPI_Recv(in, count, MPI_INT, prev_rank, kProbeTag + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check_fill(in, len, t, i, "probed message");
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
}

static void matched_probes(int t)
{
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)R);
    int *out = malloc(sizeof(int) * (size_t)R * (kMaxLen + 2));
    for (int i = 0; i < R; ++i) {
        int *m = out + (size_t)i * (kMaxLen + 2);
        const int len = probe_len(t, i);
        m[0] = t;
        m[1] = i;
        fill(m + 2, len, t, i);
        MPI_Isend(m, len + 2, MPI_INT, next_rank, kMprobeTag, MPI_COMM_WORLD, &rq[i]);
    }
    /* Each thread takes R of the T * R messages its rank gets, whichever thread sent them. */
    for (int i = 0; i < R; ++i) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        int count = -1, flag = 0, in[kMaxLen + 2];
        if (i % 2 == 0) {
            MPI_Mprobe(MPI_ANY_SOURCE, kMprobeTag, MPI_COMM_WORLD, &msg, &st);
        } else {
            while (!flag) {
                MPI_Improbe(MPI_ANY_SOURCE, kMprobeTag, MPI_COMM_WORLD, &flag, &msg, &st);
                if (!flag) {
                    sched_yield();
                }
            }
        }
        CHECK(msg != MPI_MESSAGE_NULL && st.MPI_SOURCE == prev_rank, "thread %d: matched probe %d gave no message or "
              "source %d (expected %d)", t, i, st.MPI_SOURCE, prev_rank);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count >= 3 && count <= kMaxLen + 2, "thread %d: matched probe %d found %d ints", t, i, count);
        MPI_Mrecv(in, count, MPI_INT, &msg, &st);
        CHECK(msg == MPI_MESSAGE_NULL, "thread %d: MPI_Mrecv left its message handle set", t);
        const int from = in[0], seq = in[1];
        CHECK(from >= 0 && from < T && seq >= 0 && seq < R && count == probe_len(from, seq) + 2,
              "thread %d: matched message says thread %d number %d with %d ints", t, from, seq, count);
        check_fill(in + 2, count - 2, from, seq, "matched message");
        const int times = atomic_fetch_add(&mprobe_seen[from * R + seq], 1) + 1;
        CHECK(times == 1, "message %d of thread %d received %d times", seq, from, times);
    }
    MPI_Waitall(R, rq, MPI_STATUSES_IGNORE);
    free(rq);
    free(out);
}

static void cancels(int t)
{
    for (int i = 0; i < R; ++i) {
        int never = 0, cancelled = 0;
        MPI_Request rq;
        MPI_Status st;
        MPI_Irecv(&never, 1, MPI_INT, prev_rank, kCancelTag + t, MPI_COMM_WORLD, &rq);
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
        CHECK(cancelled && rq == MPI_REQUEST_NULL, "thread %d round %d: a receive nobody sends to was not cancelled",
              t, i);

        /* A receive cancelled while its message may be arriving: the message is received exactly once. */
        int out = t * 100000 + i, in = -1;
        MPI_Request srq;
        MPI_Isend(&out, 1, MPI_INT, next_rank, kRaceTag + t, MPI_COMM_WORLD, &srq);
        MPI_Irecv(&in, 1, MPI_INT, prev_rank, kRaceTag + t, MPI_COMM_WORLD, &rq);
        if (i % 3) {
            sched_yield();
        }
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
        if (cancelled) {
            CHECK(in == -1, "thread %d round %d: a cancelled receive wrote %d", t, i, in);
            MPI_Recv(&in, 1, MPI_INT, prev_rank, kRaceTag + t, MPI_COMM_WORLD, &st);
        }
        CHECK(in == t * 100000 + i, "thread %d round %d: received %d after a cancel (%s), expected %d", t, i, in,
              cancelled ? "cancelled" : "not cancelled", t * 100000 + i);
        MPI_Wait(&srq, MPI_STATUS_IGNORE);
    }
}

static void persistent(int t)
{
    int out[4], in[4];
    MPI_Request rq[2];
    MPI_Recv_init(in, 4, MPI_INT, prev_rank, kPersistTag + t, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(out, 4, MPI_INT, next_rank, kPersistTag + t, MPI_COMM_WORLD, &rq[1]);
    for (int i = 0; i < R; ++i) {
        fill(out, 4, t, i);
        memset(in, 0xff, sizeof in);
        if (i % 2) {
            MPI_Startall(2, rq);
        } else {
            MPI_Start(&rq[0]);
            MPI_Start(&rq[1]);
        }
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        CHECK(rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL, "thread %d: a persistent request was freed", t);
        check_fill(in, 4, t, i, "persistent receive");
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

static void completions(int t)
{
    for (int i = 0; i < R; ++i) {
        int out[kMulti], in[kMulti];
        MPI_Request rrq[kMulti], srq[kMulti];
        for (int k = 0; k < kMulti; ++k) {
            in[k] = -1;
            out[k] = t * 7919 + i * 31 + k;
            MPI_Irecv(&in[k], 1, MPI_INT, prev_rank, kMultiTag + t * kMulti + k, MPI_COMM_WORLD, &rrq[k]);
        }
        for (int k = kMulti - 1; k >= 0; --k) {
            MPI_Isend(&out[k], 1, MPI_INT, next_rank, kMultiTag + t * kMulti + k, MPI_COMM_WORLD, &srq[k]);
        }
        int done = 0, seen[kMulti] = {0};
        if (i % 3 == 0) {
            while (done < kMulti) {
                int k = -1;
                MPI_Status st;
                MPI_Waitany(kMulti, rrq, &k, &st);
                CHECK(k >= 0 && k < kMulti && !seen[k] && st.MPI_TAG == kMultiTag + t * kMulti + k,
                      "thread %d: MPI_Waitany gave index %d (tag %d)", t, k, st.MPI_TAG);
                seen[k] = 1;
                ++done;
            }
        } else if (i % 3 == 1) {
            while (done < kMulti) {
                int n = 0, idx[kMulti];
                MPI_Waitsome(kMulti, rrq, &n, idx, MPI_STATUSES_IGNORE);
                CHECK(n >= 1 && n <= kMulti - done, "thread %d: MPI_Waitsome gave %d with %d pending", t, n,
                      kMulti - done);
                for (int j = 0; j < n; ++j) {
                    CHECK(idx[j] >= 0 && idx[j] < kMulti && !seen[idx[j]], "thread %d: MPI_Waitsome index %d", t,
                          idx[j]);
                    seen[idx[j]] = 1;
                }
                done += n;
            }
        } else {
            int flag = 0;
            while (!flag) {
                MPI_Testall(kMulti, rrq, &flag, MPI_STATUSES_IGNORE);
                if (!flag) {
                    sched_yield();
                }
            }
        }
        MPI_Waitall(kMulti, srq, MPI_STATUSES_IGNORE);
        for (int k = 0; k < kMulti; ++k) {
            CHECK(rrq[k] == MPI_REQUEST_NULL && in[k] == t * 7919 + i * 31 + k,
                  "thread %d round %d: receive %d holds %d, expected %d", t, i, k, in[k], t * 7919 + i * 31 + k);
        }
    }
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    start_line_wait(&start);
    probes(t);
    matched_probes(t);
    cancels(t);
    persistent(t);
    completions(t);
    return NULL;
}

int main(int argc, char **argv)
{
    threads_init(&argc, &argv);
    T = threads_arg(argc, argv, 1, 4, 1, 16, "threads");
    R = threads_arg(argc, argv, 2, 100, 1, 100000, "rounds");
    next_rank = (world_rank + 1) % world_size;
    prev_rank = (world_rank + world_size - 1) % world_size;
    mprobe_seen = calloc((size_t)T * (size_t)R, sizeof *mprobe_seen);
    start_line_init(&start, T);
    threads_run(T, worker);
    start_line_destroy(&start);
    for (int i = 0; i < T * R; ++i) {
        CHECK(atomic_load(&mprobe_seen[i]) == 1, "matched-probe message %d of thread %d received %d times", i % R,
              i / R, atomic_load(&mprobe_seen[i]));
    }
    free(mprobe_seen);
    char what[64];
    snprintf(what, sizeof what, "%d threads, %d rounds", T, R);
    return threads_pass("threads_probe", what);
}
