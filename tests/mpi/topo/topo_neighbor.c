/* The neighbourhood collectives (MPI-4.1 8.6, 8.7) on Cartesian grids (periodic and not, dimensions of
 * size 1 and 2 where a neighbour appears twice), a graph ring and distributed graphs (symmetric and a
 * star): MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,w), blocking, non-blocking (several in
 * flight) and MPI_Count forms, against the blocks each neighbour must have sent. Blocks of
 * MPI_PROC_NULL neighbours and gaps between blocks keep their sentinel. Plain MPI C; also run over the
 * translators (the MPI_Count forms natively and over MPICH). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../p2p/p2p_check.h"

#if defined(__GNUC__) && !defined(__clang__)
/* MPI_UNWEIGHTED is a sentinel address that GCC takes for an array of size 0. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

#define SENTINEL (-777)
#define MAXN 16

static int rank, size, calls;

/* A neighbourhood: my sources and destinations, and for each source block which block of that source's
 * send buffer lands there (-1 for MPI_PROC_NULL). */
struct hood {
    const char *name;
    MPI_Comm comm;
    int in, out;
    int sources[MAXN], destinations[MAXN];
    int from_block[MAXN];
    int twice; /* a neighbour met twice: in both directions of a Cartesian dimension (periodic, of size 1
                * or 2), or over two edges of a graph */
    int asymmetric; /* some process's sources are not its destinations */
};

/* Element k of the block rank s sends as its block j. */
static int value(int s, int j, int k)
{
    return s * 1000 + j * 10 + k;
}

/* Graphs: the k-th time s appears among my sources pairs with the k-th time I appear among s's
 * destinations (messages between two processes match in order). */
static void pair_by_order(struct hood *h, int (*destinations_of)(int s, int *out))
{
    for (int i = 0; i < h->in; ++i) {
        const int s = h->sources[i];
        int k = 0, dest[MAXN], n = destinations_of(s, dest);
        for (int e = 0; e < i; ++e) {
            k += h->sources[e] == s;
        }
        h->twice = h->twice || k > 0;
        h->from_block[i] = -1;
        for (int j = 0; j < n; ++j) {
            if (dest[j] == rank && k-- == 0) {
                h->from_block[i] = j;
                break;
            }
        }
        CHECK(h->from_block[i] >= 0, "%s: no block of %d is for me", h->name, s);
    }
}

static struct hood cart(const char *name, int ndims, const int *dims, const int *periods)
{
    struct hood h;
    h.name = name;
    h.asymmetric = 0;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &h.comm);
    h.in = h.out = 2 * ndims;
    h.twice = 0;
    for (int d = 0; d < ndims; ++d) {
        int src, dst;
        MPI_Cart_shift(h.comm, d, 1, &src, &dst);
        h.sources[2 * d] = h.destinations[2 * d] = src;
        h.sources[2 * d + 1] = h.destinations[2 * d + 1] = dst;
        /* What my -1 neighbour sends towards +1 lands in my -1 block, and back. */
        h.from_block[2 * d] = src == MPI_PROC_NULL ? -1 : 2 * d + 1;
        h.from_block[2 * d + 1] = dst == MPI_PROC_NULL ? -1 : 2 * d;
        h.twice = h.twice || (src == dst && src != MPI_PROC_NULL);
    }
    return h;
}

static int ring_of(int s, int *out)
{
    out[0] = (s + size - 1) % size;
    out[1] = (s + 1) % size;
    return 2;
}

static struct hood graph_ring(void)
{
    struct hood h;
    h.twice = 0;
    int index[MAXN], edges[2 * MAXN];
    h.name = "graph ring";
    h.asymmetric = 0;
    for (int i = 0; i < size; ++i) {
        ring_of(i, edges + 2 * i);
        index[i] = 2 * (i + 1);
    }
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &h.comm);
    h.in = h.out = 2;
    MPI_Graph_neighbors(h.comm, rank, 2, h.sources);
    memcpy(h.destinations, h.sources, sizeof h.sources);
    pair_by_order(&h, ring_of);
    return h;
}

/* Out to r+1 and r+2, in from r-1 and r-2. */
static int skip_of(int s, int *out)
{
    out[0] = (s + 1) % size;
    out[1] = (s + 2) % size;
    return 2;
}

static struct hood dist_skip(void)
{
    struct hood h;
    h.twice = 0;
    h.name = "distributed graph";
    h.asymmetric = 1;
    h.in = h.out = 2;
    h.sources[0] = (rank + size - 1) % size;
    h.sources[1] = (rank + 2 * size - 2) % size;
    skip_of(rank, h.destinations);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, h.sources, MPI_UNWEIGHTED, 2, h.destinations, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &h.comm);
    pair_by_order(&h, skip_of);
    return h;
}

/* Rank 0 sends to everyone else; they send nothing. */
static int star_of(int s, int *out)
{
    if (s != 0) {
        return 0;
    }
    for (int i = 1; i < size; ++i) {
        out[i - 1] = i;
    }
    return size - 1;
}

static struct hood dist_star(void)
{
    struct hood h;
    h.twice = 0;
    h.name = "star";
    h.asymmetric = 1;
    h.out = star_of(rank, h.destinations);
    h.in = rank == 0 ? 0 : 1;
    h.sources[0] = 0;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, h.in, h.sources, MPI_UNWEIGHTED, h.out, h.destinations,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &h.comm);
    pair_by_order(&h, star_of);
    return h;
}

static void clear(int *buf, int n)
{
    for (int i = 0; i < n; ++i) {
        buf[i] = SENTINEL;
    }
}

/* Block i of the receive buffer (count elements at offset `at`) holds what its source sent, for each
 * of its elements (block j of a source s: value(s, j, k), or for allgather value(s, 0, k)). */
static void expect_block(const struct hood *h, const int *buf, int i, int at, int count, int gathered, const char *what)
{
    for (int k = 0; k < count; ++k) {
        const int want = h->from_block[i] < 0 ? SENTINEL : value(h->sources[i], gathered ? 0 : h->from_block[i], k);
        CHECK(buf[at + k] == want, "%s on %s: block %d (from %d) element %d is %d, expected %d", what, h->name, i,
              h->sources[i], k, buf[at + k], want);
    }
}

/* The sizes of a vector form's blocks: block j of a sender holds 1 + j % 3 elements. */
static int vcount(int j)
{
    return 1 + j % 3;
}

static void run(const struct hood *h, int mode /* 0 blocking, 1 non-blocking, 2 MPI_Count */)
{
    int send[4 * MAXN], recv[4 * MAXN], recv2[4 * MAXN];
    int scounts[MAXN], sdispls[MAXN], rcounts[MAXN], rdispls[MAXN];
    MPI_Aint sbytes[MAXN], rbytes[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN], pair;
    MPI_Request rq[2];
    MPI_Comm c = h->comm;

    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);

    /* allgather: my 2 elements to every destination. */
    for (int k = 0; k < 2; ++k) {
        send[k] = value(rank, 0, k);
    }
    clear(recv, 4 * MAXN);
    if (mode == 1) {
        MPI_Ineighbor_allgather(send, 2, MPI_INT, recv, 2, MPI_INT, c, &rq[0]);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    } else if (mode == 2) {
        MPI_Neighbor_allgather_c(send, 2, MPI_INT, recv, 2, MPI_INT, c);
    } else {
        MPI_Neighbor_allgather(send, 2, MPI_INT, recv, 2, MPI_INT, c);
    }
    for (int i = 0; i < h->in; ++i) {
        expect_block(h, recv, i, 2 * i, 2, 1, "MPI_Neighbor_allgather");
    }

    /* allgatherv: the blocks in reverse order, three elements apart (gaps keep the sentinel). */
    clear(recv, 4 * MAXN);
    for (int i = 0; i < h->in; ++i) {
        rcounts[i] = 2;
        rdispls[i] = 3 * (h->in - 1 - i);
    }
    if (mode == 2) {
        MPI_Count cc[MAXN];
        MPI_Aint dd[MAXN];
        for (int i = 0; i < h->in; ++i) {
            cc[i] = rcounts[i];
            dd[i] = rdispls[i];
        }
        MPI_Neighbor_allgatherv_c(send, 2, MPI_INT, recv, cc, dd, MPI_INT, c);
    } else {
        MPI_Neighbor_allgatherv(send, 2, MPI_INT, recv, rcounts, rdispls, MPI_INT, c);
    }
    for (int i = 0; i < h->in; ++i) {
        expect_block(h, recv, i, rdispls[i], 2, 1, "MPI_Neighbor_allgatherv");
        CHECK(recv[rdispls[i] + 2] == SENTINEL, "the gap after a block of MPI_Neighbor_allgatherv is untouched");
    }

    /* alltoall: block j (2 elements) to destination j; with a non-blocking allgather in flight too. */
    for (int j = 0; j < h->out; ++j) {
        for (int k = 0; k < 2; ++k) {
            send[2 * j + k] = value(rank, j, k);
        }
    }
    clear(recv, 4 * MAXN);
    clear(recv2, 4 * MAXN);
    if (mode == 1) {
        int mine[2] = {value(rank, 0, 0), value(rank, 0, 1)};
        MPI_Ineighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, c, &rq[0]);
        MPI_Ineighbor_allgather(mine, 2, MPI_INT, recv2, 2, MPI_INT, c, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        for (int i = 0; i < h->in; ++i) {
            expect_block(h, recv2, i, 2 * i, 2, 1, "MPI_Ineighbor_allgather beside MPI_Ineighbor_alltoall");
        }
    } else if (mode == 2) {
        MPI_Neighbor_alltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, c);
    } else {
        MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, c);
    }
    for (int i = 0; i < h->in; ++i) {
        expect_block(h, recv, i, 2 * i, 2, 0, "MPI_Neighbor_alltoall");
    }

    /* alltoallv: block j holds vcount(j) elements, blocks in reverse order with gaps on both sides. */
    int at = 0;
    for (int j = h->out - 1; j >= 0; --j) {
        scounts[j] = vcount(j);
        sdispls[j] = at;
        for (int k = 0; k < scounts[j]; ++k) {
            send[at + k] = value(rank, j, k);
        }
        at += scounts[j] + 1;
    }
    at = 0;
    for (int i = h->in - 1; i >= 0; --i) {
        rcounts[i] = h->from_block[i] < 0 ? 3 : vcount(h->from_block[i]);
        rdispls[i] = at;
        at += rcounts[i] + 1;
    }
    clear(recv, 4 * MAXN);
    if (mode == 1) {
        MPI_Ineighbor_alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, c, &rq[0]);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    } else if (mode == 2) {
        MPI_Count sc[MAXN], rc[MAXN];
        MPI_Aint sd[MAXN], rd[MAXN];
        for (int j = 0; j < h->out; ++j) {
            sc[j] = scounts[j];
            sd[j] = sdispls[j];
        }
        for (int i = 0; i < h->in; ++i) {
            rc[i] = rcounts[i];
            rd[i] = rdispls[i];
        }
        MPI_Neighbor_alltoallv_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c);
    } else {
        MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, c);
    }
    for (int i = 0; i < h->in; ++i) {
        expect_block(h, recv, i, rdispls[i], rcounts[i], 0, "MPI_Neighbor_alltoallv");
    }

    /* alltoallw: the same blocks, odd ones received as pairs of ints (one datatype per block), byte
     * displacements. MPICH 4.0 delivers nothing on graphs whose sources differ from their destinations. */
    if (h->asymmetric && runtime_is("MPICH")) {
        MPI_Type_free(&pair);
        calls += 4;
        return;
    }
    for (int j = 0; j < h->out; ++j) {
        sbytes[j] = (MPI_Aint)sdispls[j] * (MPI_Aint)sizeof(int);
        stypes[j] = MPI_INT;
    }
    for (int i = 0; i < h->in; ++i) {
        rbytes[i] = (MPI_Aint)rdispls[i] * (MPI_Aint)sizeof(int);
        rtypes[i] = MPI_INT;
        if (h->from_block[i] >= 0 && rcounts[i] % 2 == 0) {
            rtypes[i] = pair;
            rcounts[i] /= 2;
        }
    }
    clear(recv, 4 * MAXN);
    if (mode == 1) {
        MPI_Ineighbor_alltoallw(send, scounts, sbytes, stypes, recv, rcounts, rbytes, rtypes, c, &rq[0]);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Neighbor_alltoallw(send, scounts, sbytes, stypes, recv, rcounts, rbytes, rtypes, c);
    }
    for (int i = 0; i < h->in; ++i) {
        const int n = rtypes[i] == pair ? 2 * rcounts[i] : rcounts[i];
        expect_block(h, recv, i, rdispls[i], n, 0, "MPI_Neighbor_alltoallw");
    }
    MPI_Type_free(&pair);
    calls += 5;
}

int main(int argc, char **argv)
{
    struct hood hoods[8];
    int n = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= MAXN, "at most %d ranks", MAXN);

    hoods[n++] = cart("periodic ring", 1, (const int[]){size}, (const int[]){1});
    hoods[n++] = cart("line", 1, (const int[]){size}, (const int[]){0});
    {
        int dims[2] = {0, 0};
        MPI_Dims_create(size, 2, dims);
        hoods[n++] = cart("2-D grid, periodic in dimension 0", 2, dims, (const int[]){1, 0});
        /* A periodic dimension of size 1: both neighbours are oneself. */
        hoods[n++] = cart("size-1 periodic dimension", 2, (const int[]){size, 1}, (const int[]){0, 1});
    }
    hoods[n++] = graph_ring();
    hoods[n++] = dist_skip();
    hoods[n++] = dist_star();

    const int native = !runtime_is("Open MPI") && !runtime_is("MPICH");
    const int count_forms = !runtime_is("Open MPI"); /* Open MPI 4.1 has no MPI_Count forms */
    for (int i = 0; i < n; ++i) {
        /* Open MPI 4.1 and MPICH 4.0 (in some forms) pair the two blocks of a Cartesian neighbour met in
         * both directions in send order, while the standard has the -1 block receive what that
         * neighbour sent towards +1; MPICH pairs a graph's two edges between the same processes the
         * other way round: such neighbourhoods are checked natively only. */
        for (int mode = 0; mode < 3 && (native || !hoods[i].twice); ++mode) {
            if (mode < 2 || count_forms) {
                run(&hoods[i], mode);
            }
        }
        MPI_Comm_free(&hoods[i].comm);
    }
    {
        /* No topology: an error. */
        int x = 0, y = 0;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        CHECK(MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS,
              "a neighbourhood collective on a communicator without topology is an error");
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("topo_neighbor: all checks passed on %d ranks (%d collective calls)\n", size, calls);
    }
    MPI_Finalize();
    return 0;
}
