/* Message order. Rank 0 sends, rank 1 receives (other ranks only take part in the barriers):
 *   1. MPI's non-overtaking rule between wildcard and specific receives: tags 0..N-1 in order, received
 *      through a mix of (ANY_SOURCE, ANY_TAG), (0, ANY_TAG), (ANY_SOURCE, tag) receives, each of which
 *      must get the oldest matching message;
 *   2. argv[1] small messages (default 1,000,000) carrying their sequence number, checked one by one;
 *   3. a stream of large messages of varied sizes (striped over every module that reaches the peer),
 *      each checked byte by byte, received with Irecv windows. */
#include "p2p_check.h"

#include <string.h>

enum { kWildcardMessages = 64, kWindow = 16, kLarge = 48 };

static size_t large_size(int i)
{
    return (size_t)(300000 + 97 * i + (i % 5) * 1048576);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long small = argc > 1 ? atol(argv[1]) : 1000000;
    CHECK(size >= 2, "needs two ranks");

    /* 1. Wildcards. */
    if (rank == 0) {
        for (int t = 0; t < kWildcardMessages; ++t) {
            MPI_Send(&t, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        for (int t = 0; t < kWildcardMessages; ++t) {
            int value = -1;
            MPI_Status st;
            const int source = t % 3 == 1 ? 0 : MPI_ANY_SOURCE;
            const int tag = t % 3 == 2 ? t : MPI_ANY_TAG;
            MPI_Recv(&value, 1, MPI_INT, source, tag, MPI_COMM_WORLD, &st);
            CHECK(value == t && st.MPI_TAG == t && st.MPI_SOURCE == 0, "receive %d got message %d (tag %d)", t, value,
                  st.MPI_TAG);
        }
    }
    p2p_barrier();

    /* 2. Many small messages. */
    if (rank == 0) {
        for (long i = 0; i < small; ++i) {
            MPI_Send(&i, 1, MPI_LONG, 1, 5, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        for (long i = 0; i < small; ++i) {
            long v = -1;
            MPI_Recv(&v, 1, MPI_LONG, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(v == i, "small message %ld carries %ld", i, v);
        }
    }
    p2p_barrier();

    /* 3. Large messages, a window of receives in flight. */
    if (rank == 0) {
        for (int i = 0; i < kLarge; ++i) {
            const size_t n = large_size(i);
            unsigned char *buf = malloc(n);
            fill(buf, n, (unsigned long)i);
            MPI_Send(buf, (int)n, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
            free(buf);
        }
    } else if (rank == 1) {
        for (int base = 0; base < kLarge; base += kWindow) {
            MPI_Request rq[kWindow];
            unsigned char *bufs[kWindow];
            for (int k = 0; k < kWindow && base + k < kLarge; ++k) {
                bufs[k] = malloc(large_size(base + k));
                MPI_Irecv(bufs[k], (int)large_size(base + k), MPI_BYTE, 0, 6, MPI_COMM_WORLD, &rq[k]);
            }
            const int n = kLarge - base < kWindow ? kLarge - base : kWindow;
            MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
            for (int k = 0; k < n; ++k) {
                const long bad = first_bad(bufs[k], large_size(base + k), (unsigned long)(base + k));
                CHECK(bad < 0, "large message %d: byte %ld differs", base + k, bad);
                free(bufs[k]);
            }
        }
    }
    p2p_barrier();
    if (rank == 0) {
        printf("p2p_order: %d wildcard, %ld small, %d large messages in order\n", kWildcardMessages, small, kLarge);
    }
    MPI_Finalize();
    return 0;
}
