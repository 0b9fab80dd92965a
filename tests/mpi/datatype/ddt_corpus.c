/*
 * The datatype corpus (tests/data/ddt-corpus, real application types in libpack's notation) on the
 * native engine: every type of the files given parses, builds through the MPI constructors,
 * commits, has the size and bounds the MPI rules give (the parser's own model), packs to the bytes of
 * its type map (the parser's walk, independent of the library) and round-trips; then it goes around
 * the ring of ranks (ddt_ring.h) and arrives identical. Plain MPI C.
 *
 * usage: ddt_corpus FILE.ddt...
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddt_parse.h"
#include "ddt_ring.h"

struct gather {
    const unsigned char *base;
    unsigned char *out;
};

static void gather_block(void *ctx, long disp, long len)
{
    struct gather *g = ctx;
    memcpy(g->out, g->base + disp, (size_t)len);
    g->out += len;
}

static void check_type(const ddt_type *dt, int tag)
{
    MPI_Datatype t;
    const char *failed = NULL;
    CHECK(ddt_build(dt->root, &t, &failed) == MPI_SUCCESS, "%s:%d %s: %s failed", dt->origin, dt->line, dt->text,
          failed ? failed : "?");
    CHECK(MPI_Type_commit(&t) == MPI_SUCCESS, "%s:%d: commit", dt->origin, dt->line);
    int size = 0;
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &tlb, &textent);
    const ddt_node *n = dt->root;
    CHECK(size == n->size && lb == n->lb && extent == n->ub - n->lb && (size == 0 || (tlb == n->true_lb &&
          tlb + textent == n->true_ub)), "%s:%d %s: size %d lb %ld extent %ld true %ld+%ld, the MPI rules say %ld %ld %ld %ld+%ld",
          dt->origin, dt->line, dt->text, size, (long)lb, (long)extent, (long)tlb, (long)textent, n->size, n->lb,
          n->ub - n->lb, n->true_lb, n->true_ub - n->true_lb);

    /* pack 2 elements and compare with the type map's bytes */
    const int count = 2;
    MPI_Aint off = 0;
    const size_t bytes = span(t, count, &off);
    unsigned char *buf = malloc(bytes + 1), *packed = malloc((size_t)size * count + 1), *want = malloc((size_t)size * count + 1);
    fill(buf, bytes, (unsigned long)tag);
    int pos = 0;
    MPI_Pack(buf + off, count, t, packed, size * count, &pos, MPI_COMM_WORLD);
    struct gather g = {buf + off, want};
    ddt_walk(n, count, gather_block, &g);
    CHECK(pos == size * count && memcmp(packed, want, (size_t)pos) == 0, "%s:%d %s: MPI_Pack differs from the type map",
          dt->origin, dt->line, dt->text);
    free(buf);
    free(packed);
    free(want);

    ring(dt->text, t, count, tag);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int checked = 0;
    for (int f = 1; f < argc; ++f) {
        ddt_set set;
        char err[512];
        ddt_set_init(&set);
        CHECK(ddt_parse_file(&set, argv[f], err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < set.n; ++i) {
            check_type(&set.types[i], 1000 + 4 * checked);
            ++checked;
        }
        ddt_set_free(&set);
    }
    if (rank == 0) {
        printf("ddt_corpus: %d types checked on %d ranks\n", checked, size);
    }
    MPI_Finalize();
    return checked > 0 ? 0 : 1;
}
