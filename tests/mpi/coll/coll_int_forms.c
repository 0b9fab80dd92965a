/*
 * The int-count forms with arrays, which are generated from their MPI_Count forms (ompi/api/gen_native.py):
 * they widen only the entries that are significant on the calling process. An array the call ignores
 * is passed as NULL or as a pointer into a page that cannot be read (PROT_NONE): a gatherv's recvcounts
 * and a scatterv's sendcounts away from the root, an alltoallv's send arrays with MPI_IN_PLACE — on an
 * intracommunicator and on an intercommunicator (where the root's arrays have the remote group's size),
 * blocking, nonblocking and persistent. A nonblocking call's int arrays are overwritten before its
 * MPI_Wait: the call must not read them later. The neighbourhood forms run on a ring, and a datatype
 * made by MPI_Type_indexed from more entries than the on-stack buffer holds still reports int counts.
 */
#include "coll_check.h"

#include <stdint.h>
#include <sys/mman.h>

static int *unreadable; /* a page that faults when read */
static size_t calls;

#define OK(call)                                                                                           \
    do {                                                                                                   \
        const int rc_ = (call);                                                                            \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_);                                           \
        ++calls;                                                                                           \
    } while (0)

/* Rank p contributes p + 1 elements; the root's blocks are in reverse rank order with a gap. */
static void layout(int n, int counts[], int displs[], int *total)
{
    int at = 0;
    for (int p = n - 1; p >= 0; --p) {
        counts[p] = p + 1;
        displs[p] = at;
        at += counts[p] + 1;
    }
    *total = at;
}

/* Gatherv, Igatherv, Gatherv_init, then Scatterv back: `root` as the call takes it, `is_root` whether
 * this process is it, `peers` the size of the group the root's arrays cover, `mine` this process's
 * rank in that group (-1 where it takes no part), `from` whose values it sends (block p at the root
 * holds those of base + p), `ignored` what a non-root passes as its arrays. */
static void rooted(MPI_Comm comm, int root, int is_root, int peers, int mine, int from, int base, const int *ignored)
{
    int counts[64], displs[64], total = 0;
    layout(peers, counts, displs, &total);
    const int *rc = is_root ? counts : ignored, *rd = is_root ? displs : ignored;
    const int mycount = mine >= 0 ? mine + 1 : 0;
    int send[64], *recv = ints((size_t)total + 1);
    for (int i = 0; i < 64; ++i) {
        send[i] = value(from, (size_t)i);
    }
    for (int form = 0; form < 3; ++form) {
        for (int i = 0; i <= total; ++i) {
            recv[i] = SENTINEL;
        }
        MPI_Request rq = MPI_REQUEST_NULL;
        if (form == 0) {
            OK(MPI_Gatherv(send, mycount, MPI_INT, recv, rc, rd, MPI_INT, root, comm));
        } else {
            if (form == 1) {
                OK(MPI_Igatherv(send, mycount, MPI_INT, recv, rc, rd, MPI_INT, root, comm, &rq));
            } else {
                OK(MPI_Gatherv_init(send, mycount, MPI_INT, recv, rc, rd, MPI_INT, root, comm, MPI_INFO_NULL, &rq));
                OK(MPI_Start(&rq));
            }
            OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            if (rq != MPI_REQUEST_NULL) {
                OK(MPI_Request_free(&rq));
            }
        }
        for (int p = 0; p < peers && is_root; ++p) {
            for (int i = 0; i < counts[p]; ++i) {
                CHECK(recv[displs[p] + i] == value(base + p, (size_t)i), "MPI_Gatherv form %d: block %d element %d",
                      form, p, i);
            }
            CHECK(recv[displs[p] + counts[p]] == SENTINEL, "MPI_Gatherv form %d: gap after block %d written", form, p);
        }
    }
    int got[64];
    for (int i = 0; i < 64; ++i) {
        got[i] = SENTINEL;
    }
    OK(MPI_Scatterv(recv, rc, rd, MPI_INT, got, mycount, MPI_INT, root, comm));
    for (int i = 0; i < mycount; ++i) {
        CHECK(got[i] == value(from, (size_t)i), "MPI_Scatterv: element %d is %d, want %d", i, got[i],
              value(from, (size_t)i));
    }
    CHECK(got[mycount] == SENTINEL, "MPI_Scatterv: element past the count written");
    free(recv);
}

static void intra_rooted(int rank, int size)
{
    for (int root = 0; root < size; ++root) {
        rooted(MPI_COMM_WORLD, root, rank == root, size, rank, rank, 0, NULL);
        rooted(MPI_COMM_WORLD, root, rank == root, size, rank, rank, 0, unreadable);
    }
}

/* MPI_IN_PLACE: the send arrays are not read; a nonblocking call's arrays are overwritten at once. */
static void alltoall(int rank, int size)
{
    int counts[64], displs[64], bytes[64], buf[64 * 2];
    MPI_Datatype types[64];
    for (int p = 0; p < size; ++p) {
        counts[p] = 2;
        displs[p] = 2 * p;
        bytes[p] = 2 * p * (int)sizeof(int);
        types[p] = MPI_INT;
        buf[2 * p] = rank * 100 + p;
        buf[2 * p + 1] = -(rank * 100 + p);
    }
    OK(MPI_Alltoallv(MPI_IN_PLACE, unreadable, unreadable, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD));
    OK(MPI_Alltoallw(MPI_IN_PLACE, unreadable, unreadable, (const MPI_Datatype *)unreadable, buf, counts, bytes, types,
                     MPI_COMM_WORLD));
    /* Two exchanges: every block is back where it started. */
    for (int p = 0; p < size; ++p) {
        CHECK(buf[2 * p] == rank * 100 + p && buf[2 * p + 1] == -(rank * 100 + p),
              "MPI_Alltoallv/w in place: block %d is %d %d", p, buf[2 * p], buf[2 * p + 1]);
    }
    int send[64 * 2], recv[64 * 2];
    for (int p = 0; p < size; ++p) {
        send[2 * p] = rank * 100 + p;
        send[2 * p + 1] = 7;
        recv[2 * p] = recv[2 * p + 1] = SENTINEL;
    }
    MPI_Request rq;
    OK(MPI_Ialltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD, &rq));
    for (int p = 0; p < size; ++p) {
        counts[p] = -1;
        displs[p] = 1 << 30;
    }
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int p = 0; p < size; ++p) {
        CHECK(recv[2 * p] == p * 100 + rank && recv[2 * p + 1] == 7, "MPI_Ialltoallv: block %d is %d %d", p,
              recv[2 * p], recv[2 * p + 1]);
    }
}

/* Each group roots in turn: MPI_ROOT with remote-size arrays, MPI_PROC_NULL and the other group with
 * arrays nobody may read. */
static void inter_rooted(int world_rank)
{
    const int group = world_rank % 2;
    MPI_Comm local, inter;
    OK(MPI_Comm_split(MPI_COMM_WORLD, group, world_rank, &local));
    OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - group, 11, &inter));
    int lrank, lsize, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    for (int g = 0; g < 2; ++g) {
        const int gsize = g == group ? lsize : rsize;
        for (int r = 0; r < gsize; ++r) {
            if (g == group) {
                const int is_root = lrank == r;
                /* The root gathers from the remote group, whose ranks are rank-numbered from 0. */
                rooted(inter, is_root ? MPI_ROOT : MPI_PROC_NULL, is_root, rsize, -1, 0, 100 * (1 - group),
                       unreadable);
            } else {
                rooted(inter, r, 0, lsize, lrank, lrank + 100 * group, 0, unreadable);
            }
        }
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* A ring: each rank's neighbours are rank - 1 and rank + 1. */
static void neighbours(int rank, int size)
{
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int counts[2] = {1, 1}, displs[2] = {0, 1}, send[2] = {rank, rank}, recv[2] = {SENTINEL, SENTINEL};
    OK(MPI_Neighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, ring));
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    CHECK(recv[0] == left && recv[1] == right, "MPI_Neighbor_alltoallv on a ring: got %d %d, want %d %d", recv[0],
          recv[1], left, right);
    int all[2] = {SENTINEL, SENTINEL};
    OK(MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT, ring));
    CHECK(all[0] == left && all[1] == right, "MPI_Neighbor_allgatherv on a ring: got %d %d", all[0], all[1]);
    MPI_Comm_free(&ring);
}

/* More blocks than the generated form keeps on its stack: the heap copy, and int counts recorded. */
static void indexed(void)
{
    enum { N = 100 };
    int lengths[N], displs[N];
    for (int i = 0; i < N; ++i) {
        lengths[i] = 1;
        displs[i] = 2 * i;
    }
    MPI_Datatype t;
    OK(MPI_Type_indexed(N, lengths, displs, MPI_INT, &t));
    OK(MPI_Type_commit(&t));
    int size = 0;
    OK(MPI_Type_size(t, &size));
    CHECK(size == N * (int)sizeof(int), "MPI_Type_indexed of %d ints: size %d", N, size);
    int ni, na, nd, combiner;
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_INDEXED && ni == 2 * N + 1 && na == 0 && nd == 1,
          "MPI_Type_indexed's envelope: combiner %d, %d ints, %d addresses, %d types", combiner, ni, na, nd);
    MPI_Count ci, ca, cl, cd;
    OK(MPI_Type_get_envelope_c(t, &ci, &ca, &cl, &cd, &combiner));
    CHECK(cl == 0, "MPI_Type_indexed recorded %lld large counts", (long long)cl);
    int contents[2 * N + 1];
    MPI_Aint no_addresses[1];
    MPI_Datatype old;
    OK(MPI_Type_get_contents(t, 2 * N + 1, 0, 1, contents, no_addresses, &old));
    CHECK(contents[0] == N && contents[1 + N] == 0 && contents[2 * N] == 2 * (N - 1),
          "MPI_Type_get_contents: %d %d %d", contents[0], contents[1 + N], contents[2 * N]);
    MPI_Type_free(&t);
    /* The MPI_Count form keeps large counts. */
    MPI_Count lcount[1] = {3}, ldisp[1] = {0};
    OK(MPI_Type_indexed_c(1, lcount, ldisp, MPI_INT, &t));
    OK(MPI_Type_get_envelope_c(t, &ci, &ca, &cl, &cd, &combiner));
    CHECK(cl == 3 && ci == 0, "MPI_Type_indexed_c: %lld large counts, %lld ints", (long long)cl, (long long)ci);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    unreadable = (int *)mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(unreadable != MAP_FAILED, "mmap");
    intra_rooted(rank, size);
    alltoall(rank, size);
    if (size >= 2) {
        inter_rooted(rank);
    }
    neighbours(rank, size);
    indexed();
    munmap(unreadable, 4096);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("coll_int_forms: %zu calls checked on %d ranks\n", calls, size);
    }
    MPI_Finalize();
    return 0;
}
