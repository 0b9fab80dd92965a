/* Every rank exchanges messages of each size with every other rank (ring and all pairs) through the
 * blocking, non-blocking, synchronous, ready and combined calls; data checked byte by byte. Sizes from
 * 0 to 4 MiB + 3 (argv[1] "big": up to 64 MiB, for the slow test). 2-4 ranks. */
#include "p2p_check.h"

#include <string.h>

static const size_t kSizes[] = {0, 1, 7, 8, 4095, 4096, 65535, 65537, 1 << 20, (4 << 20) + 3};
static const size_t kBigSizes[] = {(16u << 20) + 1, 64u << 20};

static int rank, size;

static void exchange(size_t n, unsigned long id, int mode)
{
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    unsigned char *out = malloc(n + 1), *in = malloc(n + 8);
    fill(out, n, id * 1000 + (unsigned long)rank);
    memset(in, 0xee, n + 8);
    MPI_Status st;
    MPI_Request rq[2];
    switch (mode) {
    case 0: /* Isend + Irecv + Waitall */
        MPI_Irecv(in, (int)n, MPI_BYTE, from, 7, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        break;
    case 1: /* Sendrecv */
        MPI_Sendrecv(out, (int)n, MPI_BYTE, peer, 8, in, (int)n, MPI_BYTE, from, 8, MPI_COMM_WORLD, &st);
        CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 8, "Sendrecv status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
        break;
    case 2: /* Issend + Recv: the synchronous send completes only once matched */
        MPI_Issend(out, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv(in, (int)n, MPI_BYTE, from, 9, MPI_COMM_WORLD, &st);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    case 3: { /* Rsend into a posted receive (posted before the barrier) */
        MPI_Irecv(in, (int)n, MPI_BYTE, from, 10, MPI_COMM_WORLD, &rq[0]);
        p2p_barrier();
        MPI_Rsend(out, (int)n, MPI_BYTE, peer, 10, MPI_COMM_WORLD);
        MPI_Wait(&rq[0], &st);
        break;
    }
    default: { /* Sendrecv_replace */
        memcpy(in, out, n);
        MPI_Sendrecv_replace(in, (int)n, MPI_BYTE, peer, 11, from, 11, MPI_COMM_WORLD, &st);
        break;
    }
    }
    const long bad = first_bad(in, n, id * 1000 + (unsigned long)from);
    CHECK(bad < 0, "mode %d, %zu bytes from %d: byte %ld differs", mode, n, from, bad);
    CHECK(in[n] == 0xee, "mode %d, %zu bytes: the byte after the buffer was written", mode, n);
    free(out);
    free(in);
}

/* Every pair at once, both directions, with Waitany/Waitsome/Testall collecting. */
static void all_pairs(size_t n, unsigned long id)
{
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    unsigned char **in = malloc(sizeof(unsigned char *) * (size_t)size);
    unsigned char *out = malloc(n + 1);
    int nreq = 0;
    fill(out, n, id * 1000 + (unsigned long)rank);
    for (int p = 0; p < size; ++p) {
        in[p] = malloc(n + 1);
        MPI_Irecv(in[p], (int)n, MPI_BYTE, p, 12, MPI_COMM_WORLD, &rq[nreq++]);
    }
    for (int p = 0; p < size; ++p) {
        MPI_Isend(out, (int)n, MPI_BYTE, p, 12, MPI_COMM_WORLD, &rq[nreq++]);
    }
    int done = 0;
    while (done < nreq) {
        int index = -1, outcount = 0, indices[64];
        MPI_Status statuses[64];
        if (done % 2 == 0) {
            MPI_Waitany(nreq, rq, &index, MPI_STATUS_IGNORE);
            CHECK(index != MPI_UNDEFINED, "Waitany with active requests gave MPI_UNDEFINED");
            ++done;
        } else {
            MPI_Waitsome(nreq, rq, &outcount, indices, statuses);
            CHECK(outcount != MPI_UNDEFINED && outcount >= 1, "Waitsome gave %d", outcount);
            done += outcount;
        }
    }
    int flag = 0;
    MPI_Testall(nreq, rq, &flag, MPI_STATUSES_IGNORE);
    CHECK(flag, "Testall of null requests is true");
    for (int p = 0; p < size; ++p) {
        const long bad = first_bad(in[p], n, id * 1000 + (unsigned long)p);
        CHECK(bad < 0, "all pairs, %zu bytes from %d: byte %ld differs", n, p, bad);
        free(in[p]);
    }
    free(in);
    free(out);
    free(rq);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int big = argc > 1 && strcmp(argv[1], "big") == 0;
    const size_t *sizes = big ? kBigSizes : kSizes;
    const size_t count = big ? sizeof kBigSizes / sizeof kBigSizes[0] : sizeof kSizes / sizeof kSizes[0];
    unsigned long id = 1;
    for (size_t s = 0; s < count; ++s) {
        for (int mode = 0; mode < 5; ++mode) {
            exchange(sizes[s], id++, mode);
            if (big) {
                break;
            }
        }
        if (!big) {
            all_pairs(sizes[s], id++);
        }
    }
    p2p_barrier();
    if (rank == 0) {
        printf("p2p_sizes: %zu sizes up to %zu bytes, %d ranks: ok\n", count, sizes[count - 1], size);
    }
    MPI_Finalize();
    return 0;
}
